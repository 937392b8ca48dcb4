"""The parts of bench/perf.py that run in a child process (fresh memory, own peak RSS).

Run as `python bench/perf.py --child NAME ARGS...`; each prints one JSON line.
"""

from __future__ import annotations

import random
import resource
import statistics
import time
from pathlib import Path
from typing import Any

import synth_store

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


def _peak_mb() -> float:
    """This process's peak resident memory (MB).

    VmHWM, not ru_maxrss: on Linux ru_maxrss keeps the parent's peak across fork and exec,
    so a child of a big benchmark process would report the parent's memory.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_s() -> float:
    """CPU seconds used by this process so far (user + system): load-independent work."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# --- children (run in their own process) -------------------------------------------------


SETTLING = 10  # queries in which a long-running process makes its one-time loads


def read_through(folder: Path) -> None:
    """Read every file under folder once, so that it is in the page cache."""
    for path in folder.rglob("*"):
        if path.is_file():
            with path.open("rb") as fh:
                while fh.read(1 << 20):
                    pass


def child_search(data_dir: str, n_queries: str) -> dict[str, Any]:
    """In-process Memory.search latency over varied queries, once the process has settled.

    The first query loads the model and the indexes; from the second, Chroma's HNSW index of a
    big kind loads in the background. Those first
    SETTLING queries are timed apart; p50 and p95 are of the n_queries after them, once the
    HNSW indexes are in (a server between two questions). The store's files are read once
    first, as a server's would be in the page cache: this VM's disk stalls otherwise. CPU
    time per query is kept too (the load changes it less than wall time).
    """
    from nemori_cli.memory import Memory

    read_through(Path(data_dir))
    memory = Memory.open(data_dir=Path(data_dir), user=synth_store.USER)
    rng = random.Random(3)
    times, cpu = [], []
    for i in range(SETTLING + int(n_queries)):
        q = f"{rng.choice(QUERIES)} {rng.choice(synth_store.NAMES)}" if i % 2 else QUERIES[i % 12]
        if i == SETTLING:
            getattr(memory.parts.vectors(), "wait_for_hnsw", lambda: None)()
        t, c = time.perf_counter(), time.process_time()
        memory.search(q, k=10)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    settling, steady = times[:SETTLING], sorted(times[SETTLING:])
    steady_cpu = sorted(cpu[SETTLING:])
    return {
        "first_s": settling[0],
        "second_s": settling[1],
        "settling_max_ms": 1000 * max(settling[2:]),
        "p50_ms": 1000 * statistics.median(steady),
        "p95_ms": 1000 * steady[min(len(steady) - 1, int(0.95 * len(steady)))],
        "p50_cpu_ms": 1000 * statistics.median(steady_cpu),
        "p95_cpu_ms": 1000 * steady_cpu[min(len(steady) - 1, int(0.95 * len(steady)))],
        "peak_mb": _peak_mb(),
    }


def child_locomo(data_dir: str, conv_dir: str) -> dict[str, Any]:
    """Offline ingest of the converted LoCoMo files (one user per sample), facts on; its floor."""
    import ingest_floor
    import stages

    from nemori_cli.memory import Memory
    from nemori_cli.native_memory import limit_arenas

    limit_arenas()  # as the console script does for a writing command

    texts = Path(data_dir + "-embedded.jsonl")
    ingest_floor.record(texts)
    clock = stages.install()
    memory = Memory.open(data_dir=Path(data_dir))
    files = sorted(Path(conv_dir).glob("*.json"))
    messages = episodes = facts = 0
    t, cpu = time.perf_counter(), _cpu_s()
    for f in files:
        s = memory.ingest([str(f)], user=f.stem, facts=True)
        if s.failed:
            raise RuntimeError(f"ingest failed: {s.failed}")
        messages, episodes, facts = messages + s.messages, episodes + s.episodes, facts + s.facts
    total = time.perf_counter() - t
    shares = {k: v / total for k, v in clock.totals.items()}
    shares["other"] = max(0.0, 1 - sum(shares.values()))
    out = {
        "seconds": total,
        "cpu_s": _cpu_s() - cpu,
        "messages": messages,
        "episodes": episodes,
        "facts": facts,
        "shares": shares,
        "peak_mb": _peak_mb(),
    }
    return {**out, **ingest_floor.replay(texts)}


