"""Search latency on stores made of real chats: the haystack's and LoCoMo's (run by hand).

    python bench/search_latency.py             # both stores; writes docs/benchmarks.md
    python bench/search_latency.py --no-write  # table only
    python bench/search_latency.py --only haystack --samples 0,1

bench/perf.py times search on a synthetic store; here every question of
bench/assistant_haystack.py (long assistant answers, the shape of ChatGPT and Claude exports)
and of bench/locomo.py (chats between two people) is searched with Memory.search(question,
k=30), as those benchmarks search, after a warm-up of a few questions a user. The stores are
those benchmarks' cached ones (ingested first if missing, which takes a while); --haystack-store
and --locomo-store point at a store directory directly. Prints p50/p95/mean per store and the
load average (the machine may be shared: compare timings of one run, not across runs).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import haystack_questions  # noqa: E402
import locomo_data  # noqa: E402
import locomo_eval as ev  # noqa: E402
from docs_section import replace_section  # noqa: E402

K = 30
WARMUP = 3  # questions a user searched once, untimed, before its timed ones
START, END = "<!-- search-latency:start -->", "<!-- search-latency:end -->"
STORES = ("haystack", "locomo")


def load_average() -> str:
    """The 1, 5 and 15-minute load averages, as /proc/loadavg shows them."""
    try:
        import os

        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def haystack_store(args: argparse.Namespace, samples: list[Any], chosen: list[int]) -> Path:
    """The haystack's ingested store: given, or cached (built) as assistant_haystack does."""
    if args.haystack_store:
        return Path(args.haystack_store)
    import assistant_haystack
    import haystack_data

    users = haystack_data.build_users(samples, chosen)
    cache = argparse.Namespace(cache_dir=args.haystack_cache, fresh=False)
    return assistant_haystack.build_store(cache, users)


def locomo_store(args: argparse.Namespace, chosen: list[int]) -> Path:
    """LoCoMo's ingested store: given, or cached (built) as bench/locomo.py does."""
    if args.locomo_store:
        return Path(args.locomo_store)
    import locomo

    cache = argparse.Namespace(cache_dir=args.locomo_cache, data=args.data, fresh=False)
    return locomo.build_store(cache, {}, chosen)


def questions(store: str, samples: list[Any], chosen: list[int]) -> list[ev.Question]:
    """The questions a store's benchmark asks."""
    if store == "haystack":
        return haystack_questions.user_questions(samples, chosen)[0]
    return ev.questions(samples, chosen)


def time_store(root: Path, qs: list[ev.Question]) -> list[float]:
    """Seconds each question's search takes, after a warm-up of WARMUP questions a user."""
    from nemori_cli.memory import Memory

    memory = Memory.open(data_dir=root / "data")
    users = list(dict.fromkeys(q.user for q in qs))
    for user in users:
        for q in [q for q in qs if q.user == user][:WARMUP]:
            memory.search(q.question, k=K, user=user)
    seconds = []
    for q in qs:
        t = time.perf_counter()
        memory.search(q.question, k=K, user=q.user)
        seconds.append(time.perf_counter() - t)
    return seconds


def summary(seconds: list[float]) -> dict[str, float]:
    """p50, p95 and mean in milliseconds."""
    ms = sorted(1000 * s for s in seconds)
    return {
        "questions": len(ms),
        "p50_ms": round(statistics.median(ms), 1),
        "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 1),
        "mean_ms": round(statistics.fmean(ms), 1),
    }


def table(rows: dict[str, dict[str, float]], load: tuple[str, str]) -> str:
    """The results as a markdown table, with the load average before and after."""
    lines = ["| store | questions | p50 ms | p95 ms | mean ms |", "|---|---:|---:|---:|---:|"]
    lines += [
        f"| {name} | {r['questions']} | {r['p50_ms']} | {r['p95_ms']} | {r['mean_ms']} |"
        for name, r in rows.items()
    ]
    lines.append(f"\nload average (1, 5, 15 min): {load[0]} before, {load[1]} after")
    return "\n".join(lines)


HISTORY = """\
Issue 19 (2026-12-03): on chats with long assistant answers a search spent its time in
`search/focus.py`, deriving the same things from the same messages for every question. What
focus derives from a message (its spoken turns and their vector ids, whether it names a time,
its relative dates resolved) is now kept in bounded caches keyed by the text
(`search/turns.py`), and `best_stretch` and the query-word share do less work. Hits are
byte-identical to before on all 622 haystack and 1,536 LoCoMo questions. Timed against the
code before, in one run, the two alternating question by question (load 2-2.6; a
long-running process is `nemori mcp` or the Python API, a one-shot one `nemori search`):

| store | before p50 / p95 / mean ms | after p50 / p95 / mean ms |
|---|---|---|
| haystack, caches warm (a long-running process) | 237.9 / 522.9 / 268.6 | 153.5 / 259.7 / 158.2 |
| LoCoMo, caches warm | 32.5 / 80.3 / 41.4 | 19.5 / 31.2 / 20.8 |
| haystack, cleared caches (one-shot) | 119.8 / 259.6 / 145.0 | 123.3 / 227.8 / 141.1 |

A one-shot search gains nothing at p50: it still runs the relative-date patterns once per
message it shows. Tried and dropped: caching word positions per text (warm p50 112 ms, but
cold slower than before, 265 against 167 ms) and each message's split words (up to ~75 MB)."""


def write_docs(body: str, command: str) -> None:
    """Replace this benchmark's section of docs/benchmarks.md."""
    section = (
        f"{START}\n## Search latency on real chats\n\n"
        "Memory.search(question, k=30) on every question of the haystack and LoCoMo "
        "benchmarks' stores (after a warm-up), in process.\n\n"
        f"```\n{command}\n```\n\n{body}\n\n{HISTORY}\n{END}"
    )
    replace_section(ROOT / "docs" / "benchmarks.md", START, END, section)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default=str(locomo_data.DEFAULT_PATH), help="locomo10.json")
    p.add_argument("--samples", help="comma-separated sample indexes (default: all)")
    p.add_argument("--only", help=f"comma-separated stores of {', '.join(STORES)}")
    p.add_argument("--haystack-store", help="an ingested haystack store directory")
    p.add_argument("--locomo-store", help="an ingested LoCoMo store directory (all samples)")
    tmp = Path(tempfile.gettempdir())
    p.add_argument("--haystack-cache", default=str(tmp / "nemori-haystack-cache"))
    p.add_argument("--locomo-cache", default=str(tmp / "nemori-locomo-cache"))
    p.add_argument("--no-write", action="store_true", help="leave docs/ untouched")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    samples = locomo_data.load_samples(args.data)
    everything = list(range(len(samples)))
    chosen = sorted({int(s) for s in args.samples.split(",")}) if args.samples else everything
    only = args.only.split(",") if args.only else list(STORES)
    before = load_average()
    rows = {}
    for store in only:
        root = haystack_store(args, samples, everything) if store == "haystack" else (
            locomo_store(args, everything))
        rows[store] = summary(time_store(root, questions(store, samples, chosen)))
        print(f"{store}: {rows[store]}", file=sys.stderr)
    body = table(rows, (before, load_average()))
    print(body)
    if not args.no_write:
        command = "python bench/search_latency.py" + (" " + " ".join(argv or sys.argv[1:]))
        write_docs(body, command.strip())
        print("wrote docs/benchmarks.md", file=sys.stderr)


if __name__ == "__main__":
    main()
