"""`facts list` at 100k facts: filter the saved order, then read only the lines listed.

The order of a user's facts (ops/fact_order.py) is kept beside the file, so a listing filters
a few arrays and reads the lines it prints; those nemori wrote are printed as stored, parsed in
one call. A line the order cannot read (not a whole record) sends the listing through every
Fact instead, so the answer never depends on which path ran.
"""

from __future__ import annotations

import gc
import os
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from nemori_cli.models import to_iso
from nemori_cli.ops.fact_order import UNDATED, FactOrder, as_listed, read_order, sortable
from nemori_cli.parts import Parts

WHOLE_FILE_LINES = 2000  # listing more lines than this reads the file once, not line by line


@dataclass(frozen=True)
class FactQuery:
    """What `facts list` asks for."""

    category: str | None = None
    include_superseded: bool = True
    since: datetime | None = None
    until: datetime | None = None
    limit: int | None = None  # the newest N


def list_fact_dicts(
    parts: Parts, query: FactQuery, user: str | None = None
) -> list[dict[str, Any]]:
    """The facts `facts list` shows, oldest first, as Fact.to_dict() gives them."""
    file = parts.repo(user).facts.file
    try:
        fd = os.open(file.path, os.O_RDONLY)
    except FileNotFoundError:
        return []
    except OSError:
        return slow_list(parts, query, user)
    try:
        size = os.fstat(fd).st_size
        order = read_order(file.path, fd, size)
        if order is None:
            return slow_list(parts, query, user)
        chosen = chosen_rows(order, query)
        return read_listed(fd, size, order, chosen)
    finally:
        os.close(fd)


def chosen_rows(order: FactOrder, query: FactQuery) -> list[int]:
    """The rows of the order the query lists, in listing order."""
    rows: list[int] | range = range(len(order.ids))
    if query.category is not None:
        if query.category not in order.categories:
            return []
        code = order.categories.index(query.category)
        rows = [i for i in rows if order.codes[i] == code]
    if not query.include_superseded:
        rows = [i for i in rows if order.current[i]]
    if query.since is not None or query.until is not None:
        low = sortable(to_iso(query.since) or "").encode() if query.since else b""
        high = sortable(to_iso(query.until) or "").encode() if query.until else b"~"
        rows = [
            i for i in rows
            if (when := order.stamp(order.valid_from, i)) != UNDATED and low <= when <= high
        ]
    return list(rows[-query.limit :] if query.limit else rows)


def read_listed(fd: int, size: int, order: FactOrder, rows: list[int]) -> list[dict[str, Any]]:
    """The listed facts of these rows, read from the file open as fd."""
    spans = [(order.starts[i], order.ends[i]) for i in rows]
    if len(rows) > WHOLE_FILE_LINES:
        data = os.pread(fd, size, 0)
        lines = [data[a:b] for a, b in spans]
    else:
        lines = [os.pread(fd, b - a, a) for a, b in spans]
    listed = [order.listed[i] for i in rows]
    gc_was_enabled = gc.isenabled()
    gc.disable()  # a million small objects at once: the cyclic GC only slows this down
    try:
        if all(listed):
            return list(orjson.loads(b"[" + b",".join(lines) + b"]"))
        return [
            orjson.loads(line) if plain else as_listed(orjson.loads(line))
            for plain, line in zip(listed, lines, strict=True)
        ]
    finally:
        if gc_was_enabled:
            gc.enable()


def slow_list(parts: Parts, query: FactQuery, user: str | None) -> list[dict[str, Any]]:
    """The same listing through every Fact (for files the quick pass cannot read)."""
    facts = parts.repo(user).facts.all().values()
    kept = [
        f
        for f in facts
        if (query.category is None or f.category == query.category)
        and (query.include_superseded or f.superseded_by is None)
        and _in_range(query, f.valid_from)
    ]
    kept.sort(key=lambda f: (f.valid_from is None, f.valid_from or f.created_at, f.id))
    if query.limit:
        kept = kept[-query.limit :]
    return [f.to_dict() for f in kept]


def _in_range(query: FactQuery, when: datetime | None) -> bool:
    if query.since is None and query.until is None:
        return True
    return when is not None and (
        (query.since is None or when >= query.since)
        and (query.until is None or when <= query.until)
    )

