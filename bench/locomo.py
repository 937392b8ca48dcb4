"""LoCoMo benchmark (issue 5): retrieval against raw-turn baselines, and fact extraction.

    python bench/locomo.py                    # offline, all ten samples; writes docs + JSON + PNG
    python bench/locomo.py --no-write         # table only (and the results JSON)
    python bench/locomo.py --llm MODEL        # extraction through an LLM (litellm)

Each sample is ingested through Memory as one user (cached between runs under
$TMPDIR/nemori-locomo-cache, keyed by the ingest code, the settings and the data); every
category 1-4 question is searched with Memory.search(question, k=30) and scored by budgeted
evidence and answer recall and hit@5/10, next to raw turns ranked by bm25s, by the same
embedder and by RRF of both. Samples 0-4 are the tuning split, 5-9 the held-out split.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import locomo_data  # noqa: E402
import locomo_eval as ev  # noqa: E402
import locomo_report as report  # noqa: E402
from docs_section import save_results  # noqa: E402
from locomo_answer_ceiling import session_texts  # noqa: E402
from run_options import run_options  # noqa: E402

SPLITS = {"tune": range(0, 5), "held_out": range(5, 10), "all": range(0, 10)}
SYSTEMS = ("nemori", "bm25", "embed", "hybrid")
K = 30
# code whose changes alter what ingest stores (search and storage code left out on purpose:
# use --fresh after changing how the stores write)
INGEST_CODE = ("pipeline", "importers", "ops/ingest.py", "indexing.py", "embed.py",
               "models.py", "config.py")


def code_hash() -> str:
    """Hash of the source files that decide what an ingest stores."""
    digest = hashlib.sha256()
    pkg = ROOT / "nemori_cli"
    for name in INGEST_CODE:
        path = pkg / name
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for f in files:
            digest.update(str(f.relative_to(pkg)).encode())
            digest.update(f.read_bytes())
    return digest.hexdigest()


def store_key(data: Path, overrides: dict[str, Any], samples: list[int]) -> str:
    """Cache key of an ingested store: code, settings, data file and chosen samples."""
    parts = [code_hash(), json.dumps(overrides, sort_keys=True), str(samples)]
    parts.append(hashlib.sha256(data.read_bytes()).hexdigest())
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def build_store(args: argparse.Namespace, overrides: dict[str, Any], chosen: list[int]) -> Path:
    """Ingest the chosen samples (one user each) unless a matching cached store exists."""
    from nemori_cli.memory import Memory

    root = Path(args.cache_dir) / store_key(Path(args.data), overrides, chosen)
    if (root / "complete").exists() and not args.fresh:
        print(f"reusing ingested store {root}", file=sys.stderr)
        return root
    shutil.rmtree(root, ignore_errors=True)
    files = dict(locomo_data.write_nemori_files(root / "convs", args.data))
    memory = Memory.open(data_dir=root / "data", **overrides)
    samples = locomo_data.load_samples(args.data)
    t = time.perf_counter()
    for i in chosen:
        uid = locomo_data.user_id(samples[i])
        summary = memory.ingest([str(files[uid])], user=uid, facts=True)
        if summary.failed:
            raise SystemExit(f"ingest of {uid} failed: {summary.failed}")
        print(f"ingested {uid}: {summary.episodes} episodes, {summary.facts} facts "
              f"({summary.seconds:.1f} s)", file=sys.stderr)
    (root / "complete").write_text(f"{time.perf_counter() - t:.1f}\n")
    return root


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Ingest (or reuse), score every question and every extractor; return the results."""
    from nemori_cli.memory import Memory

    started = time.perf_counter()
    overrides: dict[str, Any] = {"llm_model": args.llm} if args.llm else {}
    if args.topic_shift is not None:
        overrides["topic_shift_threshold"] = args.topic_shift
    if args.max_episode_messages is not None:
        overrides["max_episode_messages"] = args.max_episode_messages
    samples = locomo_data.load_samples(args.data)
    chosen = sorted({int(s) for s in args.samples.split(",")}) if args.samples else list(
        range(len(samples))
    )
    root = build_store(args, overrides, chosen)
    ingest_s = float((root / "complete").read_text() or 0)
    memory = Memory.open(data_dir=root / "data", **overrides)
    embed = disk_cached(memory.embedder, root / "vectors")
    # facts are matched to the gold ones under the model as shipped, so that the figures stay
    # comparable whatever graph the product runs it on
    from nemori_cli.embed import LocalEmbedder

    reference = disk_cached(LocalEmbedder(shipped=True), root / "vectors-shipped")

    t = time.perf_counter()
    rows: dict[str, list[tuple[ev.Question, dict[str, float]]]] = defaultdict(list)
    fact_parts: dict[int, dict[str, dict[str, Any]]] = {}
    for i in chosen:
        raw = ev.RawTurns(samples[i], embed)
        lines = {d: line for s in session_texts(samples[i]).values() for d, line in s}
        for q in ev.questions(samples, [i]):
            qvec = embed([q.question])[0]
            hits = memory.search(q.question, k=K, user=q.user)
            evidence_text = " ".join(lines.get(e, "") for e in sorted(q.evidence))
            rows["nemori"].append((q, ev.score(q, hits, evidence_text)))
            for method in SYSTEMS[1:]:
                rows[method].append((q, ev.score(q, raw.rank(method, q.question, K, qvec))))
        fact_parts[i] = facts_of(memory, samples[i], reference)
    search_s = time.perf_counter() - t

    retrieval: dict[str, Any] = {}
    facts: dict[str, Any] = {}
    for split, idx in SPLITS.items():
        members = [i for i in idx if i in chosen]
        if not members:
            continue
        retrieval[split] = {
            s: ev.aggregate([(q, m) for q, m in rows[s] if q.sample in members]) for s in SYSTEMS
        }
        turns = locomo_data.turn_count([samples[i] for i in members])
        extractors = sorted({x for i in members for x in fact_parts[i]})
        facts[split] = {
            x: ev.fact_summary([fact_parts[i][x] for i in members if x in fact_parts[i]], turns)
            for x in extractors
        }
    return {
        "settings": {"k": K, "budgets": list(ev.BUDGETS), "samples": chosen, **overrides},
        "seconds": {
            "ingest": ingest_s,
            "search_and_score": round(search_s, 1),
            "total_this_run": round(time.perf_counter() - started, 1),
        },
        "retrieval": retrieval,
        "facts": facts,
    }


