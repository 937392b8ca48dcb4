"""A user's facts in `facts list` order, saved beside facts.jsonl as `facts.jsonl.order`.

Ordering 100k facts meant reading every line and its dates at each listing (`facts list -n 20`
took 2.7 s). Each line is read once instead: its fact's id, category, whether it is current,
its dates, and whether the stored line already is what the listing prints (nemori writes
`Fact.to_dict()`, so it is, unless edited by hand). The rows are kept in listing order, the
latest line of each fact only, in a sidecar (store/sidecar.py) that the next reader extends
with the lines appended since; a rewrite of the file voids it.
"""

from __future__ import annotations

import gc
import os
import re
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from nemori_cli.models import Fact, from_iso, to_iso, utcnow
from nemori_cli.store.sidecar import load_sidecar, save_sidecar

# 3: a fact line has "when" (an order of 2 may mark lines without it as listed as stored)
MAGIC = b"nemori-fact-order 3\n"
CANONICAL = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.(?!000000)\d{6})?Z")  # to_iso's form
LISTED_KEYS = [
    "id", "user_id", "source_episode_ids", "source_message_ids", "content", "category",
    "subject", "confidence", "created_at", "valid_from", "when", "superseded_by", "extractor",
]


def canonical(stamp: str | None) -> str | None:
    """The ISO string to_iso would write for this stored one."""
    if stamp is None or CANONICAL.fullmatch(stamp):
        return stamp
    try:
        return to_iso(from_iso(stamp))
    except ValueError:
        return None


def sortable(stamp: str) -> str:
    """A canonical ISO stamp with its fraction written out: these sort as the times do."""
    return stamp[:19] + (stamp[19:-1] or ".000000")


def as_listed(raw: dict[str, Any]) -> dict[str, Any]:
    """A stored fact line as Fact.from_dict(...).to_dict() gives it, without building a Fact."""
    if not all(
        k in raw and (raw[k] is None or isinstance(raw[k], str))
        for k in ("created_at", "valid_from")
    ) or not isinstance(raw.get("confidence", 1.0), int | float):
        return Fact.from_dict(raw).to_dict()
    return {
        "id": raw["id"],
        "user_id": raw["user_id"],
        "source_episode_ids": list(raw.get("source_episode_ids") or ()),
        "source_message_ids": list(raw.get("source_message_ids") or ()),
        "content": raw.get("content") or "",
        "category": raw.get("category") or "other",
        "subject": raw.get("subject"),
        "confidence": float(raw.get("confidence", 1.0)),
        "created_at": canonical(raw["created_at"]) or to_iso(utcnow()),
        "valid_from": canonical(raw["valid_from"]),
        "when": raw.get("when"),
        "superseded_by": raw.get("superseded_by"),
        "extractor": raw.get("extractor") or "offline",
    }


def is_listed(raw: dict[str, Any]) -> bool:
    """Whether as_listed(raw) is raw itself (a line nemori writes now; older layouts, without
    "when" or with the sources after the content, are listed through as_listed)."""
    if list(raw) != LISTED_KEYS:
        return False
    created, valid = raw["created_at"], raw["valid_from"]
    return (
        type(raw["content"]) is str
        and type(raw["category"]) is str and raw["category"] != ""
        and type(raw["extractor"]) is str and raw["extractor"] != ""
        and type(raw["source_episode_ids"]) is list
        and type(raw["source_message_ids"]) is list
        and type(raw["confidence"]) is float
        and type(created) is str and CANONICAL.fullmatch(created) is not None
        and (valid is None or (type(valid) is str and CANONICAL.fullmatch(valid) is not None))
    )


STAMP = 26  # bytes of a sortable stamp
UNDATED = b" " * STAMP


@dataclass(frozen=True)
class FactOrder:
    """The latest line of each fact, in listing order (undated last, then by date, then id).

    Plain arrays and bytes, not numpy: a listing must not pay numpy's import.
    """

    ids: list[str]
    starts: array[int]  # where each line starts in the file
    ends: array[int]
    current: bytes  # 1 where the fact is not superseded
    listed: bytes  # 1 where the stored line is what the listing prints
    codes: bytes  # index into categories
    categories: list[str]
    valid_from: bytes  # sortable(valid_from) of each row, STAMP bytes, UNDATED when none
    when: bytes  # sortable(valid_from or created_at), STAMP bytes

    def stamp(self, column: bytes, row: int) -> bytes:
        return column[row * STAMP : (row + 1) * STAMP]


