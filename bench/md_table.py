"""Markdown tables for the benchmark reports in docs/benchmarks.md."""

from __future__ import annotations

from collections.abc import Sequence

# the columns of every table of ranking levers (issue 17's rounds)
LEVER_HEAD = ["lever", "ev@1000 0-4 / 5-9", "multi-hop", "open-domain", "hit@5 / hit@10",
              "sess@5", "kept"]


def md_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines of a markdown table: header, separator, a line a row."""
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return out + ["| " + " | ".join(r) + " |" for r in rows]
