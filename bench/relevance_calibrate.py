"""Calibrate the 0-1 relevance of search hits and its "no strong match" line on LoCoMo.

    python bench/relevance_calibrate.py                 # fit on samples 0-4, report 5-9
    python bench/relevance_calibrate.py --every 4       # every 4th question (~7 min here)
    python bench/relevance_calibrate.py --store DIR     # reuse an ingested LoCoMo data dir
    python bench/relevance_calibrate.py --shipped       # report with relevance.py's weights

A question of LoCoMo categories 1-4 asked of its own conversation has an answer in memory
(positive); the same question asked of another conversation of the same split has none
(negative); category 5 (adversarial: about something the speakers never said, yet worded from
the conversation) is reported apart. For each search the top hits' features (best cosine of
their stored vectors, share of the query's words they contain) are collected; a direction and
threshold that best separate positives from negatives on samples 0-4 (balanced accuracy), then
the steepness of the logistic curve (likelihood), give relevance.py's weights. Samples 5-9 are
reported with those weights, untouched by the fit.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import locomo  # noqa: E402
import locomo_data  # noqa: E402

K = 5  # hits a person looks at
TUNE, HELD_OUT = list(range(0, 5)), list(range(5, 10))


def collect(
    memory: Any, samples: list[dict[str, Any]], split: list[int], every: int = 1
) -> list[dict[str, Any]]:
    """Search every n-th question in its own and in the next conversation of the split."""
    from nemori_cli.search.relevance import features, hit_vectors

    rows = []
    for n, i in enumerate(split):
        other = split[(n + 1) % len(split)]
        print(f"sample {i}: {len(samples[i]['qa'][::every])} questions", file=sys.stderr)
        for qa in samples[i]["qa"][::every]:
            question = str(qa["question"])
            cat = int(qa["category"])
            for target, label in ((i, "own"), (other, "other")):
                if label == "other" and cat == 5:
                    continue
                uid = locomo_data.user_id(samples[target])
                hits = memory.search(question, k=K, user=uid)
                qvec = memory.embedder.embed([question])[0]
                eps = memory.parts.repo(uid).episodes.lookup()
                vecs = memory.parts.vectors(uid).embeddings
                hit_eps = [eps.get(h.id) if h.kind == "episode" else None for h in hits]
                feats = [
                    features(question, qvec, h, v)
                    for h, v in zip(hits, hit_vectors(hits, hit_eps, vecs), strict=True)
                ]
                rows.append({"sample": i, "category": cat, "target": label, "features": feats})
    return rows


def positive(row: dict[str, Any]) -> bool | None:
    """True: answerable in its own conversation; False: asked of another; None: category 5."""
    if row["target"] == "other":
        return False
    return None if row["category"] == 5 else True


def best(row: dict[str, Any], w: tuple[float, float]) -> float:
    return max((w[0] * c + w[1] * v for c, v in row["features"]), default=-1.0)


def balanced(rows: list[dict[str, Any]], w: tuple[float, float], t: float) -> float:
    pos = [best(r, w) >= t for r in rows if positive(r) is True]
    neg = [best(r, w) < t for r in rows if positive(r) is False]
    return (sum(pos) / len(pos) + sum(neg) / len(neg)) / 2


def fit(rows: list[dict[str, Any]], cap: float) -> dict[str, float]:
    """Direction and threshold by balanced accuracy, then the logistic steepness.

    The likelihood's steepness is capped: LoCoMo's negatives are easy (other people's names),
    and an uncapped curve reads 0.00 or 1.00 for nearly every hit. The cap changes no decision
    at 0.5, only how gradually relevance moves around it.
    """
    top: tuple[float, tuple[float, float], float] = (0.0, (1.0, 0.0), 0.0)
    for deg in range(0, 91, 5):
        w = (math.cos(math.radians(deg)), math.sin(math.radians(deg)))
        scores = sorted({round(best(r, w), 3) for r in rows})
        for t in scores[:: max(1, len(scores) // 200)]:
            acc = balanced(rows, w, t)
            if acc > top[0]:
                top = (acc, w, t)
    acc, w, t = top
    labelled = [(best(r, w), positive(r)) for r in rows if positive(r) is not None]

    def loglik(a: float) -> float:
        total = 0.0
        for s, y in labelled:
            p = 1 / (1 + math.exp(-a * (s - t)))
            total += math.log(max(p if y else 1 - p, 1e-9))
        return total

    fitted = max((x / 2 for x in range(1, 101)), key=loglik)
    a = min(fitted, cap)
    return {
        "fitted_steepness": fitted,
        "steepness": a,
        "BIAS": round(-a * t, 2),
        "COSINE_WEIGHT": round(a * w[0], 2),
        "COVERAGE_WEIGHT": round(a * w[1], 2),
        "tune_balanced_accuracy": round(acc, 3),
    }


def report(rows: list[dict[str, Any]], weights: dict[str, float]) -> dict[str, Any]:
    """Shares of each group whose best hit reaches relevance 0.5 (a strong match)."""

    def rel(row: dict[str, Any]) -> float:
        z = max(
            (weights["BIAS"] + weights["COSINE_WEIGHT"] * c + weights["COVERAGE_WEIGHT"] * v
             for c, v in row["features"]),
            default=-50.0,
        )
        return 1 / (1 + math.exp(-z))

    groups = {
        "answerable (cat 1-4, own conversation)": [r for r in rows if positive(r) is True],
        "asked of another conversation": [r for r in rows if positive(r) is False],
        "adversarial (cat 5, own conversation)": [r for r in rows if positive(r) is None],
    }
    return {
        name: {
            "questions": len(g),
            "strong_match": round(sum(rel(r) >= 0.5 for r in g) / len(g), 3),
        }
        for name, g in groups.items()
        if g
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(locomo_data.DEFAULT_PATH))
    parser.add_argument("--store", help="an ingested LoCoMo data dir (default: build or reuse)")
    parser.add_argument("--cache-dir", default=str(Path(tempfile.gettempdir())
                                                     / "nemori-locomo-cache"))
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--every", type=int, default=1, help="take every n-th question")
    parser.add_argument("--steepness", type=float, default=12.0, help="cap on the curve's slope")
    parser.add_argument("--shipped", action="store_true",
                        help="report with relevance.py's weights instead of the ones fitted")
    args = parser.parse_args(argv)
    from nemori_cli.memory import Memory

    if args.store:
        store = Path(args.store)
    else:
        store = locomo.build_store(args, {}, TUNE + HELD_OUT) / "data"
    memory = Memory.open(data_dir=store)
    samples = locomo_data.load_samples(args.data)
    started = time.perf_counter()
    tune = collect(memory, samples, TUNE, args.every)
    held = collect(memory, samples, HELD_OUT, args.every)
    weights = fit(tune, args.steepness)
    if args.shipped:
        from nemori_cli.search import relevance

        weights = {"BIAS": relevance.BIAS, "COSINE_WEIGHT": relevance.COSINE_WEIGHT,
                   "COVERAGE_WEIGHT": relevance.COVERAGE_WEIGHT}
    result = {
        "weights": weights,
        "tune (samples 0-4)": report(tune, weights),
        "held out (samples 5-9)": report(held, weights),
        "every": args.every,
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
