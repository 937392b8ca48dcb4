"""The flat copy of the vectors: a reader that has not written searches it, and gets what Chroma
would answer, without importing chromadb; crashes and old stores fall back or repair."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fake_vectors import DIM, FakeEmbedder, unit

from nemori_cli.config import Settings
from nemori_cli.errors import EmbeddingMismatch
from nemori_cli.store import mirrored
from nemori_cli.store.open_index import open_vector_index

USER = "alice@example.com"


WHERES = [
    None,
    {"timestamp": {"$gte": 150.0}},
    {"timestamp": {"$lte": 250.0}, "superseded": False},
    {"timestamp": {"$gte": 150.0, "$lt": 250.0}},
    {"category": "experience"},
]


@pytest.fixture
def settings(data_dir: Path) -> Settings:
    return Settings(data_dir=data_dir)


@pytest.fixture
def writer(settings: Settings) -> mirrored.MirroredVectorIndex:
    ix = open_vector_index(settings, USER, FakeEmbedder())
    assert isinstance(ix, mirrored.MirroredVectorIndex)
    ix.upsert(
        "fact",
        ["a#0", "a#1", "b#0", "c#0"],
        np.stack([unit(1, 0), unit(1, 0.2), unit(0, 1), unit(1, 1)]),
        ["a zero", "a one", "b", "c"],
        [
            {"record_id": "a", "timestamp": 100.0, "category": "experience"},
            {"record_id": "a", "timestamp": 100.0, "category": "experience"},
            {"record_id": "b", "timestamp": 200.0, "superseded": False},
            {"record_id": "c", "timestamp": 300.0, "superseded": True},
        ],
    )
    return ix


def reader(
    settings: Settings, embedder: FakeEmbedder | None = None
) -> mirrored.MirroredVectorIndex:
    ix = open_vector_index(settings, USER, embedder or FakeEmbedder())
    assert isinstance(ix, mirrored.MirroredVectorIndex)
    return ix


def assert_same(got: list[tuple[str, float]], want: list[tuple[str, float]]) -> None:
    assert [r for r, _ in got] == [r for r, _ in want]
    assert [s for _, s in got] == pytest.approx([s for _, s in want], abs=1e-5)


def test_a_fresh_reader_answers_from_the_copy_as_chroma_does(
    writer: mirrored.MirroredVectorIndex, settings: Settings
) -> None:
    fresh = reader(settings)
    for query in (unit(1, 0), unit(0, 1), unit(1, 1, 1)):
        for where in WHERES:
            for k in (1, 2, 10):
                assert_same(
                    fresh.query("fact", query, k, where), writer.query("fact", query, k, where)
                )
    assert [len(hits) for hits in fresh.query_many("fact", np.stack([unit(1), unit(0, 1)]), 2)] == [
        2,
        2,
    ]
    got = fresh.embeddings("fact", ["a#1", "zzz"])
    assert set(got) == {"a#1"} and np.allclose(got["a#1"], unit(1, 0.2))
    assert fresh.query("episode", unit(1), 5) == []
    assert fresh._chroma is None  # chromadb was never opened for these reads


def test_deletes_and_replaced_documents_reach_the_copy(
    writer: mirrored.MirroredVectorIndex, settings: Settings
) -> None:
    writer.delete("fact", ["a", "missing"])
    writer.upsert("fact", ["b#0"], unit(1, 0)[None, :], ["b moved"], [{"record_id": "b"}])
    fresh = reader(settings)
    hits = dict(fresh.query("fact", unit(1, 0), 10))
    assert set(hits) == {"b", "c"} and hits["b"] == pytest.approx(1.0, abs=1e-5)
    writer.upsert("fact", ["a#0"], unit(0, 0, 1)[None, :], ["a again"], [{"record_id": "a"}])
    assert reader(settings).query("fact", unit(0, 0, 1), 1)[0][0] == "a"  # re-added after delete


def test_rows_or_a_line_cut_short_by_a_crash_are_ignored_then_overwritten(
    writer: mirrored.MirroredVectorIndex, settings: Settings
) -> None:
    before = reader(settings).query("fact", unit(1, 0), 10)
    folder = settings.data_dir / "flat" / USER
    with (folder / "fact-1.f32").open("ab") as fh:
        fh.write(b"\x01" * (4 * DIM + 5))  # a row and a half with no log line
    with (folder / "fact-1.log").open("ab") as fh:
        fh.write(b'["+", 4, "d#0", {"rec')
    cut = reader(settings)
    assert_same(cut.query("fact", unit(1, 0), 10), before)
    assert cut._chroma is None
    again = reader(settings)
    again.upsert("fact", ["d#0"], unit(0, 0, 0, 1)[None, :], ["d"], [{"record_id": "d"}])
    fresh = reader(settings)
    assert fresh.query("fact", unit(0, 0, 0, 1), 1) == [("d", pytest.approx(1.0, abs=1e-5))]
    assert_same(fresh.query("fact", unit(1, 0), 3), before[:3])


def test_a_big_or_missing_copy_falls_back_to_chroma_and_the_next_write_rebuilds_it(
    writer: mirrored.MirroredVectorIndex, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    want = writer.query("fact", unit(1, 0), 10)
    monkeypatch.setattr(mirrored, "FLAT_MAX_ROWS", 3)
    big = reader(settings)
    assert_same(big.query("fact", unit(1, 0), 10), want)
    assert big._chroma is not None
    monkeypatch.undo()
    for path in (settings.data_dir / "flat" / USER).iterdir():  # a store made before the copy
        path.unlink()
    old = reader(settings)
    assert_same(old.query("fact", unit(1, 0), 10), want)
    assert old._chroma is not None
    old.upsert("fact", ["e#0"], unit(0, 0, 0, 0, 1)[None, :], ["e"], [{"record_id": "e"}])
    fresh = reader(settings)
    assert {r for r, _ in fresh.query("fact", unit(1), 10)} == {"a", "b", "c", "e"}
    assert fresh._chroma is None


def test_another_embedder_still_gets_the_reindex_error(
    writer: mirrored.MirroredVectorIndex, settings: Settings
) -> None:
    other = reader(settings, FakeEmbedder("test:other"))
    with pytest.raises(EmbeddingMismatch, match="reindex"):
        other.query("fact", unit(1), 5)
    with pytest.raises(EmbeddingMismatch, match="reindex"):
        reader(settings, FakeEmbedder("test:other")).delete("fact", ["a"])
    assert reader(settings).query("fact", unit(1), 1)[0][0] == "a"  # the copy was left alone


def test_reset_and_drop_clear_the_copy(
    writer: mirrored.MirroredVectorIndex, settings: Settings
) -> None:
    writer.reset("fact")
    assert reader(settings).query("fact", unit(1), 5) == []
    names = {p.name for p in (settings.data_dir / "flat" / USER).iterdir()}
    assert {n for n in names if n.startswith("fact")} == {"fact-2.f32", "fact-2.log", "fact.json"}
    writer.drop()
    assert not (settings.data_dir / "flat" / USER).exists()


def test_a_long_running_reader_sees_what_another_process_wrote_since(
    writer: mirrored.MirroredVectorIndex, settings: Settings
) -> None:
    server = reader(settings)  # like the MCP server: reads for hours while ingests run
    assert {r for r, _ in server.query("fact", unit(1), 10)} == {"a", "b", "c"}
    other = reader(settings)
    other.upsert("fact", ["f#0"], unit(0, 0, 0, 0, 0, 1)[None, :], ["f"], [{"record_id": "f"}])
    other.delete("fact", ["b"])
    assert {r for r, _ in server.query("fact", unit(1), 10)} == {"a", "c", "f"}
    assert server._chroma is None


def test_a_long_running_reader_follows_each_new_generation_another_process_starts(
    writer: mirrored.MirroredVectorIndex, settings: Settings
) -> None:
    server = reader(settings)
    assert {r for r, _ in server.query("fact", unit(1), 10)} == {"a", "b", "c"}
    for gen, rid in enumerate(["g", "h", "i"], start=2):  # each reset writes a new header
        other = reader(settings)
        other.reset("fact")
        other.upsert("fact", [f"{rid}#0"], unit(1)[None, :], [rid], [{"record_id": rid}])
        assert server.flat.header("fact").gen == gen  # type: ignore[union-attr]
        assert [r for r, _ in server.query("fact", unit(1), 10)] == [rid]
    assert server._chroma is None


def test_a_long_running_writer_writes_to_the_generation_another_process_started(
    writer: mirrored.MirroredVectorIndex, settings: Settings
) -> None:
    other = reader(settings)  # a second ingest that copied Chroma into a new generation
    model = FakeEmbedder()
    other.flat.start("fact", model.model_id, int(model.dim), other.chroma.dump("fact"))
    assert not (settings.data_dir / "flat" / USER / "fact-1.log").exists()
    writer.upsert("fact", ["g#0"], unit(0, 0, 1)[None, :], ["g"], [{"record_id": "g"}])
    assert {r for r, _ in reader(settings).query("fact", unit(1), 10)} == {"a", "b", "c", "g"}


def test_a_long_running_writer_goes_on_after_another_process_reindexed(
    writer: mirrored.MirroredVectorIndex, settings: Settings
) -> None:
    reader(settings).reset("fact")  # `nemori reindex` while the MCP server runs
    writer.upsert("fact", ["g#0"], unit(0, 0, 1)[None, :], ["g"], [{"record_id": "g"}])
    assert [r for r, _ in writer.query("fact", unit(0, 0, 1), 10)] == ["g"]
    assert {r for r, _ in reader(settings).query("fact", unit(1), 10)} == {"g"}


def test_a_delete_waits_for_chroma_without_showing_the_record_anywhere(
    writer: mirrored.MirroredVectorIndex, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    deleter = reader(settings)  # like `nemori facts delete`: nothing else to do with Chroma
    deleter.delete("fact", ["a"])
    assert deleter._chroma is None
    assert "a" not in dict(reader(settings).query("fact", unit(1, 0), 10))
    monkeypatch.setattr(mirrored, "FLAT_MAX_ROWS", 0)  # every read goes through Chroma
    via_chroma = reader(settings)
    assert "a" in dict(via_chroma.chroma.query("fact", unit(1, 0), 10))  # still in Chroma...
    assert "a" not in dict(via_chroma.query("fact", unit(1, 0), 10))  # ...but never shown
    assert via_chroma.query_many("fact", unit(1, 0)[None, :], 10)[0][0][0] == "c"
    assert via_chroma.record_ids("fact") == {"b", "c"}
    assert via_chroma.count("fact") == 2 and set(via_chroma.documents("fact")) == {"b#0", "c#0"}
    next_writer = reader(settings)
    next_writer.upsert("fact", ["a#0"], unit(1, 0)[None, :], ["a is back"], [{"record_id": "a"}])
    assert next_writer.flat.pending("fact") == set()
    docs = next_writer.chroma.documents("fact")
    assert {d for d in docs if docs[d][1]["record_id"] == "a"} == {"a#0"}  # a#1 went for good


def test_a_long_running_writer_carries_out_deletes_another_process_left_waiting(
    writer: mirrored.MirroredVectorIndex, settings: Settings
) -> None:
    reader(settings).delete("fact", ["b"])  # a `nemori facts delete` while the server runs
    writer.upsert("fact", ["g#0"], unit(0, 0, 1)[None, :], ["g"], [{"record_id": "g"}])
    assert writer.flat.pending("fact") == set()
    assert "b" not in writer.chroma.record_ids("fact")


def test_many_rows_filters_and_many_documents_per_record_rank_like_a_full_sort(
    settings: Settings,
) -> None:
    rng = np.random.default_rng(5)
    n = 3000
    vectors = rng.normal(size=(n, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    metas = [{"record_id": f"r{i % 40}", "timestamp": float(i % 7)} for i in range(n)]
    writer = reader(settings)
    writer.upsert("episode", [f"r{i % 40}#{i}" for i in range(n)], vectors, ["d"] * n, metas)
    fresh = reader(settings)
    query = vectors[11]
    for k, where in ((3, None), (25, None), (40, None), (40, {"timestamp": {"$gte": 6.0}})):
        sims = vectors @ query
        best: dict[str, float] = {}
        for i in np.argsort(-sims, kind="stable"):
            if where and metas[i]["timestamp"] < 6.0:
                continue
            best.setdefault(metas[i]["record_id"], float(sims[i]))
        want = list(best.items())[:k]
        assert_same(fresh.query("episode", query, k, where), want)
    assert fresh._chroma is None


def test_a_long_line_cut_short_after_a_long_line_still_finds_the_next_row(
    settings: Settings,
) -> None:
    ix = reader(settings)
    long_meta = {"record_id": "a", "conversation_id": "c" * 600}
    ix.upsert("episode", ["a#0"], unit(1)[None, :], ["a"], [long_meta])
    log = settings.data_dir / "flat" / USER / "episode-1.log"
    with log.open("ab") as fh:  # a crash mid-line, the cut line nearly a read's worth long
        fh.write(b'["+", 1, "b#0", {"record_id": "b", "conversation_id": "' + b"x" * 3800)
    reader(settings).upsert("episode", ["c#0"], unit(0, 1)[None, :], ["c"], [{"record_id": "c"}])
    hits = reader(settings).query("episode", unit(0, 1), 5)
    assert [r for r, _ in hits][:1] == ["c"] and {r for r, _ in hits} == {"a", "c"}


def test_a_reader_that_keeps_searching_a_big_store_moves_to_chroma_once_it_has_loaded(
    writer: mirrored.MirroredVectorIndex, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    want = writer.query("fact", unit(1, 0), 10)
    monkeypatch.setattr(mirrored, "FLAT_EXACT_ROWS", 3)
    server = reader(settings)
    assert_same(server.query("fact", unit(1, 0), 10), want)
    assert server._chroma is None  # a one-shot search never starts Chroma
    asked: list[str] = []
    real = mirrored.MirroredVectorIndex.chroma.fget

    def slow_chroma(index: mirrored.MirroredVectorIndex) -> Any:
        asked.append(threading.current_thread().name)
        time.sleep(0.3)  # Chroma takes seconds to import and load a big index
        return real(index)

    monkeypatch.setattr(mirrored.MirroredVectorIndex, "chroma", property(slow_chroma))
    started = time.perf_counter()
    assert_same(server.query("fact", unit(1, 0), 10), want)  # the copy answers meanwhile
    assert time.perf_counter() - started < 0.25 and asked == ["nemori-hnsw-fact"]
    server.wait_for_hnsw()
    assert_same(server.query("fact", unit(1, 0), 10), want)  # now from Chroma's HNSW
    assert server._chroma is not None and asked[-1] == threading.current_thread().name
    monkeypatch.undo()
    small = reader(settings)
    for _ in range(3):
        assert_same(small.query("fact", unit(1, 0), 10), want)
    assert small._chroma is None
