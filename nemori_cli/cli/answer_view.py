"""How `nemori ask` shows an answer to a person: the answer, then the memories it cites."""

from __future__ import annotations

from collections.abc import Sequence

from nemori_cli.answer.ask import CONFIGURE_HINT, AskResult
from nemori_cli.cli import render
from nemori_cli.models import SearchHit

__all__ = ["CONFIGURE_HINT", "show"]
EVIDENCE_ROWS = 10


def show(result: AskResult) -> None:
    """Print the answer and its cited memories (offline: the best evidence)."""
    if result.answer is None:
        if not result.hits:
            render.err.print("no matches")
            return
        rows = list(enumerate(result.hits, 1))[:EVIDENCE_ROWS]
        memory_table("Best evidence (no answer without an LLM)", rows)
        return
    render.out.print(result.answer, markup=False, highlight=False, soft_wrap=True)
    if result.invalid_citations:
        numbers = ", ".join(f"[{n}]" for n in result.invalid_citations)
        render.err.print(
            f"warning: the answer cites {numbers}, which no memory shown to the model has: "
            "do not trust it",
            markup=False,
            soft_wrap=True,
        )
    elif result.answerable and not result.citations:
        render.err.print("warning: the answer cites no memory", markup=False)
    if result.citations:
        render.out.print()
        memory_table("Cited memories", [(c.n, c.hit) for c in result.citations])


def memory_table(title: str, rows: Sequence[tuple[int, SearchHit]]) -> None:
    """One line per memory: number, kind, date, id, a one-line excerpt (the text last, as
    search prints it: a piped line is as long as its text)."""
    render.table(
        title,
        ["n", "kind", "date", "id", "memory"],
        [
            (
                f"[{n}]",
                h.kind,
                h.timestamp.date().isoformat() if h.timestamp else "",
                h.id,
                render.short(h.title or h.content if h.kind == "episode" else h.content, 80),
            )
            for n, h in rows
        ],
        main="memory",
        optional=("kind", "date"),  # an id says its kind
    )
