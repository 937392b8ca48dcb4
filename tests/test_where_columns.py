"""A where clause evaluated a column at a time (the flat copy's filters) passes exactly the
metadata that Chroma's one-by-one semantics pass: missing keys, strings, bools and None."""

from __future__ import annotations

from typing import Any

import pytest

from nemori_cli.store.where import chroma_where, matches, passing

METAS: list[dict[str, Any]] = [
    {"record_id": "a", "timestamp": 10.0, "superseded": False, "category": "event"},
    {"record_id": "b", "timestamp": 20, "superseded": True, "category": "preference"},
    {"record_id": "c", "superseded": False},  # no timestamp: no range passes it
    {"record_id": "d", "timestamp": "2024-01-01", "superseded": 0},  # a string: not a number
    {"record_id": "e", "timestamp": None, "category": "event"},
    {"record_id": "f", "timestamp": True},  # a bool compares as 1, as in Python
    {"record_id": "g", "timestamp": 15.5, "superseded": False, "category": "event"},
]


@pytest.mark.parametrize(
    "where",
    [
        {"timestamp": {"$gte": 10.0}},
        {"timestamp": {"$gt": 10, "$lte": 20.0}},
        {"timestamp": {"$lt": 12}},
        {"timestamp": {"$gte": 0.5}},
        {"superseded": False},
        {"superseded": {"$ne": True}},
        {"category": {"$in": ["event", "plan"]}},
        {"$and": [{"superseded": False}, {"timestamp": {"$lte": 15.5}}]},
        {"$or": [{"category": "preference"}, {"timestamp": {"$lt": 11}}]},
        {"$and": []},
        {"$or": []},
    ],
)
def test_column_filter_passes_what_each_metadata_passes(where: dict[str, Any]) -> None:
    clause = chroma_where(where)
    assert clause is not None
    expected = [matches(m, clause) for m in METAS]
    assert passing(METAS, clause).tolist() == expected
