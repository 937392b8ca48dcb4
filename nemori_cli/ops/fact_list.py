"""`facts list` at 100k facts: order and filter on a few fields, then build only what is shown.

Building every Fact (three ISO dates parsed each) cost `nemori facts list` most of its 3 s at
100k facts. Here one regular-expression pass over the file reads the fields the listing sorts
and filters on (id, category, created_at, valid_from, superseded_by: nemori writes them in this
order, `Fact.to_dict`'s), and only the lines listed are parsed, into `Fact.to_dict()`'s shape.
A line the pass cannot read (written by hand, another order) sends the whole file through the
full parse instead, so the answer never depends on which path ran.
"""

from __future__ import annotations

import gc
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from nemori_cli.models import Fact, from_iso, to_iso, utcnow
from nemori_cli.parts import Parts

FIELDS = re.compile(
    rb'^\{"id":"([^"\\]*)",.*?"category":"([^"\\]*)",.*?'
    rb'"created_at":(?:"([^"\\]*)"|null),"valid_from":(?:"([^"\\]*)"|null),'
    rb'"superseded_by":(?:"[^"\\]*"|(null)),',
    re.MULTILINE,
)
CANONICAL = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.(?!000000)\d{6})?Z")  # to_iso's form


@dataclass(frozen=True)
class FactQuery:
    """What `facts list` asks for."""

    category: str | None = None
    include_superseded: bool = True
    since: datetime | None = None
    until: datetime | None = None
    limit: int | None = None  # the newest N


def canonical(stamp: str | None) -> str | None:
    """The ISO string to_iso would write for this stored one."""
    if stamp is None or CANONICAL.fullmatch(stamp):
        return stamp
    try:
        return to_iso(from_iso(stamp))
    except ValueError:
        return None


def order_key(valid_from: str | None, created_at: str | None, fact_id: str) -> tuple[Any, ...]:
    """list_facts' order (undated last, then by date, then id) on canonical ISO strings."""
    when = valid_from or created_at or to_iso(utcnow()) or ""
    return (valid_from is None, when[:19] + (when[19:-1] or ".000000"), fact_id)


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


def list_fact_dicts(
    parts: Parts, query: FactQuery, user: str | None = None
) -> list[dict[str, Any]]:
    """The facts `facts list` shows, oldest first, as Fact.to_dict() gives them."""
    lines = [line for line in parts.repo(user).facts.file.read_lines() if line.strip()]
    rows = quick_rows(lines)
    if rows is None:
        return slow_list(parts, query, user)
    latest: dict[str, tuple[tuple[Any, ...], int]] = {}  # id -> (order key, line); later wins
    dated = query.since is not None or query.until is not None
    for i, (fid, category, created, valid, current) in enumerate(rows):
        valid_s = canonical(valid.decode()) if valid else None
        created_s = canonical(created.decode()) if created else None
        key = order_key(valid_s, created_s, fid.decode())
        latest[key[2]] = (key, i) if _wanted(query, category, current, valid_s, dated) else ((), -1)
    chosen = sorted((v for v in latest.values() if v[1] >= 0), key=lambda v: v[0])
    if query.limit:
        chosen = chosen[-query.limit :]
    return [as_listed(orjson.loads(lines[i])) for _, i in chosen]


def _wanted(
    query: FactQuery, category: bytes, current: bytes, valid_from: str | None, dated: bool
) -> bool:
    if query.category is not None and category.decode() != query.category:
        return False
    if not query.include_superseded and not current:
        return False
    if not dated:
        return True
    when = from_iso(valid_from)
    return when is not None and (
        (query.since is None or when >= query.since)
        and (query.until is None or when <= query.until)
    )


def quick_rows(lines: list[bytes]) -> list[tuple[bytes, ...]] | None:
    """(id, category, created_at, valid_from, b"null" when current) of each line, or None."""
    gc_was_enabled = gc.isenabled()
    gc.disable()  # many small objects at once: the cyclic GC only slows this down
    try:
        rows = FIELDS.findall(b"\n".join(lines))
    finally:
        if gc_was_enabled:
            gc.enable()
    return rows if len(rows) == len(lines) else None


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

