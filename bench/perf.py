"""Performance benchmark for nemori (run by hand, not in CI): issue 6's measurements and targets.

    python bench/perf.py                      # everything, writes docs/benchmarks.md
    python bench/perf.py --only startup,search10k --repeat 3 --no-write

Measures, as medians over --repeat runs: `nemori --help` and `facts list` as whole processes
beside `python -c pass`; a cold `nemori search` on 10k episodes + 10k facts; in-process
Memory.search p50/p95 at 10k and 100k per kind; offline LoCoMo ingest (stage shares, peak
memory); reindex, `facts list` and `facts delete` at 100k. Synthetic stores are built once
through the ingest code path and cached under $TMPDIR/nemori-perf-cache (see synth_store.py).
Each in-process measurement runs in a fresh child process, so its peak memory is its own.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import synth_store  # noqa: E402

PY = sys.executable
NEMORI = [PY, "-m", "nemori_cli.cli.app"]
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- perf:start -->", "<!-- perf:end -->"
QUERIES = (
    "hiking in Lisbon",
    "who is allergic to ramen",
    "new camera warranty",
    "trip to Kyoto",
    "job as a nurse",
    "kayaking with Maria",
    "repair shop quote",
    "pottery course in March",
    "good sushi place",
    "Jonas works as an engineer",
    "sailing last weekend",
    "telescope",
)
ITEMS = ("startup", "search10k", "search100k", "locomo", "big100k")


def _nemori_bin() -> list[str]:
    """The installed console script when there is one (what users run), else python -m."""
    script = Path(PY).with_name("nemori")
    return [str(script)] if script.exists() else NEMORI


def _wall(cmd: list[str], *, env: dict[str, str] | None = None) -> float:
    t = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    took = time.perf_counter() - t
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr.decode()[-500:]}")
    return took


def _median_wall(cmds: list[list[str]], repeat: int) -> float:
    _wall(cmds[0])  # warm the page cache once
    return statistics.median(_wall(cmds[i % len(cmds)]) for i in range(repeat))


def _child(task: str, *args: str) -> dict[str, Any]:
    """Run `perf.py --child task args` in a fresh process; return the JSON it prints last."""
    done = subprocess.run(
        [PY, str(Path(__file__).resolve()), "--child", task, *args],
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"child {task} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- children (run in their own process) -------------------------------------------------


def child_search(data_dir: str, n_queries: str) -> dict[str, Any]:
    """In-process Memory.search latency over varied queries, after one warm-up query."""
    from nemori_cli.memory import Memory

    memory = Memory.open(data_dir=Path(data_dir), user=synth_store.USER)
    t = time.perf_counter()
    memory.search(QUERIES[0])
    first = time.perf_counter() - t
    rng = random.Random(3)
    times = []
    for i in range(int(n_queries)):
        q = f"{rng.choice(QUERIES)} {rng.choice(synth_store.NAMES)}" if i % 2 else QUERIES[i % 12]
        t = time.perf_counter()
        memory.search(q, k=10)
        times.append(time.perf_counter() - t)
    times.sort()
    return {
        "first_s": first,
        "p50_ms": 1000 * statistics.median(times),
        "p95_ms": 1000 * times[min(len(times) - 1, int(0.95 * len(times)))],
        "peak_mb": _peak_mb(),
    }


def child_locomo(data_dir: str, conv_dir: str) -> dict[str, Any]:
    """Offline ingest of the converted LoCoMo files (one user per sample), facts on."""
    import stages

    from nemori_cli.memory import Memory

    clock = stages.install()
    memory = Memory.open(data_dir=Path(data_dir))
    files = sorted(Path(conv_dir).glob("*.json"))
    messages = episodes = facts = 0
    t = time.perf_counter()
    for f in files:
        s = memory.ingest([str(f)], user=f.stem, facts=True)
        if s.failed:
            raise RuntimeError(f"ingest failed: {s.failed}")
        messages, episodes, facts = messages + s.messages, episodes + s.episodes, facts + s.facts
    total = time.perf_counter() - t
    shares = {k: v / total for k, v in clock.totals.items()}
    shares["other"] = max(0.0, 1 - sum(shares.values()))
    return {
        "seconds": total,
        "messages": messages,
        "episodes": episodes,
        "facts": facts,
        "shares": shares,
        "peak_mb": _peak_mb(),
    }


def child_reindex(data_dir: str) -> dict[str, Any]:
    """Memory.reindex at the store's size, with the stand-in embedder (see the report)."""
    from nemori_cli.embed import LOCAL_MODEL_ID
    from nemori_cli.memory import Memory

    memory = Memory.open(data_dir=Path(data_dir), user=synth_store.USER)
    memory.__dict__["embedder"] = stand_in = synth_store.HashEmbedder(LOCAL_MODEL_ID)
    texts = 0
    inner = stand_in.embed

    def counting(batch: Any) -> Any:
        nonlocal texts
        texts += len(batch)
        return inner(batch)

    stand_in.embed = counting  # type: ignore[method-assign]
    t = time.perf_counter()
    counts = memory.reindex()
    return {"seconds": time.perf_counter() - t, "texts": texts, **counts, "peak_mb": _peak_mb()}


