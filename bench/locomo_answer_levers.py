"""Answer recall on LoCoMo: where the missing words are, and what search's knobs do to it.

    python bench/locomo_answer_levers.py                  # the kept configuration
    python bench/locomo_answer_levers.py --misses         # and where missing answer words are
    python bench/locomo_answer_levers.py -p length_penalty=0.1 -c FACT_WEIGHT=1.4
    python bench/locomo_answer_levers.py --list-fact-weight 1.5

Runs Memory.search(question, k=30) for every category 1-4 question of the ingested all-ten
store that bench/locomo.py caches (ingesting it first when the cache has none), with
FocusParams fields (-p) or search/hybrid.py constants (-c) changed for the run, and prints
evidence and answer recall at 1000 words, hit@5/10 and session recall@5 per split. For
tuning only: the figures to publish come from bench/locomo.py.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import locomo  # noqa: E402
import locomo_data  # noqa: E402
import locomo_eval as ev  # noqa: E402
from locomo_answer_ceiling import session_texts  # noqa: E402

from nemori_cli.answer.budget import hit_text, take_budget  # noqa: E402

SPLITS = {"tune": range(0, 5), "held_out": range(5, 10), "all": range(0, 10)}
# a question asking for several things: "What activities does X do?", "What are X's hobbies?"
LIST_QUESTION = re.compile(
    r"^\W*(?:in )?(?:what|which)(?: kinds?| types?| sorts?)?(?: of)? (?:\w+ )?"
    r"(?!(?:is|was|does|has|his|this|always)\b)\w+s (?:do|does|did|has|have|are|were|in|of|that)\b"
    r"|\bwhat are (?:some )?\w+'s? \w+s\b",
    re.IGNORECASE,
)
PLACES = ("past the budget, in the 30 hits", "in an evidence turn not shown",
          "elsewhere in the conversation", "nowhere in the conversation")


def value_of(text: str, like: Any) -> Any:
    """A command-line value as the type of the setting it replaces."""
    return type(like)(text) if not isinstance(like, bool) else text.lower() in {"1", "true"}


def patch(params: Sequence[str], constants: Sequence[str], list_weight: float | None) -> None:
    """Change focus's defaults and hybrid's constants for this process."""
    import nemori_cli.search.focus as focus
    import nemori_cli.search.hybrid as hybrid

    for item in params:
        name, text = item.split("=", 1)
        focus.DEFAULT = replace(focus.DEFAULT, **{name: value_of(text, getattr(focus.DEFAULT,
                                                                                 name))})
    for item in constants:
        name, text = item.split("=", 1)
        setattr(hybrid, name, value_of(text, getattr(hybrid, name)))
    if list_weight is not None:
        hybrid.fuse = list_weighted(hybrid.fuse, list_weight)


ASKED = {"question": ""}


def list_weighted(fuse: Callable[..., Any], weight: float) -> Callable[..., Any]:
    """fuse(), with facts weighted `weight` below the lead for a list question."""

    def fused(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("weights") and LIST_QUESTION.search(ASKED["question"]):
            kwargs["weights"] = {"fact": weight}
        return fuse(*args, **kwargs)

    return fused


def misses(q: ev.Question, hits: Sequence[Any], lines: dict[str, str],
           conversation: set[str]) -> Counter[str]:
    """Where the answer words the 1000 words lack are, each word a share of its answer."""
    answer = ev.content_words(q.answer)
    shown = ev.content_words(" ".join(hit_text(h) for h in take_budget(hits, 1000)))
    pooled = ev.content_words(" ".join(hit_text(h) for h in hits))
    evidence = ev.content_words(" ".join(lines.get(e, "") for e in q.evidence))
    out: Counter[str] = Counter()
    for word in answer - shown:
        place = (PLACES[0] if word in pooled else PLACES[1] if word in evidence
                 else PLACES[2] if word in conversation else PLACES[3])
        out[place] += 1 / len(answer)
    return out


def run(args: argparse.Namespace) -> None:
    from nemori_cli.memory import Memory

    patch(args.p, args.c, args.list_fact_weight)
    run_args = locomo.parse_args([])
    samples = locomo_data.load_samples(run_args.data)
    root = locomo.build_store(run_args, {}, list(range(len(samples))))
    memory = Memory.open(data_dir=root / "data")
    rows, where = [], {cat: Counter() for cat in ev.CATEGORIES.values()}
    answered = Counter()
    for i in range(len(samples)):
        lines = {d: line for s in session_texts(samples[i]).values() for d, line in s}
        conversation = ev.content_words(" ".join(lines.values()))
        for q in ev.questions(samples, [i]):
            ASKED["question"] = q.question
            hits = memory.search(q.question, k=30, user=q.user)
            rows.append((q, ev.score(q, hits)))
            if args.misses and ev.content_words(q.answer):
                where[ev.CATEGORIES[q.category]] += misses(q, hits, lines, conversation)
                answered[ev.CATEGORIES[q.category]] += 1
    for split, members in SPLITS.items():
        agg = ev.aggregate([(q, m) for q, m in rows if q.sample in members])
        o, mh = agg["overall"], agg["multi-hop"]
        print(f"{split:8} ev@1000 {o['ev@1000']:.3f} ans@1000 {o['ans@1000']:.3f} "
              f"multi-hop {mh['ev@1000']:.3f} / {mh['ans@1000']:.3f} "
              f"open-domain {agg['open-domain']['ev@1000']:.3f} hit@5 {o['hit@5']:.3f} "
              f"hit@10 {o['hit@10']:.3f} sess@5 {o['sess@5']:.3f}")
    if args.misses:
        total = sum(answered.values())
        print("\nanswer words missing from the 1000 words, as a share of all questions' answers:")
        for cat, counts in where.items():
            print(f"  {cat:12} " + ", ".join(f"{p} {counts[p] / total:.3f}" for p in PLACES))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("-p", action="append", default=[], help="FocusParams field=value")
    p.add_argument("-c", action="append", default=[], help="search/hybrid.py CONSTANT=value")
    p.add_argument("--list-fact-weight", type=float, help="fact weight for list questions")
    p.add_argument("--misses", action="store_true", help="where missing answer words are")
    run(p.parse_args(argv))


if __name__ == "__main__":
    main()
