"""bench/perf.py's import item: ingest a generated ChatGPT export beside its floor."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from perf_notes import WHY


def bench_import(rep: Any, megabytes: int, child: Callable[..., dict[str, Any]]) -> None:
    """`ingest --no-facts` of a generated ChatGPT export: time, floor, ratio, shares, peak."""
    import import_large

    with tempfile.TemporaryDirectory(prefix="nemori-perf-import-") as tmp:
        path = str(Path(tmp) / "conversations.json")
        import_large.generate(path, megabytes)
        r = child("ingest", str(Path(tmp) / "data"), "0", path)
    import_row(rep, megabytes, r)


def import_row(rep: Any, megabytes: int, r: dict[str, Any]) -> None:
    """Report an export's ingest (also used by bench/import_large.py)."""
    secs, floor = r["seconds"], r["floor_s"]
    rep.add(
        f"ingest --no-facts of a {megabytes} MB ChatGPT export",
        f"{secs:.0f} s",
        "<= 900 s" if megabytes >= 200 else "",
        secs <= 900 if megabytes >= 200 else None,
        WHY["import"],
    )
    rep.add(f"  {r['messages']} messages / s", f"{r['messages'] / secs:.0f}")
    every = r.get("floor_every", 1)
    sampled = f" (1 call in {every} replayed, scaled by characters)" if every > 1 else ""
    rep.add(
        f"  floor: the local model alone on its {r['embedded_texts']} texts{sampled}",
        f"{floor:.0f} s",
    )
    rep.add(
        "  ratio to the floor (wall; CPU)",
        f"{secs / floor:.2f}x; {r['cpu_s'] / r['floor_cpu_s']:.2f}x",
        "<= 1.3x",
        secs / floor <= 1.3,
        WHY["import"],
    )
    rep.add("  peak memory", f"{r['peak_mb']:.0f} MB", "<= 1536 MB", r["peak_mb"] <= 1536)
    rep.add("  stage shares", ", ".join(f"{k} {v:.0%}" for k, v in r["shares"].items()))
