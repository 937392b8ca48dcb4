"""Plain-text tables for long listings: rich needs about a millisecond a row, this a microsecond."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

PLAIN_ROWS = 500  # listings longer than this print as plain aligned text
MAX_CELL = 110  # characters of a cell before it is cut (the last column is never cut)


def plain_table(
    title: str | None,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    file: TextIO | None = None,
) -> None:
    """Print a header, a rule and one line per row, columns aligned, the last one unpadded."""
    out = file or sys.stdout
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [len(c) for c in columns]
    for row in cells:
        for i, v in enumerate(row[:-1]):
            if len(v) > widths[i]:
                widths[i] = len(v)
    last = len(columns) - 1

    def line(values: Sequence[str]) -> str:
        return "  ".join(v if i == last else v.ljust(widths[i]) for i, v in enumerate(values))

    lines = [title] if title else []
    lines.append(line(list(columns)))
    lines.append(line(["-" * max(w, 1) for w in widths[:last]] + ["-" * len(columns[last])]))
    lines.extend(line(row) for row in cells)
    out.write("\n".join(lines) + "\n")
    out.flush()


def _cell(value: str) -> str:
    flat = " ".join(value.split())
    return flat if len(flat) <= MAX_CELL else flat[: MAX_CELL - 1] + "…"
