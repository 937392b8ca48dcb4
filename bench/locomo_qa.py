"""LoCoMo question answering (issue 13): answers from memory, judged CORRECT/WRONG by an LLM.

    python bench/locomo_qa.py --answer-model MODEL [--judge-model MODEL] [--base-url URL]
                              [--samples 0,1] [--limit N] [--budget 1500]

Every category 1-4 question of the chosen samples (at most --limit a sample) is answered twice
at the same word budget, by the same answer model and prompt (`nemori ask`'s):
- nemori: Memory.ask, i.e. hybrid search over episodes and facts packed within the budget;
- raw_hybrid: raw turns ranked by RRF of bm25s and the same embedder (bench/locomo.py's
  baseline), packed within the budget by the same function.
A judge model labels each answer CORRECT/WRONG with the generous protocol of the published
mem0 and Nemori LoCoMo evaluations (see locomo_judge.py). Samples are ingested (offline, or
with --llm) into a cached store exactly as bench/locomo.py does. Prints accuracy per category
and overall, tokens and cost; writes bench/results/locomo_qa.json and (unless --no-write) the
locomo-qa section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import locomo  # noqa: E402
import locomo_data  # noqa: E402
import locomo_eval as ev  # noqa: E402
import locomo_judge  # noqa: E402
import locomo_qa_report as report  # noqa: E402
from docs_section import save_results  # noqa: E402

SYSTEMS = ("nemori", "raw_hybrid")


@dataclass(frozen=True)
class QA:
    """One category 1-4 LoCoMo question with its gold answer."""

    sample: int
    user: str
    category: int
    question: str
    gold: str


def qa_questions(samples: list[dict[str, Any]], chosen: list[int], limit: int | None) -> list[QA]:
    """Every category 1-4 question of the chosen samples (the first `limit` of each)."""
    out: list[QA] = []
    for i in chosen:
        uid = locomo_data.user_id(samples[i])
        rows = [qa for qa in samples[i]["qa"] if int(qa.get("category") or 0) in ev.CATEGORIES]
        out.extend(
            QA(i, uid, int(qa["category"]), qa["question"], str(qa.get("answer", "")))
            for qa in rows[:limit]
        )
    return out


def turn_times(sample: dict[str, Any]) -> dict[str, datetime | None]:
    """Each dialogue id's session date (raw turns are dated by their session)."""
    return {
        str(t["dia_id"]): locomo_data.parse_session_time(when) if when else None
        for _, turns, when in locomo_data.sessions(sample)
        for t in turns
    }


def asked_on(sample: dict[str, Any]) -> datetime | None:
    """The date the questions are asked on: the last session's."""
    dates = [d for d in turn_times(sample).values() if d is not None]
    return max(dates) if dates else None


def raw_hits(raw: ev.RawTurns, times: dict[str, datetime | None], question: str,
             budget: int) -> list[Any]:
    """The raw-turn hybrid baseline's evidence: best turns within the budget, as hits."""
    from nemori_cli.answer.budget import take_budget
    from nemori_cli.models import SearchHit

    docs = take_budget(raw.rank("hybrid", question, ev.POOL), budget)
    return [
        SearchHit(kind="turn", id=d.message_ids[0], score=0.0, content=d.content,  # type: ignore[arg-type]
                  timestamp=times.get(d.message_ids[0]), message_ids=d.message_ids)
        for d in docs
    ]


