"""Chroma `where` clauses: normalise them, and evaluate them on a document's metadata."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


def chroma_where(where: dict[str, Any] | None) -> dict[str, Any] | None:
    """Accept {"a": x, "t": {"$gte": y, "$lt": z}}: split it into Chroma's one-condition $and."""
    if not where:
        return None
    clauses: list[dict[str, Any]] = []
    for key, cond in where.items():
        if not key.startswith("$") and isinstance(cond, dict) and len(cond) > 1:
            clauses.extend({key: {op: value}} for op, value in cond.items())
        else:
            clauses.append({key: cond})
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "$eq": lambda a, b: a == b,
    "$ne": lambda a, b: a != b,
    "$gt": lambda a, b: a > b,
    "$gte": lambda a, b: a >= b,
    "$lt": lambda a, b: a < b,
    "$lte": lambda a, b: a <= b,
    "$in": lambda a, b: a in b,
    "$nin": lambda a, b: a not in b,
}


def can_match(where: dict[str, Any]) -> bool:
    """Whether matches understands this Chroma where clause."""
    for key, cond in where.items():
        if key in ("$and", "$or"):
            if not all(isinstance(c, dict) and can_match(c) for c in cond):
                return False
        elif key.startswith("$") or (
            isinstance(cond, dict) and (len(cond) != 1 or next(iter(cond)) not in COMPARE)
        ):
            return False
    return True


def matches(meta: dict[str, Any], where: dict[str, Any]) -> bool:
    """Evaluate a Chroma where clause on one document's metadata, as Chroma would."""
    for key, cond in where.items():
        if key == "$and":
            if not all(matches(meta, c) for c in cond):
                return False
        elif key == "$or":
            if not any(matches(meta, c) for c in cond):
                return False
        else:
            if key not in meta:
                return False
            op, target = next(iter(cond.items())) if isinstance(cond, dict) else ("$eq", cond)
            value = meta[key]
            if isinstance(value, bool) != isinstance(target, bool) and op in ("$eq", "$ne"):
                return op == "$ne"  # Chroma does not equate True with 1
            try:
                if not COMPARE[op](value, target):
                    return False
            except TypeError:
                return False
    return True


RANGES = ("$gt", "$gte", "$lt", "$lte")


def passing(
    metas: Sequence[dict[str, Any]],
    where: dict[str, Any],
    column: Callable[[str], np.ndarray] | None = None,
) -> np.ndarray:
    """Whether each metadata passes a where clause, as `matches` says, a column at a time.

    A range on a number ("timestamp" since a date) compares a float column (NaN where the
    value is missing or not a number, which no range passes), so a date filter over 600k rows
    costs milliseconds, not the seconds of one `matches` call per row; other conditions are
    evaluated once per metadata. `column(key)` may supply a cached float column.
    """
    import numpy as np

    out = np.ones(len(metas), dtype=bool)
    for key, cond in where.items():
        if key in ("$and", "$or"):
            parts = [passing(metas, c, column) for c in cond]
            joined = np.logical_and.reduce if key == "$and" else np.logical_or.reduce
            out &= joined(parts) if parts else key == "$and"
            continue
        op, target = next(iter(cond.items())) if isinstance(cond, dict) else ("$eq", cond)
        if op in RANGES and isinstance(target, int | float) and not isinstance(target, bool):
            values = column(key) if column is not None else numbers(metas, key)
            with np.errstate(invalid="ignore"):
                out &= COMPARE[op](values, float(target))
        else:
            one = {key: cond}
            out &= np.fromiter((matches(m, one) for m in metas), dtype=bool, count=len(metas))
    return out


def numbers(metas: Sequence[dict[str, Any]], key: str) -> np.ndarray:
    """One key's values as floats (NaN where missing or not a number; a bool is 0 or 1)."""
    import numpy as np

    def number(value: Any) -> float:
        return float(value) if isinstance(value, int | float) else np.nan

    return np.fromiter((number(m.get(key)) for m in metas), dtype=np.float64, count=len(metas))
