"""A user/assistant haystack from LoCoMo (issue 17): nemori against raw-turn search.

    python bench/assistant_haystack.py             # all ten samples; writes docs/benchmarks.md
    python bench/assistant_haystack.py --no-write  # table only (and the results JSON)
    python bench/assistant_haystack.py --requests  # every user turn said inside requests;
                                                   # its own results JSON, docs/ untouched

Each LoCoMo sample becomes one user with about 50 sessions (bench/haystack_data.py): its own
sessions, speaker A as the user and speaker B as an assistant whose every answer is made
150-350 words long, plus distractor sessions from the other samples. Questions about what
the user said are asked in the first person (bench/haystack_questions.py). Each user is
ingested offline through Memory (cached like bench/locomo.py's stores, keyed by the ingest
code and the haystack's content); every question is searched with Memory.search(question,
k=30) and scored as bench/locomo.py scores (session recall rolled up from the hits, evidence
recall at 1000 words, hit@5/10), next to raw turns ("[date] role: text", one document a
turn) ranked by bm25s, by the same embedder and by RRF of both. Samples 0-4 tune, 5-9 are
held out. With --requests every user turn is wrapped in generic requests to the assistant
(haystack_data.as_request), the turn's own text whole, as a real assistant history's are.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import haystack_data  # noqa: E402
import haystack_questions  # noqa: E402
import haystack_report as report  # noqa: E402
import locomo_data  # noqa: E402
import locomo_eval as ev  # noqa: E402
from docs_section import save_results  # noqa: E402
from locomo import code_hash, disk_cached  # noqa: E402
from run_options import run_options  # noqa: E402

SPLITS = {"tune": range(0, 5), "held_out": range(5, 10)}
SYSTEMS = ("nemori", "bm25", "embed", "hybrid")
K = 30
HAYSTACK_CACHE = "nemori-haystack-cache"  # under the temp dir
REQUESTS_OUT = HERE / "results" / "assistant_haystack_requests.json"


def build_store(args: argparse.Namespace, users: dict[str, list[haystack_data.Session]]) -> Path:
    """Ingest every user's haystack unless a matching cached store exists."""
    from nemori_cli.memory import Memory

    key = hashlib.sha256(f"{code_hash()}\n{haystack_data.fingerprint(users)}".encode())
    root = Path(args.cache_dir) / key.hexdigest()[:16]
    if (root / "complete").exists() and not args.fresh:
        print(f"reusing ingested store {root}", file=sys.stderr)
        return root
    shutil.rmtree(root, ignore_errors=True)
    files = haystack_data.write_nemori_files(root / "convs", users)
    memory = Memory.open(data_dir=root / "data")
    t = time.perf_counter()
    for uid, path in files.items():
        summary = memory.ingest([str(path)], user=uid, facts=True)
        if summary.failed:
            raise SystemExit(f"ingest of {uid} failed: {summary.failed}")
        print(f"ingested {uid}: {summary.episodes} episodes, {summary.facts} facts "
              f"({summary.seconds:.1f} s)", file=sys.stderr)
    (root / "complete").write_text(f"{time.perf_counter() - t:.1f}\n")
    return root


def raw_docs(sessions: list[haystack_data.Session]) -> list[ev.Doc]:
    """One raw document a turn: "[date] role: text"."""
    return [ev.Doc(None, f"[{s.start:%d %B %Y}] {t.role}: {t.text}", (t.id,))
            for s in sessions for t in s.turns]


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Build (or reuse) the haystacks' store, score every question; return the results."""
    from nemori_cli.memory import Memory

    started = time.perf_counter()
    samples = locomo_data.load_samples(args.data)
    chosen = sorted({int(s) for s in args.samples.split(",")}) if args.samples else list(
        range(len(samples)))
    users = haystack_data.build_users(samples, chosen, args.requests)
    questions, why = haystack_questions.user_questions(samples, chosen)
    root = build_store(args, users)
    memory = Memory.open(data_dir=root / "data")
    embed = disk_cached(memory.embedder, Path(args.cache_dir) / "raw-vectors")  # any store
    t = time.perf_counter()
    rows: dict[str, list[tuple[ev.Question, dict[str, float]]]] = defaultdict(list)
    latencies: list[float] = []
    for uid in users:
        raw = ev.RawTurns(None, embed, raw_docs(users[uid]))
        for q in (q for q in questions if q.user == uid):
            t_q = time.perf_counter()
            hits = memory.search(q.question, k=K, user=uid)
            latencies.append(time.perf_counter() - t_q)
            rows["nemori"].append((q, ev.score(q, hits)))
            qvec = embed([q.question])[0]
            for method in SYSTEMS[1:]:
                rows[method].append((q, ev.score(q, raw.rank(method, q.question, K, qvec))))
    retrieval = {}
    for split, idx in SPLITS.items():
        if any(i in idx for i in chosen):
            retrieval[split] = {s: ev.aggregate([(q, m) for q, m in rows[s] if q.sample in idx])
                                for s in SYSTEMS}
    latencies.sort()
    return {
        "settings": {"k": K, "samples": chosen, "seed": haystack_data.SEED,
                     **({"requests": True} if args.requests else {}),
                     "sessions": haystack_data.SESSIONS,
                     "answer_words": list(haystack_data.ANSWER_WORDS)},
        "haystack": {
            "sessions": sum(len(s) for s in users.values()),
            "turns": sum(len(x.turns) for s in users.values() for x in s),
            "words": sum(len(t.text.split()) for s in users.values() for x in s for t in x.turns),
            "questions": dict(sorted(why.items())),
        },
        "seconds": {
            "ingest": float((root / "complete").read_text() or 0),
            "search_and_score": round(time.perf_counter() - t, 1),
            "search_p50_ms": round(1000 * latencies[len(latencies) // 2], 1) if latencies else 0,
            "total_this_run": round(time.perf_counter() - started, 1),
        },
        "retrieval": retrieval,
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = run_options(__doc__.split("\n")[0], HERE / "results" / "assistant_haystack.json",
                    HAYSTACK_CACHE)
    p.add_argument("--samples", help="comma-separated sample indexes (default: all)")
    p.add_argument("--requests", action="store_true",
                   help="say every user turn inside requests to the assistant; writes "
                        f"{REQUESTS_OUT.relative_to(ROOT)} by default and never docs/")
    args = p.parse_args(argv)
    if args.requests:
        args.no_write = True
        if args.out == p.get_default("out"):
            args.out = str(REQUESTS_OUT)
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    results = run(args)
    save_results(results, args.out, report.table(results))
    if not args.no_write:
        report.write_docs(results, ROOT / "docs" / "benchmarks.md")
        print("wrote docs/benchmarks.md", file=sys.stderr)


if __name__ == "__main__":
    main()
