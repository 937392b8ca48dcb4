"""What a row costs embedded Chroma: upsert time with and without document texts, and memory.

Each variant runs in a fresh process on a fresh store (random unit vectors of 384 dimensions,
nemori's metadata): rows are upserted in batches as an ingest stores them, in calls of the
given size. Printed: wall time, the highest resident anonymous memory a batch reached, and what
stays resident per row once freed memory is handed back (native_memory). Variants alternate,
so a noisy machine slows them alike.

    python bench/chroma_rows.py [--rows 24000] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time

VARIANTS = {  # name: (document texts sent, rows per upsert call)
    "texts, 5461 a call (before)": (True, 5461),
    "digests, 5461 a call": (False, 5461),
    "digests, 2000 a call (now)": (False, 2000),
}
BATCH = 8000  # rows an ingest batch of 200 conversations stores, about


def anon_mb() -> int:
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) // 1024 for line in fh if line.startswith("RssAnon"))


def child(texts: bool, per_call: int, rows: int) -> dict[str, float]:
    import random

    import chromadb
    import numpy as np
    from chromadb.config import Settings

    from nemori_cli.native_memory import release_free_memory

    peak = [0]

    def sample() -> None:
        while True:
            peak[0] = max(peak[0], anon_mb())
            time.sleep(0.02)

    threading.Thread(target=sample, daemon=True).start()
    client = chromadb.PersistentClient(
        path=tempfile.mkdtemp(prefix="nemori-chroma-rows-"),
        settings=Settings(anonymized_telemetry=False),
    )
    coll = client.get_or_create_collection(
        "nemori-bench-episode", configuration={"hnsw": {"space": "cosine"}}
    )
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(5000)]
    release_free_memory()
    start_mb, t = anon_mb(), time.perf_counter()
    for b in range(0, rows, BATCH):
        n = min(BATCH, rows - b)
        vectors = rng.standard_normal((n, 384)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        ids = [f"ep_{b + i}#0" for i in range(n)]
        metas = [{"record_id": f"ep_{b + i}", "start": 1.7e9 + i} for i in range(n)]
        if texts:
            docs = [" ".join(random.choices(words, k=80)) for _ in range(n)]
        else:
            for m in metas:
                m["nemori_text"] = "0123456789abcdef01234567"
        for s in range(0, n, per_call):
            coll.upsert(
                ids=ids[s : s + per_call],
                embeddings=vectors[s : s + per_call],
                metadatas=metas[s : s + per_call],
                documents=docs[s : s + per_call] if texts else None,
            )
        release_free_memory()
    seconds = time.perf_counter() - t
    time.sleep(0.1)
    return {
        "seconds": seconds,
        "peak_mb": peak[0] - start_mb,
        "kept_kb_per_row": (anon_mb() - start_mb) * 1024 / rows,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=24_000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        texts, per_call, rows = args.child
        print(json.dumps(child(texts == "1", int(per_call), int(rows))))
        return
    results: dict[str, list[dict[str, float]]] = {name: [] for name in VARIANTS}
    for _ in range(args.rounds):
        for name, (texts, per_call) in VARIANTS.items():
            cmd = [sys.executable, __file__, "--child", "1" if texts else "0", str(per_call)]
            out = subprocess.run([*cmd, str(args.rows)], capture_output=True, text=True, check=True)
            results[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(f"{args.rows} rows, {args.rounds} round(s), medians:")
    print("| variant | upsert wall | peak above start | kept per row |")
    print("|---|---|---|---|")
    for name, runs in results.items():
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(
            f"| {name} | {med['seconds']:.1f} s | {med['peak_mb']:.0f} MB |"
            f" {med['kept_kb_per_row']:.2f} KB |"
        )


if __name__ == "__main__":
    main()