def answer_row(system: str, q: QA, ask: Callable[[], Any], judge_client: Any) -> dict[str, Any]:
    """Answer one question through one system, judge it; record answer, label, usage, errors."""
    from nemori_cli.pipeline.base import Usage
    from nemori_cli.pipeline.llm import LLMError

    row: dict[str, Any] = {"system": system, "sample": q.sample, "category": q.category,
                           "question": q.question, "gold": q.gold}
    t = time.perf_counter()
    try:
        result = ask()
        row.update(answer=result.answer or "", answerable=result.answerable,
                   shown=len(result.hits), cited=[c.n for c in result.citations],
                   invalid_citations=list(result.invalid_citations))
        usage = result.usage
    except LLMError as exc:
        row.update(answer="", error=str(exc))
        usage = exc.usage
    row["answer_usage"] = asdict(usage)
    row["answer_seconds"] = round(time.perf_counter() - t, 2)
    judge_usage = Usage()
    try:
        correct, judge_usage = locomo_judge.judge(judge_client, q.question, q.gold, row["answer"])
    except LLMError as exc:
        correct = False
        row["judge_error"] = str(exc)
        judge_usage = exc.usage
    row["correct"] = correct
    row["judge_usage"] = asdict(judge_usage)
    return row


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Ingest (or reuse), answer and judge every chosen question; return the results."""
    from nemori_cli.answer.ask import answer_question
    from nemori_cli.config import Settings
    from nemori_cli.memory import Memory
    from nemori_cli.pipeline.llm import LLMClient

    started = time.perf_counter()
    overrides: dict[str, Any] = {"llm_model": args.llm} if args.llm else {}
    samples = locomo_data.load_samples(args.data)
    chosen = sorted({int(s) for s in args.samples.split(",")}) if args.samples else list(
        range(len(samples)))
    root = locomo.build_store(args, overrides, chosen)
    model = {"llm_model": args.answer_model, "llm_base_url": args.base_url,
             "llm_timeout": args.timeout}
    memory = Memory.open(data_dir=root / "data", **{**overrides, **model})
    judge_settings = Settings(data_dir=root / "data", llm_model=args.judge_model or
                              args.answer_model, llm_base_url=args.judge_base_url or args.base_url,
                              llm_timeout=args.timeout, llm_retries=2)
    judge_client = LLMClient(judge_settings)
    embed = locomo.disk_cached(memory.embedder, root / "vectors")
    questions = qa_questions(samples, chosen, args.limit)
    rows: list[dict[str, Any]] = []
    done = 0
    for i in chosen:
        raw = ev.RawTurns(samples[i], embed)
        times, today = turn_times(samples[i]), asked_on(samples[i])
        for q in (q for q in questions if q.sample == i):
            shown = raw_hits(raw, times, q.question, args.budget)
            asks: dict[str, Callable[[], Any]] = {
                "nemori": partial(memory.ask, q.question, budget=args.budget, user=q.user,
                                  today=today),
                "raw_hybrid": partial(answer_question, q.question, shown, memory.settings,
                                      today=today),
            }
            for system in SYSTEMS:
                rows.append(answer_row(system, q, asks[system], judge_client))
            done += 1
            marks = " ".join(f"{r['system']}={'CORRECT' if r['correct'] else 'WRONG'}"
                             for r in rows[-len(SYSTEMS):])
            print(f"[{done}/{len(questions)}] {marks}", file=sys.stderr)
    return {
        "settings": {
            "answer_model": args.answer_model,
            "judge_model": judge_settings.llm_model,
            "base_url": args.base_url,
            "budget": args.budget,
            "samples": chosen,
            "limit": args.limit,
            "questions": len(questions),
            "extraction": args.llm or "offline",
            "plumbing": args.plumbing,
        },
        "seconds": round(time.perf_counter() - started, 1),
        "summary": {s: report.summarise([r for r in rows if r["system"] == s]) for s in SYSTEMS},
        "rows": rows,
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--answer-model", required=True, help="litellm model that answers")
    p.add_argument("--judge-model", help="litellm model that judges (default: the answer model)")
    p.add_argument("--base-url", help="OpenAI-compatible base URL of the answer model")
    p.add_argument("--judge-base-url", help="base URL of the judge (default: --base-url)")
    p.add_argument("--budget", type=int, default=1500, help="words of memories per answer")
    p.add_argument("--samples", help="comma-separated sample indexes (default: all ten)")
    p.add_argument("--limit", type=int, help="at most this many questions of each sample")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per LLM call")
    p.add_argument("--llm", help="extract with this LLM at ingest (default: offline)")
    p.add_argument("--plumbing", action="store_true",
                   help="label the figures as a plumbing run (a toy model), not quality")
    p.add_argument("--data", default=str(locomo_data.DEFAULT_PATH), help="locomo10.json")
    p.add_argument("--out", default=str(HERE / "results" / "locomo_qa.json"), help="results JSON")
    p.add_argument("--cache-dir", default=str(Path(tempfile.gettempdir()) / "nemori-locomo-cache"))
    p.add_argument("--fresh", action="store_true", help="ingest again even if cached")
    p.add_argument("--no-write", action="store_true", help="leave docs/ untouched")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    results = run(args)
    results["command"] = "python bench/locomo_qa.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    save_results(results, args.out, report.table(results))
    if not args.no_write:
        report.write_docs(results, ROOT / "docs" / "benchmarks.md")
        print("wrote docs/benchmarks.md", file=sys.stderr)
    return results


if __name__ == "__main__":
    main()