def child_ingest(data_dir: str, facts: str, *paths: str) -> dict[str, Any]:
    """Memory.ingest of these files (facts "1" or "0"), its stage shares, peak memory and floor."""
    import ingest_floor
    import stages

    from nemori_cli.memory import Memory
    from nemori_cli.native_memory import limit_arenas

    limit_arenas()  # as the console script does for a writing command

    texts = Path(data_dir + "-embedded.jsonl")
    ingest_floor.record(texts)
    clock = stages.install()
    memory = Memory.open(data_dir=Path(data_dir))
    t, cpu = time.perf_counter(), _cpu_s()
    s = memory.ingest(list(paths), facts=facts == "1")
    total = time.perf_counter() - t
    if s.failed:
        raise RuntimeError(f"ingest failed: {s.failed[:3]}")
    shares = {k: v / total for k, v in clock.totals.items()}
    shares["other"] = max(0.0, 1 - sum(shares.values()))
    out = {
        "seconds": total,
        "cpu_s": _cpu_s() - cpu,
        "conversations": s.conversations,
        "messages": s.messages,
        "episodes": s.episodes,
        "facts": s.facts,
        "shares": shares,
        "peak_mb": _peak_mb(),  # before the floor's replay
    }
    return {**out, **ingest_floor.replay(texts)}


def _top_records(sims: Any, records: list[str], k: int) -> set[str]:
    """The k best records of an exact similarity vector (a record counts once)."""
    import numpy as np

    best: set[str] = set()
    for row in np.argsort(-sims, kind="stable"):
        best.add(records[row])
        if len(best) >= k:
            break
    return best


def child_recall(data_dir: str, k: str) -> dict[str, Any]:
    """Recall@k of the flat copy's answer against the exact answer over Chroma's own vectors.

    The truth is brute force over every vector Chroma holds for the kind (its `dump`), so a
    flat copy that lost, kept stale or rounded vectors scores below 1. Chroma's HNSW answer is
    measured against the same truth, for comparison.
    """
    import numpy as np

    from nemori_cli.embed import LocalEmbedder
    from nemori_cli.memory import Memory
    from nemori_cli.store import mirrored

    # the copy itself, on every query (a long-running reader moves to HNSW past this size)
    mirrored.FLAT_EXACT_ROWS = mirrored.FLAT_MAX_ROWS
    memory = Memory.open(data_dir=Path(data_dir), user=synth_store.USER)
    vectors: Any = memory.parts.vectors()
    embedder = LocalEmbedder()
    rng = random.Random(5)
    mixed = (f"{rng.choice(QUERIES)} {rng.choice(synth_store.NAMES)}" for _ in range(12))
    queries = embedder.embed([*QUERIES, *mixed])
    n = int(k)
    out: dict[str, Any] = {"queries": len(queries)}
    found = hnsw_found = wanted = 0
    for kind in ("episode", "fact"):
        pages = list(vectors.chroma.dump(kind))
        matrix = np.concatenate([p[1] for p in pages])
        records = [str(m["record_id"]) for p in pages for m in p[2]]
        for q in queries:
            truth = _top_records(matrix @ q, records, n)
            flat = {r for r, _ in vectors.query(kind, q, n)}
            hnsw = {r for r, _ in vectors.chroma.query(kind, q, n)}
            found, hnsw_found, wanted = (
                found + len(flat & truth),
                hnsw_found + len(hnsw & truth),
                wanted + len(truth),
            )
        del matrix, pages
    out["recall"] = found / max(1, wanted)
    out["hnsw_recall"] = hnsw_found / max(1, wanted)
    return out


def child_reindex(data_dir: str) -> dict[str, Any]:
    """Memory.reindex at the store's size, with the stand-in embedder (see the report)."""
    from nemori_cli.embed import LOCAL_MODEL_ID
    from nemori_cli.memory import Memory

    stand_in = synth_store.HashEmbedder(LOCAL_MODEL_ID)
    memory = Memory.open(data_dir=Path(data_dir), user=synth_store.USER, embedder=stand_in)
    texts = 0
    inner = stand_in.embed

    def counting(batch: Any) -> Any:
        nonlocal texts
        texts += len(batch)
        return inner(batch)

    stand_in.embed = counting  # type: ignore[method-assign]
    t, cpu = time.perf_counter(), _cpu_s()
    counts = memory.reindex()
    return {
        "seconds": time.perf_counter() - t,
        "cpu_s": _cpu_s() - cpu,
        "texts": texts,
        **counts.to_dict(),
        "peak_mb": _peak_mb(),
    }


def child_delete(data_dir: str, n: str) -> dict[str, Any]:
    """In-process Memory.delete_facts of one fact, n times (fresh Memory each time)."""
    from nemori_cli.memory import Memory

    times = []
    for _ in range(int(n)):
        memory = Memory.open(data_dir=Path(data_dir), user=synth_store.USER)
        victim = next(iter(memory.parts.repo().facts.all()))
        memory.parts.vectors().count("fact")  # open the index outside the timing
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
    t, cpu = time.perf_counter(), _cpu_s()
    emb.embed(texts)
    wall, cpu = time.perf_counter() - t, _cpu_s() - cpu
    return {"texts_per_s": len(texts) / wall, "texts_per_cpu_s": len(texts) / cpu}


CHILDREN = {
    "search": child_search,
    "locomo": child_locomo,
    "ingest": child_ingest,
    "recall": child_recall,
    "reindex": child_reindex,
    "delete": child_delete,
    "embed_rate": child_embed_rate,
}
