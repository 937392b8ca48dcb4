"""Offline facts against LoCoMo's observation facts in seconds, for tuning the fact rules.

    python bench/locomo_facts.py --samples 0,1,2,3,4              # R/P at 0.65/0.75/0.85
    python bench/locomo_facts.py --samples 0,1,2,3,4 --misses 40 --extra 40
    python bench/locomo_facts.py --dates resolved    # how a fact's relative dates are written

The samples are ingested once through Memory (offline) into --store; each run then extracts
the facts again from the stored episodes with the code as it is now, folds duplicates as an
ingest does (cosine >= dedup_threshold, nothing stored before), and scores them as
bench/locomo.py's "Fact extraction" table does. --misses prints gold facts no fact matches at
0.75 (with the nearest fact), --extra facts that match no gold fact. --dates writes a fact's
relative dates otherwise than nemori does (`split`: taken out into its `when`): `resolved` in
the sentence ("on 7 May 2023", as before issue 17's seventeenth round), `as-said` left as
they were ("yesterday"); --shown scores the text a person reads (the statement and its time).
Tune on samples 0-4 only.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import locomo_data  # noqa: E402
import locomo_eval as ev  # noqa: E402


def ingest(store: Path, data: str, chosen: list[int]) -> None:
    """Ingest the chosen samples offline, one user each, unless already there."""
    from nemori_cli.memory import Memory

    if (store / "complete").exists():
        return
    samples = locomo_data.load_samples(data)
    files = dict(locomo_data.write_nemori_files(store / "convs", data))
    memory = Memory.open(data_dir=store / "data")
    for i in chosen:
        memory.ingest([str(files[locomo_data.user_id(samples[i])])],
                      user=locomo_data.user_id(samples[i]), facts=True)
    (store / "complete").write_text(",".join(map(str, chosen)) + "\n")


def write_dates(how: str) -> None:
    """Make the fact rules write relative dates as `how` says (see the module's docstring)."""
    from nemori_cli.pipeline import dates, facts

    facts.split_dates = {  # type: ignore[assignment]
        "split": dates.split_dates,
        "resolved": lambda text, when: (dates.replace_dates(text, when), None),
        "as-said": lambda text, when: (text, None),
    }[how]


def extract(memory: Any, user: str) -> list[Any]:
    """The user's offline facts made again from their stored episodes, duplicates folded."""
    import numpy as np

    from nemori_cli.indexing import fact_text
    from nemori_cli.pipeline.facts import episode_facts, fold_duplicates

    episodes = sorted(memory.episodes(user=user), key=lambda e: (e.timestamp or "", e.id))
    candidates = [f for ep in episodes for f in episode_facts(ep)]
    if not candidates:
        return []
    vectors = np.asarray(memory.embedder.embed([fact_text(f) for f in candidates]))
    kept, _, _ = fold_duplicates(
        candidates, vectors, lambda v: [None] * len(v), memory.settings.dedup_threshold
    )
    return kept


def main(argv: list[str] | None = None) -> None:
    import numpy as np

    from nemori_cli.embed import LocalEmbedder
    from nemori_cli.memory import Memory

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default=str(locomo_data.DEFAULT_PATH), help="locomo10.json")
    p.add_argument("--samples", default="0,1,2,3,4", help="comma-separated sample indexes")
    p.add_argument("--store", default="/tmp/nemori-locomo-facts", help="ingested store")
    p.add_argument("--misses", type=int, default=0, help="print this many missed gold facts")
    p.add_argument("--extra", type=int, default=0, help="print this many unmatched facts")
    p.add_argument("--dates", choices=("split", "resolved", "as-said"), default="split",
                   help="how a fact's relative dates are written")
    p.add_argument("--shown", action="store_true", help="score the statement with its time")
    args = p.parse_args(argv)
    write_dates(args.dates)
    chosen = [int(s) for s in args.samples.split(",")]
    store = Path(args.store) / args.samples.replace(",", "-")
    ingest(store, args.data, chosen)
    samples = locomo_data.load_samples(args.data)
    memory = Memory.open(data_dir=store / "data")
    reference = LocalEmbedder(shipped=True)  # the model as shipped, whatever graph runs it
    parts, missed, unmatched = [], [], []
    for i in chosen:
        gold = ev.gold_facts(samples[i])
        made = extract(memory, locomo_data.user_id(samples[i]))
        texts = [f.dated_content if args.shown else f.content for f in made]
        gold_vecs = np.asarray(reference.embed(gold))
        vecs = np.asarray(reference.embed(texts)) if texts else np.zeros((0, 1))
        parts.append(ev.fact_match(gold_vecs, vecs))
        if not texts:
            continue
        sims = gold_vecs @ vecs.T
        missed += [(float(r.max()), g, texts[int(r.argmax())]) for g, r in zip(gold, sims,
                                                                                strict=True)
                   if r.max() < 0.75]
        unmatched += [(float(c.max()), t, gold[int(c.argmax())]) for t, c in zip(texts, sims.T,
                                                                                 strict=True)
                      if c.max() < 0.75]
    s = ev.fact_summary(parts, locomo_data.turn_count([samples[i] for i in chosen]))
    print(f"facts {s['extracted']}, gold {s['gold']}: " + ", ".join(
        f"R@{t} {s[f'recall@{t}']:.3f} P@{t} {s[f'precision@{t}']:.3f}" for t in ev.THRESHOLDS))
    rng = random.Random(0)
    for cos, gold_fact, nearest in rng.sample(missed, min(args.misses, len(missed))):
        print(f"missed {cos:.2f}  {gold_fact}  || nearest: {nearest}")
    for cos, fact, nearest in rng.sample(unmatched, min(args.extra, len(unmatched))):
        print(f"extra  {cos:.2f}  {fact}  || nearest gold: {nearest}")


if __name__ == "__main__":
    main()