def child_delete(data_dir: str, n: str) -> dict[str, Any]:
    """In-process Memory.delete_facts of one fact, n times (fresh Memory each time)."""
    from nemori_cli.memory import Memory

    times = []
    for _ in range(int(n)):
        memory = Memory.open(data_dir=Path(data_dir), user=synth_store.USER)
        victim = next(iter(memory.repo().facts.all()))
        memory.vectors().count("fact")  # open the index outside the timing
        t = time.perf_counter()
        memory.delete_facts([victim])
        times.append(time.perf_counter() - t)
    return {"median_s": statistics.median(times), "peak_mb": _peak_mb()}


def child_embed_rate() -> dict[str, Any]:
    """Texts per second of the local embedder on short synthetic messages."""
    from nemori_cli.embed import LocalEmbedder

    texts = [m["content"] for c in synth_store.conversations(300, seed=5) for m in c["messages"]]
    emb = LocalEmbedder()
    emb.embed(texts[:8])
    t = time.perf_counter()
    emb.embed(texts)
    return {"texts_per_s": len(texts) / (time.perf_counter() - t)}


CHILDREN = {
    "search": child_search,
    "locomo": child_locomo,
    "reindex": child_reindex,
    "delete": child_delete,
    "embed_rate": child_embed_rate,
}


# --- measurements (parent) ---------------------------------------------------------------


