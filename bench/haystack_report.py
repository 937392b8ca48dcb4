"""bench/assistant_haystack.py's output: a markdown table, and its docs/benchmarks.md section."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import haystack_levers
from docs_section import replace_section
from locomo_eval import CATEGORIES
from md_table import md_table

START, END = "<!-- haystack:start -->", "<!-- haystack:end -->"
COMMAND = "python bench/assistant_haystack.py"
GROUPS = ("overall", *CATEGORIES.values())
LABELS = {"nemori": "nemori", "bm25": "raw turns, bm25", "embed": "raw turns, embedder",
          "hybrid": "raw turns, hybrid"}
SPLIT_NAMES = {"tune": "0-4", "held_out": "5-9 (held out)"}
METRICS = ("sess@5", "sess@10", "ev@1000", "hit@5", "hit@10")


def rows(results: dict[str, Any], systems: tuple[str, ...]) -> list[list[str]]:
    """A row per split, group and system: n and every metric."""
    out = []
    for split, per in results["retrieval"].items():
        for group in GROUPS:
            for s in systems:
                m = per[s].get(group)
                if m is not None:
                    out.append([SPLIT_NAMES[split], group, LABELS[s], str(m["n"]),
                                *(f"{m.get(k, 0):.3f}" for k in METRICS)])
    return out


def table(results: dict[str, Any], systems: tuple[str, ...] = tuple(LABELS)) -> str:
    """The results as one markdown table, then the haystack's size and timings."""
    head = ["samples", "group", "system", "n", *METRICS]
    hay, secs = results["haystack"], results["seconds"]
    counts = ", ".join(f"{k} {v}" for k, v in hay["questions"].items())
    return "\n".join([
        *md_table(head, rows(results, systems)),
        "",
        f"Haystack: {hay['sessions']} sessions, {hay['turns']} turns, {hay['words']} words. "
        f"Questions: {counts}.",
        f"Ingest {secs['ingest']:.0f} s (when built); search and scoring "
        f"{secs['search_and_score']:.0f} s; nemori search p50 {secs['search_p50_ms']} ms.",
    ])


def markdown(results: dict[str, Any]) -> str:
    """The docs section (between the haystack markers)."""
    return "\n".join([
        START,
        "## A user/assistant haystack derived from LoCoMo (issue 17)",
        "",
        f"`{COMMAND}` (about 5 minutes from scratch;",
        "`--no-write` leaves this file alone) turns each LoCoMo sample into one",
        "user's chat history with an assistant (`bench/haystack_data.py`): speaker A is the",
        "user and speaker B the assistant (names taken out of the text), and every assistant",
        "turn is made 150-350 words long with B-turns of the other samples after B's own reply,",
        "so a user's statement sits among long answers; distractor sessions from the other",
        "samples, converted the same way and dated within the sample's span, bring each user",
        "to 50 sessions (one nemori conversation each). Fixed seed, offline. Questions",
        "(`bench/haystack_questions.py`): LoCoMo's categories 1-4 whose evidence turns are all",
        "the user's and that do not name the assistant's speaker, asked in the first person",
        "(\"What did I research?\"); those that cannot be rewritten cleanly are dropped. Each",
        "user is ingested offline through `Memory` and every question searched with",
        "`Memory.search(question, k=30)`; raw turns (`[date] role: text`, one document a turn)",
        "are ranked by bm25s, the same embedder and RRF of both. sess@n: share of the",
        "question's evidence sessions among the first n sessions the hits come from (hits",
        "rolled up in order); ev@1000: evidence turns among the hits that fit 1000 words.",
        "",
        table(results),
        "",
        *haystack_levers.LINES,
        END,
    ])


def write_docs(results: dict[str, Any], path: Path) -> None:
    """Replace only the haystack section of docs/benchmarks.md."""
    replace_section(path, START, END, markdown(results))
