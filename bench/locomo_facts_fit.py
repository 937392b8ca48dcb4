"""Fit salience weights: which offline candidate facts match a LoCoMo observation (issue 17).

    python bench/locomo_facts_fit.py            # fit on samples 0-4, frontier on 0-4 and 5-9

Every candidate sentence is made into a fact with a wide cap and a low cut (six a message,
salience >= 1.5), duplicates folded as bench/locomo_facts.py does; each is labelled by whether
it matches an observation (cosine >= 0.75). A logistic fit on samples 0-4 over the salience,
the rank in its message, the category and a few words' presence prints its weights in
salience units (what pipeline/salience.py's rules were written from) and the recall and
precision of keeping its best-scored candidates, on 0-4 and held-out 5-9. Run on rules that
already carry the fitted weights, it prints what is left (issue 17's nineteenth round: small).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import locomo_data  # noqa: E402
import locomo_eval as ev  # noqa: E402
import locomo_facts  # noqa: E402

FEATURES = ("bias", "salience", "first", "second", "later", "profile", "experience", "knowledge",
            "named", "dated", "it", "this/that", "he/they")


def features(content: str, subject: str, category: str, dated: bool, score: float,
             rank: int) -> list[float]:
    body = re.sub(rf"\b{re.escape(subject)}(?:'s)?\b", "", content)
    has = [rank == 0, rank == 1, rank >= 2, category == "user_profile", category == "experience",
           category == "knowledge", bool(re.search(r"(?<!^)\b[A-Z][a-z]+", body)), dated,
           bool(re.search(r"\b(?:it|it's)\b", content, re.I)),
           bool(re.search(r"\b(?:this|that|these|those)\b", content, re.I)),
           bool(re.search(r"\b(?:they|them|their|he|she|him|her)\b", content, re.I))]
    return [1.0, score, *map(float, has)]


def candidates(store: Path, chosen: list[int]) -> tuple[list[list[float]], list[Any], dict]:
    """Features, per-candidate gold matches (sample, bool row) and gold counts."""
    from nemori_cli.embed import LocalEmbedder
    from nemori_cli.memory import Memory
    from nemori_cli.pipeline import facts

    scored: dict[str, tuple[float, int]] = {}
    made = facts.statements

    def statements(message: Any, names: frozenset[str] = frozenset(),
                   to_assistant: bool = False) -> list[Any]:
        out = made(message, names, to_assistant)
        for rank, st in enumerate(sorted(out, key=lambda s: -s.salience)):
            scored[st.content] = (st.salience, rank)
        return out

    facts.statements, facts.MAX_PER_MESSAGE, facts.MIN_SCORE = statements, 6, 1.5  # type: ignore
    samples = locomo_data.load_samples(str(locomo_data.DEFAULT_PATH))
    locomo_facts.ingest(store, str(locomo_data.DEFAULT_PATH), chosen)
    memory = Memory.open(data_dir=store / "data")
    reference = LocalEmbedder(shipped=True)
    rows, matches, golds = [], [], {}
    for i in chosen:
        gold = ev.gold_facts(samples[i])
        golds[i] = len(gold)
        made_facts = locomo_facts.extract(memory, locomo_data.user_id(samples[i]))
        sims = np.asarray(reference.embed(gold)) @ np.asarray(
            reference.embed([f.content for f in made_facts])).T
        for j, f in enumerate(made_facts):
            score, rank = scored[f.content]
            rows.append(features(f.content, f.subject or "the user", f.category,
                                 f.when is not None, score, rank))
            matches.append((i, sims[:, j] >= 0.75))
    return rows, matches, golds


def recall_precision(keep: np.ndarray, matches: list[Any], golds: dict) -> tuple[float, float]:
    found = {i: np.zeros(n, bool) for i, n in golds.items()}
    for k, (i, row) in zip(keep, matches, strict=True):
        if k:
            found[i] |= row
    right = sum(bool(row.any()) for k, (_, row) in zip(keep, matches, strict=True) if k)
    return sum(f.sum() for f in found.values()) / sum(golds.values()), right / max(keep.sum(), 1)


def fit(x: np.ndarray, y: np.ndarray, steps: int = 3000) -> np.ndarray:
    """Logistic regression by gradient descent, a light L2 pull."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ w))
        w -= (x.T @ (p - y) + w) / len(y)
    return w


def main() -> None:
    root = Path("/tmp/nemori-locomo-facts-fit")
    tune = candidates(root / "0-1-2-3-4", [0, 1, 2, 3, 4])
    held = candidates(root / "5-6-7-8-9", [5, 6, 7, 8, 9])
    x = np.asarray(tune[0])
    y = np.asarray([row.any() for _, row in tune[1]], float)
    mean, std = x.mean(0), x.std(0) + 1e-9
    mean[0], std[0] = 0.0, 1.0
    w = fit((x - mean) / std, y)
    raw = w / std
    print("weights in salience units:", ", ".join(
        f"{n} {raw[k] / raw[1]:+.2f}" for k, n in enumerate(FEATURES) if k > 1))
    scores = ((x - mean) / std) @ w
    held_scores = ((np.asarray(held[0]) - mean) / std) @ w
    for q in (0.30, 0.32, 0.34, 0.36):
        cut = np.quantile(scores, q)
        r0, p0 = recall_precision(scores >= cut, tune[1], tune[2])
        r1, p1 = recall_precision(held_scores >= cut, held[1], held[2])
        print(f"drop lowest {q:.0%}: 0-4 R/P {r0:.3f} / {p0:.3f}, 5-9 R/P {r1:.3f} / {p1:.3f}")


if __name__ == "__main__":
    main()