class Report:
    """Rows of (measure, value, target, verdict) and notes."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str]] = []
        self.notes: list[str] = []

    def add(self, what: str, value: str, target: str = "", ok: bool | None = None) -> None:
        verdict = "" if ok is None else ("met" if ok else "**MISSED**")
        self.rows.append((what, value, target, verdict))
        print(f"  {what:<58} {value:>16}  {target:<14} {verdict}", flush=True)

    def markdown(self, command: str) -> str:
        lines = [
            START,
            "## Performance (bench/perf.py)",
            "",
            f"Command: `{command}`  ",
            f"Machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
            "",
            "| measure | value | target | verdict |",
            "|---|---:|---|---|",
            *(f"| {a} | {b} | {c} | {d} |" for a, b, c, d in self.rows),
            "",
            *(f"- {n}" for n in self.notes),
            END,
        ]
        return "\n".join(lines)


def bench_startup(rep: Report, repeat: int) -> None:
    base = _median_wall([[PY, "-c", "pass"]], repeat)
    help_s = _median_wall([[*_nemori_bin(), "--help"]], repeat)
    rep.add("`python -c pass`", f"{base:.3f} s")
    rep.add("`nemori --help`", f"{help_s:.3f} s", "<= pass + 0.25 s", help_s - base <= 0.25)


def bench_search10k(rep: Report, repeat: int) -> None:
    data = str(synth_store.cached_store(10_000))
    base = [*_nemori_bin(), "--data-dir", data, "--user", synth_store.USER]
    s = _median_wall([[*base, "facts", "list"]], repeat)
    rep.add("`nemori facts list` (table), 10k facts", f"{s:.3f} s", "<= 0.5 s", s <= 0.5)
    s = _median_wall([[*base, "facts", "list", "--json"]], repeat)
    rep.add("`nemori facts list --json`, 10k facts", f"{s:.3f} s", "<= 0.5 s", s <= 0.5)
    cmds = [[*base, "search", q] for q in QUERIES]
    s = _median_wall(cmds, repeat)
    rep.add("cold `nemori search` (table), 10k+10k", f"{s:.3f} s", "<= 1.2 s", s <= 1.2)
    s = _median_wall([[*c, "--json"] for c in cmds], repeat)
    rep.add("cold `nemori search --json`, 10k+10k", f"{s:.3f} s", "<= 1.2 s", s <= 1.2)
    _in_process(rep, 10_000, data, repeat)


def _in_process(rep: Report, n: int, data: str, repeat: int) -> None:
    runs = [_child("search", data, "60") for _ in range(max(1, repeat // 2))]
    p50 = statistics.median(r["p50_ms"] for r in runs)
    p95 = statistics.median(r["p95_ms"] for r in runs)
    first = statistics.median(r["first_s"] for r in runs)
    peak = max(r["peak_mb"] for r in runs)
    big = n >= 100_000
    label = f"{n // 1000}k+{n // 1000}k"
    rep.add(
        f"Memory.search p50, {label}",
        f"{p50:.1f} ms",
        "<= 25 ms" if big else "",
        p50 <= 25 if big else None,
    )
    rep.add(
        f"Memory.search p95, {label}",
        f"{p95:.1f} ms",
        "<= 60 ms" if big else "",
        p95 <= 60 if big else None,
    )
    rep.add(f"Memory.search first query (loads everything), {label}", f"{first:.2f} s")
    rep.add(f"peak memory of that process, {label}", f"{peak:.0f} MB")


def bench_search100k(rep: Report, repeat: int) -> None:
    _in_process(rep, 100_000, str(synth_store.cached_store(100_000)), repeat)


def bench_locomo(rep: Report, repeat: int, runs: int) -> None:
    import locomo_data

    results = []
    with tempfile.TemporaryDirectory(prefix="nemori-perf-locomo-") as tmp:
        conv_dir = Path(tmp) / "convs"
        locomo_data.write_nemori_files(conv_dir)
        for i in range(runs):
            data = Path(tmp) / f"data{i}"
            results.append(_child("locomo", str(data), str(conv_dir)))
            shutil.rmtree(data, ignore_errors=True)
    secs = statistics.median(r["seconds"] for r in results)
    r0 = results[0]
    peak = max(r["peak_mb"] for r in results)
    rep.add(
        "LoCoMo offline ingest, 10 conversations, facts on", f"{secs:.1f} s", "<= 60 s", secs <= 60
    )
    rep.add("  messages / s", f"{r0['messages'] / secs:.0f}")
    rep.add("  peak memory", f"{peak:.0f} MB", "<= 1024 MB", peak <= 1024)
    shares = {k: statistics.median(r["shares"][k] for r in results) for k in r0["shares"]}
    rep.add("  stage shares", ", ".join(f"{k} {v:.0%}" for k, v in shares.items()))
    rep.notes.append(
        f"LoCoMo ingest made {r0['episodes']} episodes and {r0['facts']} facts from "
        f'{r0["messages"]} messages ({runs} run(s)). Stage "write" is JSONL reading and '
        'writing; "index" is Chroma upserts, vector-document assembly and BM25 rebuilds; '
        '"facts" includes the vector queries made for dedup and prediction-correction.'
    )


def bench_big100k(rep: Report, repeat: int) -> None:
    with tempfile.TemporaryDirectory(prefix="nemori-perf-100k-") as tmp:
        data = synth_store.copy_store(100_000, Path(tmp) / "data")
        base = [*_nemori_bin(), "--data-dir", str(data), "--user", synth_store.USER]
        s = _median_wall([[*base, "facts", "list", "--json"]], repeat)
        rep.add("`nemori facts list --json`, 100k facts", f"{s:.3f} s")
        s = _median_wall([[*base, "facts", "list", "-n", "20"]], repeat)
        rep.add("`nemori facts list -n 20` (table), 100k facts", f"{s:.3f} s")
        d = _child("delete", str(data), str(max(3, repeat)))
        rep.add(
            "Memory.delete_facts (one fact), 100k facts",
            f"{d['median_s']:.3f} s",
            "<= 1 s",
            d["median_s"] <= 1,
        )
        ids = _fact_ids(data, repeat)
        times = [_wall([*base, "facts", "delete", fid, "--yes"]) for fid in ids]
        s = statistics.median(times)
        rep.add(
            "`nemori facts delete ID --yes` (whole process), 100k", f"{s:.3f} s", "<= 1 s", s <= 1
        )
        r = _child("reindex", str(data))
        rep.add("Memory.reindex, 100k+100k, stand-in embedder", f"{r['seconds']:.1f} s")
        rate = _child("embed_rate")["texts_per_s"]
        est = r["texts"] / rate
        rep.add(
            "  + local-model embedding of its texts (estimate)",
            f"{est / 60:.0f} min",
            f"{r['texts']} texts at {rate:.0f}/s",
        )
        rep.add("  peak memory (stand-in embedder)", f"{r['peak_mb']:.0f} MB")
    rep.notes.append(
        "Stores of 10k/100k episodes + facts are synthetic (2-4 message conversations, one "
        "episode each) built through Memory.ingest with a hashing stand-in for the embedder "
        "(same model id and dimension); queries are embedded by the real local model. "
        "Reindex is timed with the stand-in, and the local model's embedding time is "
        "estimated from its measured rate, since re-embedding 100k+100k records takes minutes."
    )


def _fact_ids(data: Path, n: int) -> list[str]:
    ids = []
    with open(data / "users" / synth_store.USER / "facts.jsonl", "rb") as fh:
        for line in fh:
            ids.append(json.loads(line)["id"])
            if len(ids) >= 50:
                break
    return ids[-n:]


def write_doc(section: str) -> None:
    """Replace this benchmark's section of docs/benchmarks.md (create the file if missing)."""
    text = DOC.read_text("utf-8") if DOC.exists() else "# Benchmarks\n"
    if START in text and END in text:
        head, rest = text.split(START, 1)
        text = head + section + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(text, "utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=",".join(ITEMS), help=f"comma list of {', '.join(ITEMS)}")
    ap.add_argument("--repeat", type=int, default=5, help="runs per timing (median)")
    ap.add_argument("--ingest-runs", type=int, default=1, help="LoCoMo ingest runs (median)")
    ap.add_argument("--rebuild", action="store_true", help="rebuild the cached stores")
    ap.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(CHILDREN[args.child[0]](*args.child[1:])))
        return
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(only) - set(ITEMS)
    if unknown:
        ap.error(f"unknown item(s): {', '.join(sorted(unknown))}")
    if args.rebuild:
        for n in (10_000, 100_000):
            synth_store.cached_store(n, rebuild=True)
    rep = Report()
    print(f"nemori perf: {os.cpu_count()} cores; stores cached in {synth_store.CACHE_ROOT}")
    for item in only:
        print(f"[{item}]", flush=True)
        if item == "locomo":
            bench_locomo(rep, args.repeat, args.ingest_runs)
        else:
            globals()[f"bench_{item}"](rep, args.repeat)
    command = "python bench/perf.py " + " ".join(sys.argv[1:])
    if not args.no_write:
        write_doc(rep.markdown(command.strip()))
        print(f"wrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