def read_order(path: Path, fd: int, size: int) -> FactOrder | None:
    """The order of the first `size` bytes of the file open as fd (saved, then extended).

    None when a line is not a whole fact record (the caller takes the full parse, which
    repairs or reports it).
    """
    saved, covered = load_order(path, fd)
    if covered == size and saved is not None:
        return saved
    tail = os.pread(fd, size - covered, covered)
    if tail and not tail.endswith(b"\n"):
        return None
    gc_was_enabled = gc.isenabled()
    gc.disable()  # many small objects at once: the cyclic GC only slows this down
    try:
        rows = read_rows(tail, covered)
    finally:
        if gc_was_enabled:
            gc.enable()
    order = None if rows is None else merge(saved, rows)
    if order is None:
        return None
    if tail:  # merging costs what a listing saves: once per change of the file
        save_order(path, fd, size, order)
    return order


def read_rows(data: bytes, at: int) -> list[tuple[Any, ...]] | None:
    """(id, start, end, current, listed, category, valid_from, when) of each line of data."""
    rows = []
    for line in data.split(b"\n")[:-1]:
        start, at = at, at + len(line) + 1
        if not line.strip():
            continue
        try:
            raw = orjson.loads(line)
            if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
                return None
            plain = is_listed(raw)
            shown = raw if plain else as_listed(raw)
        except (ValueError, TypeError, KeyError, AttributeError):
            return None
        valid = shown["valid_from"]
        rows.append((shown["id"], start, at - 1, shown["superseded_by"] is None, plain,
                     shown["category"], sortable(valid).encode() if valid else UNDATED,
                     sortable(valid or shown["created_at"]).encode()))
    return rows


def merge(saved: FactOrder | None, rows: list[tuple[Any, ...]]) -> FactOrder | None:
    """The saved order with these later lines added: a fact's later line replaces its earlier.

    None when the facts have more categories than a byte counts (hand-written files).
    """
    if saved is not None:
        rows = saved_rows(saved) + rows
    latest = {row[0]: row for row in rows}  # later lines win
    ordered = sorted(latest.values(), key=lambda r: (r[6] == UNDATED, r[7], r[0]))
    categories = list(saved.categories) if saved else []
    code = {name: i for i, name in enumerate(categories)}
    for row in ordered:
        if row[5] not in code:
            code[row[5]] = len(categories)
            categories.append(row[5])
    if len(categories) > 256:
        return None
    return FactOrder(
        ids=[r[0] for r in ordered],
        starts=array("q", [r[1] for r in ordered]),
        ends=array("q", [r[2] for r in ordered]),
        current=bytes(r[3] for r in ordered),
        listed=bytes(r[4] for r in ordered),
        codes=bytes(code[r[5]] for r in ordered),
        categories=categories,
        valid_from=b"".join(r[6] for r in ordered),
        when=b"".join(r[7] for r in ordered),
    )


def saved_rows(order: FactOrder) -> list[tuple[Any, ...]]:
    """The saved order as read_rows gives rows."""
    vf, when = order.valid_from, order.when
    return [
        (fact_id, order.starts[i], order.ends[i], order.current[i], order.listed[i],
         order.categories[order.codes[i]], vf[i * STAMP : (i + 1) * STAMP],
         when[i * STAMP : (i + 1) * STAMP])
        for i, fact_id in enumerate(order.ids)
    ]


COLUMNS = ("current", "listed", "codes")  # a byte a row
STAMPS = ("valid_from", "when")


def save_order(path: Path, fd: int, size: int, order: FactOrder) -> None:
    """Save the order of the file's first `size` bytes (best effort)."""
    body = order.starts.tobytes() + order.ends.tobytes()
    body += b"".join(getattr(order, name) for name in (*COLUMNS, *STAMPS))
    body += orjson.dumps(order.ids)
    head = {"rows": len(order.ids), "categories": order.categories}
    save_sidecar(path, "order", MAGIC, fd, size, head, body)


def load_order(path: Path, fd: int) -> tuple[FactOrder | None, int]:
    """(the saved order, bytes of the file it covers), or (None, 0) when none fits."""
    head, body = load_sidecar(path, "order", MAGIC, fd)
    try:
        n, categories = int(head["rows"]), head["categories"]
        offsets: list[array[int]] = []
        for at in (0, 8 * n):
            column = array("q")
            column.frombytes(body[at : at + 8 * n])
            offsets.append(column)
        at, columns = 16 * n, {}
        for name, width in (*((c, 1) for c in COLUMNS), *((c, STAMP) for c in STAMPS)):
            columns[name], at = body[at : at + width * n], at + width * n
        ids = orjson.loads(body[at:])
        if (
            not isinstance(ids, list) or len(ids) != n or not isinstance(categories, list)
            or any(len(offsets[k]) != n for k in (0, 1))
        ):
            return None, 0
        order = FactOrder(ids=ids, starts=offsets[0], ends=offsets[1], categories=categories,
                          **columns)
        return order, int(head["covered"])
    except (ValueError, KeyError, TypeError):
        return None, 0
