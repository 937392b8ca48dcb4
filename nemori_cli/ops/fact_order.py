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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from nemori_cli.models import Fact, from_iso, to_iso, utcnow
from nemori_cli.store.sidecar import load_sidecar, save_sidecar

if TYPE_CHECKING:
    import numpy as np

MAGIC = b"nemori-fact-order 1\n"
RESAVE_BYTES = 1 << 20  # lines read past the saved order before a reader saves it again
CANONICAL = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.(?!000000)\d{6})?Z")  # to_iso's form
LISTED_KEYS = [
    "id", "user_id", "content", "category", "subject", "source_episode_ids",
    "source_message_ids", "confidence", "created_at", "valid_from", "superseded_by", "extractor",
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
        "content": raw.get("content") or "",
        "category": raw.get("category") or "other",
        "subject": raw.get("subject"),
        "source_episode_ids": list(raw.get("source_episode_ids") or ()),
        "source_message_ids": list(raw.get("source_message_ids") or ()),
        "confidence": float(raw.get("confidence", 1.0)),
        "created_at": canonical(raw["created_at"]) or to_iso(utcnow()),
        "valid_from": canonical(raw["valid_from"]),
        "superseded_by": raw.get("superseded_by"),
        "extractor": raw.get("extractor") or "offline",
    }


def is_listed(raw: dict[str, Any]) -> bool:
    """Whether as_listed(raw) is raw itself, keys in the same order (a line nemori wrote)."""
    return (
        list(raw) == LISTED_KEYS
        and isinstance(raw["content"], str)
        and all(isinstance(raw[k], str) and raw[k] for k in ("category", "extractor"))
        and type(raw["source_episode_ids"]) is list
        and type(raw["source_message_ids"]) is list
        and type(raw["confidence"]) is float
        and written_by_to_iso(raw["created_at"])
        and (raw["valid_from"] is None or written_by_to_iso(raw["valid_from"]))
    )


def written_by_to_iso(value: Any) -> bool:
    return isinstance(value, str) and CANONICAL.fullmatch(value) is not None


@dataclass(frozen=True)
class FactOrder:
    """The latest line of each fact, in listing order (undated last, then by date, then id)."""

    ids: list[str]
    starts: np.ndarray  # where each line starts in the file
    ends: np.ndarray
    current: np.ndarray  # not superseded
    listed: np.ndarray  # the stored line is what the listing prints
    codes: np.ndarray  # index into categories
    categories: list[str]
    valid_from: np.ndarray  # sortable(valid_from), b"" when undated
    keys: np.ndarray  # the sort key


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
    if rows is None:
        return None
    order = merge(saved, rows)
    if len(tail) >= RESAVE_BYTES:
        save_order(path, fd, size, order)
    return order


def read_rows(data: bytes, at: int) -> list[tuple[Any, ...]] | None:
    """(id, start, end, current, listed, category, valid_from, key) of each line of data."""
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
        valid, created = shown["valid_from"], shown["created_at"]
        key = ("1" if valid is None else "0") + sortable(valid or created) + shown["id"]
        rows.append((shown["id"], start, at - 1, shown["superseded_by"] is None, plain,
                     shown["category"], sortable(valid) if valid else "", key))
    return rows


def merge(saved: FactOrder | None, rows: list[tuple[Any, ...]]) -> FactOrder:
    """The saved order with these later lines added: a fact's later line replaces its earlier."""
    import numpy as np

    categories = list(saved.categories) if saved else []
    for row in rows:
        if row[5] not in categories:
            categories.append(row[5])
    ids: list[str] = (saved.ids if saved else []) + [r[0] for r in rows]
    new: dict[str, Any] = {
        "starts": np.array([r[1] for r in rows], dtype=np.int64),
        "ends": np.array([r[2] for r in rows], dtype=np.int64),
        "current": np.array([r[3] for r in rows], dtype=bool),
        "listed": np.array([r[4] for r in rows], dtype=bool),
        "codes": np.array([categories.index(r[5]) for r in rows], dtype=np.int16),
        "valid_from": np.array([r[6].encode() for r in rows], dtype="S26"),
        "keys": np.array([r[7].encode() for r in rows], dtype=bytes),
    }
    if saved is not None:
        new = {name: np.concatenate([getattr(saved, name), column]) for name, column in new.items()}
    latest = {fact_id: i for i, fact_id in enumerate(ids)}  # later lines win
    keep = np.fromiter(latest.values(), dtype=np.int64, count=len(latest))
    keep = keep[np.argsort(new["keys"][keep], kind="stable")]
    return FactOrder(
        ids=[ids[i] for i in keep.tolist()], categories=categories,
        **{name: column[keep] for name, column in new.items()},
    )


COLUMNS = (("starts", "<i8"), ("ends", "<i8"), ("current", "?"), ("listed", "?"),
           ("codes", "<i2"), ("valid_from", "S26"))


def save_order(path: Path, fd: int, size: int, order: FactOrder) -> None:
    """Save the order of the file's first `size` bytes (best effort)."""
    width = order.keys.dtype.itemsize
    body = b"".join(getattr(order, name).tobytes() for name, _ in COLUMNS)
    body += order.keys.tobytes() + orjson.dumps(order.ids)
    head = {"rows": len(order.ids), "key_width": width, "categories": order.categories}
    save_sidecar(path, "order", MAGIC, fd, size, head, body)


def load_order(path: Path, fd: int) -> tuple[FactOrder | None, int]:
    """(the saved order, bytes of the file it covers), or (None, 0) when none fits."""
    import numpy as np

    head, body = load_sidecar(path, "order", MAGIC, fd)
    try:
        n, width, at = int(head["rows"]), int(head["key_width"]), 0
        columns: dict[str, Any] = {}
        for name, dtype in (*COLUMNS, ("keys", f"S{width}")):
            columns[name] = np.frombuffer(body, dtype=dtype, count=n, offset=at)
            at += n * columns[name].dtype.itemsize
        ids = orjson.loads(body[at:])
        categories = head["categories"]
        if not isinstance(ids, list) or len(ids) != n or not isinstance(categories, list):
            return None, 0
        return FactOrder(ids=ids, categories=categories, **columns), int(head["covered"])
    except (ValueError, KeyError, TypeError):
        return None, 0
