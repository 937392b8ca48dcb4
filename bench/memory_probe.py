"""Where an ingest's memory goes: `nemori ingest --no-facts` with resident memory sampled.

Runs the console script (cli/launch.py, as a shell does) on a generated ChatGPT export in a
child process and samples its VmRSS, RssAnon (heap, native libraries' allocations) and RssFile
(mapped files) every 0.5 s. A variant changes one thing in the child, to tell the parts apart:

  as-is      the code as it is
  no-chroma  Chroma's upserts skipped (the flat copy, JSONL and BM25 still written)
  no-limits  without native_memory's arena limit and trimming (that part alone undone)

    python bench/memory_probe.py --mb 20 --variants as-is,no-chroma,no-limits [--parallel]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import sys
variant = sys.argv[1]
if variant == "no-chroma":
    from nemori_cli.store import chroma
    chroma.ChromaVectorIndex.upsert = lambda self, *a, **k: None
if variant == "no-limits":
    from nemori_cli import native_memory
    native_memory.limit_arenas = lambda *a, **k: None
    native_memory.release_free_memory = lambda: None
    from nemori_cli import indexing
    from nemori_cli.ops import ingest
    indexing.release_free_memory = ingest.release_free_memory = lambda: None
from nemori_cli.cli.launch import run
run(sys.argv[2:])
"""
KEYS = ("VmRSS", "RssAnon", "RssFile")


def start(variant: str, export: str, data: str) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-c", CHILD, variant, "--data-dir", data, "ingest", "--no-facts", export]
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def status(pid: int) -> dict[str, int]:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return {
                line.split(":")[0]: int(line.split()[1]) // 1024
                for line in fh
                if line.startswith(KEYS)
            }
    except OSError:
        return {}


def watch(runs: dict[str, subprocess.Popen[bytes]]) -> dict[str, dict[str, float]]:
    """Sample every child until it ends: peaks by kind of memory and wall time."""
    began = time.perf_counter()
    out: dict[str, dict[str, float]] = {name: dict.fromkeys(KEYS, 0) for name in runs}
    while any(p.poll() is None for p in runs.values()):
        for name, proc in runs.items():
            if proc.poll() is None:
                for key, mb in status(proc.pid).items():
                    out[name][key] = max(out[name][key], mb)
                out[name]["seconds"] = time.perf_counter() - began
        time.sleep(0.5)
    for name, proc in runs.items():
        if proc.returncode != 0:
            why = proc.stderr.read().decode()[-500:] if proc.stderr else ""
            raise SystemExit(f"{name}: exit {proc.returncode}: {why}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=20, help="size of the generated export")
    ap.add_argument("--variants", default="as-is,no-chroma,no-limits")
    ap.add_argument("--parallel", action="store_true", help="run the variants side by side")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    import import_large

    variants = args.variants.split(",")
    with tempfile.TemporaryDirectory(prefix="nemori-memory-probe-") as tmp:
        export = str(Path(tmp) / "conversations.json")
        import_large.generate(export, args.mb)
        results: dict[str, dict[str, float]] = {}
        groups = [variants] if args.parallel else [[v] for v in variants]
        for group in groups:
            runs = {v: start(v, export, str(Path(tmp) / f"data-{v}")) for v in group}
            results.update(watch(runs))
            for v in group:
                shutil.rmtree(Path(tmp) / f"data-{v}", ignore_errors=True)
    side = "side by side" if args.parallel else "one at a time"
    print(f"{args.mb} MB export, {side}; load {Path('/proc/loadavg').read_text().split()[0]}")
    print("| variant | peak VmRSS | peak RssAnon | peak RssFile | wall |")
    print("|---|---|---|---|---|")
    for v in variants:
        r = results[v]
        print(f"| {v} | {r['VmRSS']:.0f} MB | {r['RssAnon']:.0f} MB | {r['RssFile']:.0f} MB |"
              f" {r['seconds']:.0f} s |")


if __name__ == "__main__":
    main()
