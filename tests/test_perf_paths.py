"""The fast paths added for large stores give the same answers as the slow ones they replace."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fake_vectors import DIM, FakeEmbedder

from nemori_cli.config import Settings
from nemori_cli.errors import StoreError
from nemori_cli.models import Fact, utcnow
from nemori_cli.store.jsonl import JsonlFile
from nemori_cli.store.lexical import LexicalIndex
from nemori_cli.store.open_index import open_vector_index
from nemori_cli.store.repository import Repository
from nemori_cli.store.where import matches


def fact(i: int, *, superseded_by: str | None = None) -> Fact:
    return Fact(
        id=f"f{i}",
        user_id="me",
        content=f"fact number {i} about hiking" if i % 2 else f"fact {i} about cooking",
        category="experience",
        source_episode_ids=("e1",),
        source_message_ids=("m1",),
        confidence=0.9,
        created_at=utcnow(),
        valid_from=None,
        extractor="offline",
        superseded_by=superseded_by,
    )


# --- lexical: deleting masks documents instead of rebuilding ---------------------------


@pytest.fixture
def lexical(data_dir: Path) -> LexicalIndex:
    ix = LexicalIndex(data_dir / "bm25" / "me" / "facts")
    ids = [f"d{i}" for i in range(40)]
    ix.rebuild(ids, [f"hiking trip {i}" if i < 20 else f"cooking pasta {i}" for i in range(40)])
    return ix


def test_deleted_documents_are_never_returned_nor_listed(lexical: LexicalIndex) -> None:
    assert lexical.delete(["d3", "d5", "unknown"])
    hits = {d for d, _ in lexical.query("hiking", k=100)}
    assert hits == {f"d{i}" for i in range(20)} - {"d3", "d5"}
    assert "d3" not in lexical.doc_ids() and len(lexical.doc_ids()) == 38


def test_deletes_are_seen_by_other_instances_and_cleared_by_rebuild(
    lexical: LexicalIndex,
) -> None:
    other = LexicalIndex(lexical.folder)
    assert other.query("hiking", k=100)  # loaded before the delete
    assert lexical.delete(["d1"])
    assert "d1" not in {d for d, _ in other.query("hiking", k=100)}
    assert "d1" not in {d for d, _ in LexicalIndex(lexical.folder).query("hiking", k=100)}
    lexical.rebuild(["d1"], ["hiking again"])
    assert [d for d, _ in other.query("hiking", k=5)] == ["d1"]


def test_masking_too_much_asks_for_a_rebuild(lexical: LexicalIndex, data_dir: Path) -> None:
    assert not lexical.delete([f"d{i}" for i in range(10)])  # 25% of the corpus
    assert len(lexical.doc_ids()) == 40  # nothing changed
    assert not LexicalIndex(data_dir / "nothing").delete(["x"])


# --- vectors: filters applied to nearest results, batched queries ------------------------


@pytest.fixture
def vectors(data_dir: Path):  # type: ignore[no-untyped-def]
    ix = open_vector_index(Settings(data_dir=data_dir), "me", FakeEmbedder())
    rng = np.random.default_rng(1)
    vecs = rng.standard_normal((60, DIM)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    metas = [
        {"record_id": f"r{i}", "superseded": i % 7 == 0, "timestamp": float(i)} for i in range(60)
    ]
    ix.upsert("fact", [f"r{i}" for i in range(60)], vecs, ["d"] * 60, metas)
    return ix, vecs, metas


def test_filtered_query_equals_exhaustive_filtering(vectors) -> None:  # type: ignore[no-untyped-def]
    ix, vecs, metas = vectors
    for where in (
        {"superseded": False},
        {"timestamp": {"$gte": 50.0}},  # selective: falls back to Chroma's own filter
        {"$and": [{"superseded": False}, {"timestamp": {"$lte": 30.0}}]},
    ):
        got = [r for r, _ in ix.query("fact", vecs[0], 5, where=where)]
        keep = [i for i, m in enumerate(metas) if matches(m, where)]
        order = sorted(keep, key=lambda i: -float(vecs[i] @ vecs[0]))
        assert got == [f"r{i}" for i in order[:5]], where


def test_query_many_equals_one_query_per_vector(vectors) -> None:  # type: ignore[no-untyped-def]
    ix, vecs, _ = vectors
    many = ix.query_many("fact", vecs[:4], 3)
    assert many == [ix.query("fact", v, 3) for v in vecs[:4]]
    assert ix.query_many("episode", vecs[:2], 1) == [[], []]  # empty collection


def test_matches_follows_chroma_semantics() -> None:
    meta = {"record_id": "a", "superseded": False, "n": 1}
    assert matches(meta, {"superseded": False})
    assert not matches(meta, {"n": True})  # a bool is not a number to Chroma
    assert not matches(meta, {"missing": {"$gte": 0}})
    assert matches(meta, {"$or": [{"n": {"$gt": 5}}, {"record_id": {"$in": ["a"]}}]})


# --- repository: records parsed on demand for search --------------------------------------


def test_lookup_parses_on_demand_and_sees_changes(data_dir: Path) -> None:
    repo = Repository(data_dir, "me", lock_timeout=5)
    repo.facts.upsert([fact(i) for i in range(5)])
    fresh = Repository(data_dir, "me", lock_timeout=5)
    table = fresh.facts.lookup()
    assert len(table) == 5 and "f3" in table and table.get("nope") is None
    assert table["f3"] == fresh.facts.all()["f3"]
    repo.facts.upsert([fact(3, superseded_by="f4"), fact(9)])
    again = Repository(data_dir, "me", lock_timeout=5).facts
    assert again.lookup()["f3"].superseded_by == "f4" and len(again.lookup()) == 6


def test_lookup_reports_a_broken_line(data_dir: Path) -> None:
    path = data_dir / "users" / "me" / "facts.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"id":"f1","user_id":"me","content":"x"}\nnot json\n{"id":"f2"}\n')
    with pytest.raises(StoreError, match="line 2"):
        JsonlFile(path, lock_timeout=5).index_lines()


# --- long listings print as plain aligned text -------------------------------------------


def test_plain_table_aligns_columns_and_keeps_every_row() -> None:
    import io

    from nemori_cli.cli.plain import plain_table

    buf = io.StringIO()
    rows = [["f1", "experience", "Alex went\nhiking"], ["fact_22", "other", "x" * 300]]
    plain_table("2 facts", ["id", "category", "fact"], rows, file=buf)
    lines = buf.getvalue().splitlines()
    assert lines[0] == "2 facts"
    assert lines[1].split() == ["id", "category", "fact"]
    assert lines[3] == "f1       experience  Alex went hiking"
    assert lines[4].startswith("fact_22  other       x") and lines[4].endswith("…")
    assert len(lines) == 5


def test_deleting_a_fact_revives_the_one_it_superseded(data_dir: Path) -> None:
    from nemori_cli.memory import Memory

    class Embedder(FakeEmbedder):
        def embed(self, texts: object) -> np.ndarray:
            return np.ones((len(texts), DIM), np.float32) / np.sqrt(DIM)  # type: ignore[arg-type]

    memory = Memory(Settings(data_dir=data_dir, user="me"), embedder=Embedder())
    stored = [fact(1, superseded_by="f2"), fact(2), fact(3, superseded_by="f9")]
    memory.parts.repo().facts.upsert(stored)
    memory.delete_facts(["f2"])
    after = Memory(Settings(data_dir=data_dir, user="me")).parts.repo().facts.all()
    assert "f2" not in after
    assert after["f1"].superseded_by is None and after["f3"].superseded_by == "f9"
    assert memory.parts.vectors().record_ids("fact") == {"f1"}
    assert "f2" not in {d for d, _ in memory.parts.lexical("fact").query("fact hiking cooking", 10)}
