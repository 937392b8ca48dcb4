"""Benchmark: LLM fact extraction with 1 vs N workers against a local server with fixed latency.

Usage: python bench/llm_workers.py [--episodes 200] [--latency 0.3] [--workers 8]
Starts the fake OpenAI-compatible server from tests/ on 127.0.0.1; no internet.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from fake_llm_server import FakeLLMServer, chat_json  # noqa: E402

from nemori_cli.config import Settings  # noqa: E402
from nemori_cli.models import Episode, Message, stable_id, utcnow  # noqa: E402
from nemori_cli.pipeline.base import Extraction, Usage  # noqa: E402
from nemori_cli.pipeline.litellm_import import load_litellm  # noqa: E402
from nemori_cli.pipeline.llm import LLMClient  # noqa: E402
from nemori_cli.pipeline.llm_extractor import LLMExtractor  # noqa: E402
from nemori_cli.pipeline.pool import run_pool  # noqa: E402

ANSWER = {
    "title": "Caroline talks about her week",
    "narrative": "On 7 May 2023 Caroline went to a support group and told Melanie about it.",
    "timestamp": None,
    "facts": [
        {"content": "Caroline works as a counsellor.", "category": "user_profile",
         "subject": "Caroline", "sources": [1]},
        {"content": "Caroline attended an LGBTQ support group on 7 May 2023.",
         "category": "experience", "subject": "Caroline", "sources": [1, 2]},
    ],
}


def episodes(n: int) -> list[Episode]:
    """Build n small pending episodes."""
    start = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)
    out = []
    for i in range(n):
        msgs = tuple(
            Message(id=f"e{i}m{j}", role="user", name=("Caroline", "Melanie")[j % 2],
                    content=f"Message {j} of episode {i}: I went to a support group yesterday.",
                    timestamp=start + timedelta(hours=i, minutes=j))
            for j in range(6)
        )
        out.append(Episode(
            id=stable_id("ep", str(i)), user_id="bench", conversation_id=f"c{i}", title="t",
            content="n", timestamp=msgs[0].timestamp, message_ids=tuple(m.id for m in msgs),
            messages=msgs, created_at=utcnow(), extraction={"status": "pending"},
        ))
    return out


def run(base_url: str, eps: list[Episode], workers: int) -> tuple[float, Usage, int]:
    """Extract every episode through run_pool; return seconds, usage and facts."""
    settings = Settings(data_dir=Path(tempfile.gettempdir()), llm_model="openai/test-model",
                        llm_base_url=base_url, llm_api_key="sk-bench", workers=workers)
    extractor = LLMExtractor(settings, embed=None, client=LLMClient(settings))
    results: list[Extraction] = []
    started = time.perf_counter()
    run_pool(eps, lambda ep: extractor.extract(ep, []), workers, results.append)
    seconds = time.perf_counter() - started
    failed = [r for r in results if r.episode.extraction["status"] != "done"]
    if failed or len(results) != len(eps):
        raise SystemExit(f"{len(failed)} extraction(s) failed: {failed[0].episode.extraction}")
    usage = sum((r.usage for r in results), Usage())
    return seconds, usage, sum(len(r.facts) for r in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--latency", type=float, default=0.3, help="seconds per answer")
    parser.add_argument("--workers", type=int, default=8)
    args = parser.parse_args()
    load_litellm()  # import once, outside the timings
    eps = episodes(args.episodes)
    with FakeLLMServer(lambda request: chat_json(ANSWER, delay=args.latency)) as server:
        run(server.base_url, eps[:4], 4)  # warm up connections and litellm's caches
        times = {}
        for workers in (1, args.workers):
            seconds, usage, facts = run(server.base_url, eps, workers)
            times[workers] = seconds
            print(f"workers={workers}: {len(eps)} episodes in {seconds:.2f} s "
                  f"({len(eps) / seconds:.1f} episodes/s), {usage.calls / len(eps):.2f} calls "
                  f"and {(usage.prompt_tokens + usage.completion_tokens) / len(eps):.0f} tokens "
                  f"per episode, {facts} facts")
    speedup = times[1] / times[args.workers]
    print(f"speedup workers={args.workers} vs 1: {speedup:.1f}x "
          f"(latency {args.latency * 1000:.0f} ms, ideal {args.workers}x)")


if __name__ == "__main__":
    main()
