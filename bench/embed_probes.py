"""Probes of the local model's cost on texts saved by `embed_kinds.py --save FILE`.

    python bench/embed_probes.py windows FILE      # openings one by one, or 4 joined a text
    python bench/embed_probes.py ort-options FILE  # onnxruntime session settings, A/B
    python bench/embed_probes.py lengths FILE      # CPU per text by its tokens, one thread

Each variant is run in turn, --rounds times, in one process; CPU seconds (user + system)
are less distorted by other processes' load than wall seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ingest_floor import cpu_s  # noqa: E402

OPTIONS: dict[str, dict[str, Any]] = {
    "as shipped": {},
    "enable_mem_pattern=False": {"enable_mem_pattern": False},
    "enable_cpu_mem_arena=False": {"enable_cpu_mem_arena": False},
    "allow_spinning=0": {"config": ("session.intra_op.allow_spinning", "0")},
}


def timed(model: Any, texts: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of embedding texts, 512 a call."""
    t, c = time.perf_counter(), cpu_s()
    for start in range(0, len(texts), 512):
        model.embed(texts[start : start + 512])
    return time.perf_counter() - t, cpu_s() - c


def with_options(extra: dict[str, Any]) -> Any:
    """A local model whose onnxruntime session has extra settings."""
    import nemori_cli.embed as embed

    plain = embed._session

    def session(ort: Any, path: Path, *, ort_format: bool = True) -> Any:
        options = ort.SessionOptions()
        if ort_format:
            options.add_session_config_entry("session.load_model_format", "ORT")
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        options.log_severity_level = 3
        for key, value in extra.items():
            if key == "config":
                options.add_session_config_entry(*value)
            else:
                setattr(options, key, value)
        return ort.InferenceSession(str(path), sess_options=options,
                                    providers=["CPUExecutionProvider"])

    embed._session = session  # type: ignore[assignment]
    try:
        model = embed.LocalEmbedder()
        model.embed(["warm up the session"])
    finally:
        embed._session = plain  # type: ignore[assignment]
    return model


def rounds_of(variants: dict[str, tuple[Any, list[str]]], rounds: int) -> None:
    """Run each (model, texts) in turn, rounds times; print each run and the medians."""
    got: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, (model, texts) in variants.items():
            got[name].append(timed(model, texts))
    for name, runs in got.items():
        cpu = sorted(c for _, c in runs)[len(runs) // 2]
        each = ", ".join(f"{w:.1f}/{c:.1f}" for w, c in runs)
        print(f"{name}: {len(variants[name][1]):,} texts; median CPU {cpu:.1f} s "
              f"(wall/CPU s each round: {each})")


def by_length(openings: list[str], lengths: tuple[int, ...] = (6, 12, 24, 36, 48)) -> None:
    """CPU per text of openings of a few token lengths, on one thread; a line through them."""
    from nemori_cli.embed import LocalEmbedder

    model = LocalEmbedder(threads=1)
    model.embed(["warm up the session"])
    tokenizer = model._tokenizer
    sizes = {t: len(tokenizer.encode(t).ids) for t in openings}
    points = []
    for n in lengths:
        texts = [t for t, size in sizes.items() if size == n][:300]
        if texts:
            spent = timed(model, texts)[1] / len(texts)
            points.append((n, spent))
            print(f"{n} tokens: {len(texts)} texts, {1000 * spent:.2f} ms CPU a text")
    if len(points) > 1:
        import numpy as np

        slope, fixed = np.polyfit([n for n, _ in points], [s for _, s in points], 1)
        print(f"fit: {1000 * fixed:.2f} ms a text + {1000 * slope:.3f} ms a token")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("probe", choices=("windows", "ort-options", "lengths"))
    ap.add_argument("saved", help="a JSON file written by embed_kinds.py --save")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    openings = json.loads(Path(args.saved).read_text())["opening (windows)"]
    load = os.getloadavg()[0]
    if args.probe == "lengths":
        by_length(openings)
    elif args.probe == "windows":
        from nemori_cli.embed import LocalEmbedder

        model = LocalEmbedder()
        model.embed(["warm up the session"])
        joined = ["\n".join(openings[i : i + 4]) for i in range(0, len(openings), 4)]
        rounds_of({"openings one by one": (model, openings),
                   "4 openings joined a text": (model, joined)}, args.rounds)
    else:
        texts = openings[:3000]
        models = {name: with_options(extra) for name, extra in OPTIONS.items()}
        rounds_of({name: (m, texts) for name, m in models.items()}, args.rounds)
    print(f"load average (1 min): {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
