"""How much of LoCoMo's gold answers any retrieved text can hold: answer recall's ceiling.

    python bench/locomo_answer_ceiling.py             # print, and write docs/benchmarks.md
    python bench/locomo_answer_ceiling.py --no-write

Answer recall (bench/locomo.py) is the share of a gold answer's content words found in the
text a search shows. Many answers are not worded in the conversation: open-domain answers are
inferences ("Likely no"), temporal ones are dates that a turn says relative to its session
("the week before 9 June 2023" for "last week"). This scores the same measure on texts chosen
with the gold evidence in hand: the evidence turns (each with its session's date and its
speaker), the evidence sessions whole, and the whole conversation. Nemori's own figures come
from bench/locomo.py's results JSON when it is there.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import locomo_data  # noqa: E402
import locomo_eval as ev  # noqa: E402
from docs_section import replace_section  # noqa: E402
from md_table import md_table  # noqa: E402

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
SPLITS = {"tune": range(0, 5), "held_out": range(5, 10), "all": range(0, 10)}
START, END = "<!-- answer-ceiling:start -->", "<!-- answer-ceiling:end -->"


def session_texts(sample: dict[str, Any]) -> dict[int, list[tuple[str, str]]]:
    """Each session's (dia_id, dated line) pairs, a line being "<date> <speaker>: <text>"."""
    out: dict[int, list[tuple[str, str]]] = {}
    for n, turns, date in locomo_data.sessions(sample):
        out[n] = [(t["dia_id"], f"{date or ''} {t['speaker']}: {locomo_data.turn_text(t)}")
                  for t in turns]
    return out


def ceilings(q: ev.Question, sessions: dict[int, list[tuple[str, str]]]) -> dict[str, str]:
    """The texts each ceiling shows for one question."""
    wanted = {int(ev.session_of(e).lstrip("D")) for e in q.evidence}
    return {
        "evidence turns": " ".join(line for s in sessions.values() for d, line in s
                                   if d in q.evidence),
        "evidence sessions": " ".join(line for n in wanted for _, line in sessions.get(n, [])),
        "whole conversation": " ".join(line for s in sessions.values() for _, line in s),
    }


def measure(samples: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, float]]]:
    """Mean answer recall of each ceiling, by split and category (and overall)."""
    texts = [session_texts(s) for s in samples]
    sums: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for q in ev.questions(samples, range(len(samples))):
        answer, stems = ev.content_words(q.answer), ev.content_stems(q.answer)
        if not answer:
            continue
        for name, text in ceilings(q, texts[q.sample]).items():
            recall = len(answer & ev.content_words(text)) / len(answer)
            by_stem = len(stems & ev.content_stems(text)) / len(stems)
            for split, members in SPLITS.items():
                if q.sample in members:
                    for group in ("overall", CATEGORIES[q.category]):
                        sums[(split, name, group)].append(recall)
                        sums[(split, name, f"{group} stems")].append(by_stem)
    out: dict[str, dict[str, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    for (split, name, group), values in sums.items():
        out[split][name][group] = sum(values) / len(values)
    return out


def nemori_rows(results: Path) -> dict[str, dict[str, dict[str, float]]]:
    """Nemori's ans@1000 and ans@2000 by split and group from bench/locomo.py's results."""
    if not results.exists():
        return {}
    retrieval = json.loads(results.read_text())["retrieval"]
    keys = {"nemori, 1000 words": "ans@1000", "nemori, 2000 words": "ans@2000",
            "nemori, 1000 words + every evidence turn": "ans+ev@1000"}
    out = {split: {name: {g: m[key] for g, m in by["nemori"].items() if key in m}
                   for name, key in keys.items()}
           for split, by in retrieval.items()}
    for split, by in retrieval.items():
        out[split]["nemori, 1000 words"].update(
            {f"{g} stems": m["stem@1000"] for g, m in by["nemori"].items() if "stem@1000" in m})
    return out


def table(found: dict[str, Any], nemori: dict[str, Any]) -> str:
    """One markdown table: answer recall by split, text and category."""
    groups = ["overall", *CATEGORIES.values()]

    def cell(by: dict[str, float], group: str) -> str:
        both = [f"{by[g]:.3f}" for g in (group, f"{group} stems") if g in by]
        return " / ".join(both) or "-"

    rows = []
    for split in SPLITS:
        for name, by in [*found[split].items(), *nemori.get(split, {}).items()]:
            rows.append([split, name, *(cell(by, g) for g in groups)])
    return "\n".join(md_table(["split", "text shown", *groups], rows))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default=str(locomo_data.DEFAULT_PATH), help="locomo10.json")
    p.add_argument("--results", default=str(HERE / "results" / "locomo.json"),
                   help="bench/locomo.py's results JSON, for nemori's own figures")
    p.add_argument("--no-write", action="store_true", help="leave docs/ untouched")
    args = p.parse_args(argv)
    found = measure(locomo_data.load_samples(args.data))
    nemori = nemori_rows(Path(args.results))
    body = table(found, nemori)
    print(body)
    if not args.no_write:
        every = found["all"]
        shown = nemori.get("all", {}).get("nemori, 1000 words", {})
        section = (f"{START}\n### Answer recall's ceiling (issue 17)\n\n"
                   "`python bench/locomo_answer_ceiling.py`: answer recall (the share of a gold "
                   "answer's content words in the text shown) of texts chosen with the gold "
                   "evidence in hand, beside nemori's within 1,000 and 2,000 words (from "
                   "`bench/results/locomo.json`). Where a cell holds two figures the second "
                   "compares words by their Porter stems, as LoCoMo's own scorer compares "
                   "answer tokens (`task_eval/evaluation.py` in snap-research/locomo).\n\n"
                   + body + "\n\n"
                   "Many gold answers are not worded in the conversation at all: the whole "
                   f"conversation holds {every['whole conversation']['overall']:.3f} of their "
                   f"content words, the evidence sessions "
                   f"{every['evidence sessions']['overall']:.3f}, the evidence turns "
                   f"{every['evidence turns']['overall']:.3f}. An answer recall of 0.85 within "
                   "1,000 words (issue 17's target) is above what showing every evidence session "
                   "whole reaches by exact words; by stems, the evidence sessions hold "
                   f"{every['evidence sessions']['overall stems']:.3f} and nemori's 1,000 words "
                   f"{shown.get('overall stems', 0):.3f}"
                   ". Nemori shows relative dates resolved, which is why its "
                   "temporal figure is above the evidence turns'. Adding every evidence turn "
                   "to nemori's 1,000 words (more than the budget) bounds what better ranking "
                   "of the same kind of hits could reach.\n" + END)
        replace_section(HERE.parent / "docs" / "benchmarks.md", START, END, section)


if __name__ == "__main__":
    main()