def disk_cached(embedder: Any, folder: Path) -> Any:
    """embed(), with large batches (turns, gold facts) kept on disk between runs."""
    import numpy as np

    def embed(texts: list[str]) -> Any:
        if len(texts) < 64:
            return embedder.embed(texts)
        key = hashlib.sha256("\x1f".join([embedder.model_id, *texts]).encode()).hexdigest()[:24]
        path = folder / f"{key}.npy"
        if path.exists():
            return np.load(path)
        vectors = np.asarray(embedder.embed(texts), dtype=np.float32)
        folder.mkdir(parents=True, exist_ok=True)
        np.save(path, vectors)
        return vectors

    return embed


def facts_of(memory: Any, sample: dict[str, Any], embed: Any) -> dict[str, dict[str, Any]]:
    """Match the sample's current facts, per extractor, against its gold observations."""
    uid = locomo_data.user_id(sample)
    gold = ev.gold_facts(sample)
    gold_vecs = embed(gold) if gold else []
    by_extractor: dict[str, list[str]] = defaultdict(list)
    for f in memory.facts(user=uid, include_superseded=False):
        by_extractor[f.extractor].append(f.content)
    return {
        x: ev.fact_match(gold_vecs, embed(texts)) for x, texts in by_extractor.items()
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = run_options(__doc__.split("\n")[0], HERE / "results" / "locomo.json",
                    "nemori-locomo-cache")
    p.add_argument("--llm", help="extract with this LLM model (litellm); default offline")
    p.add_argument("--samples", help="comma-separated sample indexes (default: all)")
    p.add_argument("--topic-shift", type=float, help="settings.topic_shift_threshold")
    p.add_argument("--max-episode-messages", type=int, help="settings.max_episode_messages")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    results = run(args)
    save_results(results, args.out, report.table(results))
    if not args.no_write:
        chart = ROOT / "docs" / "locomo.png"
        report.chart(results, chart)
        report.write_docs(results, ROOT / "docs" / "benchmarks.md")
        print(f"wrote docs/benchmarks.md and {chart.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
