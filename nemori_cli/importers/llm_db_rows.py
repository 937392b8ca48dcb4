"""What each generation of llm's log tables gives: one exchange (prompt, response) per call."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from nemori_cli.importers.timeparse import try_time

CHUNK = 500  # ids bound to one query (SQLite allows at least 999 parameters)


@dataclass(frozen=True)
class Exchange:
    """One logged model call: the text the user typed and the text the model answered."""

    id: str
    time: datetime | None
    prompt: str
    response: str
    model: str | None


def fetch(conn: sqlite3.Connection, sql: str, ids: Sequence[str]) -> Iterator[tuple[Any, ...]]:
    """Run a query whose `{ids}` slot takes the ids, in chunks, each read whole.

    Whole: a statement left open between conversations would hold SQLite's shared lock while
    nemori works on them, and llm could not log meanwhile.
    """
    for start in range(0, len(ids), CHUNK):
        chunk = list(ids[start : start + CHUNK])
        marks = ", ".join("?" * len(chunk))
        yield from conn.execute(sql.format(ids=marks), chunk).fetchall()


def text(value: Any) -> str:
    """A text column's value, or "" for null and non-text values."""
    return value if isinstance(value, str) else ""


def when(value: Any) -> datetime | None:
    """llm's `datetime_utc`: ISO 8601 with an offset since llm 0.20, without one (UTC) before."""
    return try_time(value) if isinstance(value, str) else None
