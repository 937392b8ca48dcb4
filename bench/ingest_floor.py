"""The floor of an ingest: the local embedder alone on exactly the texts the ingest embedded.

record() patches LocalEmbedder.embed so that every call's texts are appended to a file (one
JSON list a line, so the recording does not add to the ingest's memory); replay() then sends
the same calls, in the same order and batches, through a fresh LocalEmbedder and times them.
The ratio of the ingest's time to the floor's, both taken in one run, says how much the rest
of the ingest (parsing, segmentation, storage, indexing) adds; CPU seconds are load-independent.
"""

from __future__ import annotations

import resource
import time
from pathlib import Path
from typing import Any

import orjson


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


ORIGINAL: dict[str, Any] = {}  # LocalEmbedder.embed before record() wrapped it


def record(path: Path) -> None:
    """From now on, append the texts of every local-model embed call to path (until replay)."""
    from nemori_cli.embed import LocalEmbedder

    inner = ORIGINAL.setdefault("embed", LocalEmbedder.embed)
    sink = path.open("ab")

    def embed(self: Any, texts: Any) -> Any:
        texts = list(texts)
        if texts and not sink.closed:
            sink.write(orjson.dumps(texts) + b"\n")
            sink.flush()
        return inner(self, texts)

    ORIGINAL["sink"] = sink
    LocalEmbedder.embed = embed  # type: ignore[method-assign]


def replay(path: Path, every: int | None = None) -> dict[str, float]:
    """Embed the recorded calls again with a fresh local model: wall and CPU seconds, counts.

    every=N (default: $BENCH_FLOOR_EVERY, else 1) replays one call in N and scales the times
    by the characters of all calls over those replayed: a floor estimate in 1/N of the time.
    """
    import os

    from nemori_cli.embed import LocalEmbedder

    every = max(1, every or int(os.environ.get("BENCH_FLOOR_EVERY", "1")))
    if "sink" in ORIGINAL:
        ORIGINAL["sink"].close()  # the replay's own calls must not be recorded
    embed = ORIGINAL.get("embed", LocalEmbedder.embed)  # without record's or a stage's wrapper
    model = LocalEmbedder()
    embed(model, ["warm up the session"])
    calls = texts = chars = replayed_chars = 0
    wall = spent_cpu = 0.0
    with path.open("rb") as fh:
        for line in fh:
            batch = orjson.loads(line)
            size = sum(len(t) for t in batch)
            if calls % every == 0:
                t, cpu = time.perf_counter(), cpu_s()
                embed(model, batch)
                wall += time.perf_counter() - t
                spent_cpu += cpu_s() - cpu
                replayed_chars += size
            calls += 1
            texts += len(batch)
            chars += size
    scale = chars / replayed_chars if replayed_chars else 1.0
    return {
        "floor_s": wall * scale,
        "floor_cpu_s": spent_cpu * scale,
        "floor_every": every,
        "embed_calls": calls,
        "embedded_texts": texts,
        "embedded_chars": chars,
    }
