"""Snapshots of the flat copy: a reader loads the saved replay plus the log written since, and
answers exactly as a full replay (and Chroma) would; a snapshot of another log is ignored."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fake_vectors import FakeEmbedder, unit

from nemori_cli.config import Settings
from nemori_cli.store import flat_view, mirrored
from nemori_cli.store.open_index import open_vector_index
from nemori_cli.store.where import chroma_where

USER = "bob"
WHERES = [None, {"timestamp": {"$gte": 3.0}}, {"category": "odd"}]


def index(settings: Settings) -> mirrored.MirroredVectorIndex:
    ix = open_vector_index(settings, USER, FakeEmbedder())
    assert isinstance(ix, mirrored.MirroredVectorIndex)
    return ix


def add(ix: mirrored.MirroredVectorIndex, start: int, n: int) -> None:
    ids = [f"r{i}" for i in range(start, start + n)]
    vecs = np.stack([unit(1, (i % 7) / 7, (i % 3) / 3, i / 50) for i in range(start, start + n)])
    metas = [
        {"record_id": r, "timestamp": float(i), "category": "odd" if i % 2 else "even"}
        for i, r in zip(range(start, start + n), ids, strict=True)
    ]
    ix.upsert("fact", [f"{r}#0" for r in ids], vecs, ids, metas)


def answers(ix: mirrored.MirroredVectorIndex) -> list[list[tuple[str, float]]]:
    out = []
    for q in (unit(1), unit(0, 1), unit(1, 0, 1, 1)):
        for where in WHERES:
            out.append(ix.query("fact", q, 5, where))
    return out


def full_replay(settings: Settings) -> list[list[tuple[str, float]]]:
    """What the log alone says, through a view that ignores snapshots."""
    ix = index(settings)
    head = ix.flat.header("fact")
    assert head is not None
    view = ix.flat.view("fact", head)
    assert view is not None
    out = []
    for q in (unit(1), unit(0, 1), unit(1, 0, 1, 1)):
        for where in WHERES:
            out.append(view.query(q, 5, chroma_where(where)))
    return out


@pytest.fixture
def settings(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.setattr(flat_view, "RESNAP_BYTES", 1)  # every reader saves what it replayed
    return Settings(data_dir=data_dir)


def test_a_reader_saves_a_snapshot_and_the_next_one_adds_only_the_log_written_since(
    settings: Settings,
) -> None:
    writer = index(settings)
    add(writer, 0, 20)
    first = answers(index(settings))
    snap = settings.data_dir / "flat" / USER / "fact-1.snap"
    assert snap.exists()
    assert answers(index(settings)) == first == full_replay(settings)
    add(writer, 20, 10)
    writer.delete("fact", ["r3", "r25"])
    add(writer, 5, 1)  # a document replaced
    after = answers(index(settings))
    assert after == full_replay(settings)
    assert all("r3" not in dict(hits) and "r25" not in dict(hits) for hits in after)
    assert {r for r, _ in index(settings).query("fact", unit(1), 100)} == {
        f"r{i}" for i in range(30) if i not in (3, 25)
    }
    found = index(settings).embeddings("fact", ["r5#0", "r3#0", "r" * 300, "r29#0", "r29"])
    assert found.keys() == {"r5#0", "r29#0"}
    assert np.allclose(found["r5#0"], unit(1, 5 / 7, 2 / 3, 5 / 50))


def test_a_snapshot_of_another_log_is_ignored(settings: Settings) -> None:
    add(index(settings), 0, 20)
    answers(index(settings))
    folder = settings.data_dir / "flat" / USER
    saved = (folder / "fact-1.snap").read_bytes()
    index(settings).drop()  # the user deleted, then made again with other records
    add(index(settings), 100, 5)
    (folder / "fact-1.snap").write_bytes(saved)
    assert {r for r, _ in index(settings).query("fact", unit(1), 50)} == {
        f"r{i}" for i in range(100, 105)
    }


def test_a_damaged_snapshot_falls_back_to_the_log(settings: Settings) -> None:
    add(index(settings), 0, 12)
    want = answers(index(settings))
    snap = settings.data_dir / "flat" / USER / "fact-1.snap"
    snap.write_bytes(snap.read_bytes()[:-40])
    assert answers(index(settings)) == want


def test_a_new_generation_leaves_no_old_snapshot(settings: Settings) -> None:
    add(index(settings), 0, 12)
    answers(index(settings))
    writer = index(settings)
    writer.rebuild_copy("fact")
    answers(index(settings))
    names = {p.name for p in (settings.data_dir / "flat" / USER).iterdir()}
    assert "fact-2.snap" in names and "fact-1.snap" not in names
