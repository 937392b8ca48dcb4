"""The derived indexes: Chroma (embedded, and a real server when available) and bm25s."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import numpy as np
import pytest
from chroma_server import chroma_server_url  # noqa: F401  (the chroma_url fixture)
from fake_vectors import DIM, FakeEmbedder, unit

from nemori_cli.config import Settings
from nemori_cli.errors import EmbeddingMismatch, StoreError
from nemori_cli.store.chroma import ChromaVectorIndex
from nemori_cli.store.lexical import LexicalIndex
from nemori_cli.store.open_index import open_chroma, open_vector_index
from nemori_cli.store.vector_index import collection_name


def meta(record_id: str, **extra: object) -> dict:
    return {"record_id": record_id, **extra}


@pytest.fixture
def settings(data_dir: Path) -> Settings:
    return Settings(data_dir=data_dir)


@pytest.fixture
def index(settings: Settings) -> ChromaVectorIndex:
    ix = open_vector_index(settings, "alice@example.com", FakeEmbedder())
    ix.upsert(
        "fact",
        ["a#0", "a#1", "b#0", "c#0"],
        np.stack([unit(1, 0), unit(1, 0.2), unit(0, 1), unit(1, 1)]),
        ["a zero", "a one", "b", "c"],
        [
            meta("a", timestamp=100.0, conversation_id=None, category="experience"),
            meta("a", timestamp=100.0),
            meta("b", timestamp=200.0, superseded=False),
            meta("c", timestamp=300.0),
        ],
    )
    return ix


def test_query_returns_one_hit_per_record_with_cosine_similarity(
    index: ChromaVectorIndex,
) -> None:
    hits = index.query("fact", unit(1, 0), k=10)
    assert [rid for rid, _ in hits] == ["a", "c", "b"]
    scores = dict(hits)
    assert scores["a"] == pytest.approx(1.0, abs=1e-5)  # the best of a's two documents
    assert scores["c"] == pytest.approx(float(unit(1, 1) @ unit(1, 0)), abs=1e-5)
    assert scores["b"] == pytest.approx(0.0, abs=1e-5)
    assert index.query("fact", unit(1, 0), k=1) == hits[:1]


def test_query_fetches_more_documents_to_fill_k_records(settings: Settings) -> None:
    ix = open_vector_index(settings, "me", FakeEmbedder())
    n = 30  # one record with many documents nearer than the second record
    vectors = [unit(1, 0.01 * i) for i in range(n)] + [unit(0, 1)]
    ix.upsert(
        "episode",
        [f"big#{i}" for i in range(n)] + ["small#0"],
        np.stack(vectors),
        ["doc"] * (n + 1),
        [meta("big")] * n + [meta("small")],
    )
    assert [rid for rid, _ in ix.query("episode", unit(1, 0), k=2)] == ["big", "small"]


def test_where_filters_on_metadata(index: ChromaVectorIndex) -> None:
    recent = index.query("fact", unit(1, 0), k=10, where={"timestamp": {"$gte": 150.0}})
    assert [rid for rid, _ in recent] == ["c", "b"]
    both = {"timestamp": {"$lte": 250.0}, "superseded": False}
    assert [rid for rid, _ in index.query("fact", unit(1, 0), k=10, where=both)] == ["b"]
    window = {"timestamp": {"$gte": 150.0, "$lt": 250.0}}  # a time range on one field
    assert [rid for rid, _ in index.query("fact", unit(1, 0), k=10, where=window)] == ["b"]
    none = index.query("fact", unit(1, 0), k=10, where={"timestamp": {"$gt": 1e9}})
    assert none == []


def test_delete_removes_every_document_of_a_record(index: ChromaVectorIndex) -> None:
    assert index.record_ids("fact") == {"a", "b", "c"}
    assert index.count("fact") == 4
    index.delete("fact", ["a", "missing"])
    assert index.record_ids("fact") == {"b", "c"}
    assert index.count("fact") == 2
    assert "a" not in dict(index.query("fact", unit(1, 0), k=10))


def test_upsert_replaces_documents_with_the_same_id(index: ChromaVectorIndex) -> None:
    index.upsert("fact", ["b#0"], unit(1, 0)[None, :], ["b moved"], [meta("b")])
    assert index.count("fact") == 4
    assert dict(index.query("fact", unit(1, 0), k=10))["b"] == pytest.approx(1.0, abs=1e-5)


def test_empty_collection_and_kinds_are_separate(index: ChromaVectorIndex) -> None:
    assert index.query("episode", unit(1, 0), k=5) == []
    assert index.record_ids("episode") == set()
    assert index.count("episode") == 0


def test_data_persists_and_users_are_separate(index: ChromaVectorIndex, settings: Settings) -> None:
    again = open_vector_index(settings, "alice@example.com", FakeEmbedder())
    assert again.record_ids("fact") == {"a", "b", "c"}
    other = open_vector_index(settings, "bob", FakeEmbedder())
    assert other.query("fact", unit(1, 0), k=5) == []


def test_collection_names_are_valid_for_chroma() -> None:
    for user in ("me", "alice@example.com", "a", "x" * 128, "..a.."):
        name = collection_name(user, "episode")
        assert re.fullmatch(r"[a-zA-Z0-9][a-zA-Z0-9._-]{1,510}[a-zA-Z0-9]", name)
    assert collection_name("a", "fact") != collection_name("b", "fact")


def test_another_model_or_dimension_is_detected_and_reset_fixes_it(
    index: ChromaVectorIndex, settings: Settings
) -> None:
    other_model = open_vector_index(settings, "alice@example.com", FakeEmbedder("test:other"))
    with pytest.raises(EmbeddingMismatch, match=r"test:fake \(dim 8\).*test:other.*reindex"):
        other_model.query("fact", unit(1, 0), k=5)
    other_dim = open_vector_index(settings, "alice@example.com", FakeEmbedder(dim=4))
    with pytest.raises(EmbeddingMismatch, match=r"\(dim 8\); you use test:fake \(dim 4\)"):
        other_dim.upsert("fact", ["x#0"], np.ones((1, 4), np.float32), ["x"], [meta("x")])
    other_dim.reset("fact")
    assert other_dim.count("fact") == 0
    other_dim.upsert("fact", ["x#0"], np.ones((1, 4), np.float32), ["x"], [meta("x")])
    assert [rid for rid, _ in other_dim.query("fact", np.ones(4, np.float32), k=5)] == ["x"]


def test_large_upserts_are_batched(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    ix = open_chroma(settings, "me", FakeEmbedder())
    monkeypatch.setattr(ix, "_batch", 7)  # as if the client allowed only 7 per call
    n = 50
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(n, DIM)).astype(np.float32)
    ix.upsert("fact", [f"r{i}#0" for i in range(n)], vectors, ["d"] * n,
              [meta(f"r{i}") for i in range(n)])
    assert ix.count("fact") == n
    assert ix.query("fact", vectors[17], k=1)[0][0] == "r17"


def test_chroma_writes_nothing_to_stdout(
    settings: Settings, capfd: pytest.CaptureFixture[str]
) -> None:
    ix = open_vector_index(settings, "me", FakeEmbedder())
    ix.upsert("fact", ["a#0"], unit(1)[None, :], ["a"], [meta("a")])
    ix.query("fact", unit(1), k=50)
    ix.reset("fact")
    assert capfd.readouterr().out == ""


def test_a_server_that_is_down_is_a_store_error_naming_the_url(data_dir: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    with pytest.raises(StoreError, match=re.escape(f"Chroma server at {url}")):
        open_vector_index(Settings(data_dir=data_dir, chroma_url=url), "me", FakeEmbedder())


@pytest.mark.slow
def test_a_real_chroma_server_works_like_the_embedded_one(chroma_url: str, data_dir: Path) -> None:
    settings = Settings(data_dir=data_dir, chroma_url=chroma_url, chroma_token="secret")
    ix = open_vector_index(settings, "me", FakeEmbedder())
    ix.upsert("fact", ["a#0", "b#0"], np.stack([unit(1), unit(0, 1)]), ["a", "b"],
              [meta("a", timestamp=1.0), meta("b", timestamp=2.0)])
    assert [rid for rid, _ in ix.query("fact", unit(1), k=5)] == ["a", "b"]
    assert ix.query("fact", unit(1), k=5, where={"timestamp": {"$gt": 1.5}})[0][0] == "b"
    ix.delete("fact", ["a"])
    assert ix.record_ids("fact") == {"b"}
    assert not (data_dir / "chroma").exists()  # nothing embedded was opened


# --- bm25s --------------------------------------------------------------------------------

DOCS = {
    "hike": "I love hiking in the mountains every weekend",
    "market": "The stock market crashed on Monday",
    "pasta": "Cooking pasta with fresh tomatoes and basil",
    "empty": "",
}


@pytest.fixture
def lexical(data_dir: Path) -> LexicalIndex:
    ix = LexicalIndex(data_dir / "bm25" / "me" / "facts")
    ix.rebuild(list(DOCS), list(DOCS.values()))
    return ix


def test_bm25_finds_stemmed_words_best_first(lexical: LexicalIndex) -> None:
    hits = lexical.query("hikes in mountain", k=10)
    assert [doc for doc, _ in hits] == ["hike"]  # zero-score documents are left out
    assert hits[0][1] > 0
    two = lexical.query("pasta market", k=10)
    assert {doc for doc, _ in two} == {"pasta", "market"}
    assert two[0][1] >= two[1][1]
    assert len(lexical.query("pasta market", k=1)) == 1


def test_bm25_k_larger_than_the_corpus(lexical: LexicalIndex) -> None:
    assert [doc for doc, _ in lexical.query("tomatoes", k=1000)] == ["pasta"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("the and of", set()),  # stopwords only
        ("zebra", set()),  # unknown word
        ("", set()),
        ('"quoted" AND (hiking OR -pasta) title:x* ~2 ^3 \\', {"hike", "pasta"}),
        ("ünïcødé 中文 😀🏔️", set()),
        ("hiking " * 2000, {"hike"}),  # 14k characters
        ("\x00\n\t", set()),
    ],
)
def test_bm25_survives_odd_queries(lexical: LexicalIndex, query: str, expected: set) -> None:
    hits = lexical.query(query, k=5)
    assert all(score > 0 for _, score in hits)
    assert {doc for doc, _ in hits} == expected


def test_bm25_index_persists_across_instances(lexical: LexicalIndex, data_dir: Path) -> None:
    again = LexicalIndex(data_dir / "bm25" / "me" / "facts")
    assert again.doc_ids() == list(DOCS)
    assert again.query("basil", k=3)[0][0] == "pasta"
    assert [p.name for p in (data_dir / "bm25" / "me").iterdir()] == ["facts"]  # no leftovers


def test_bm25_instances_see_a_rebuild_made_elsewhere(lexical: LexicalIndex, data_dir: Path) -> None:
    assert lexical.query("basil", k=3)  # loaded and cached
    LexicalIndex(data_dir / "bm25" / "me" / "facts").rebuild(["new"], ["fresh basil pesto"])
    assert lexical.query("basil", k=3)[0][0] == "new"
    assert lexical.doc_ids() == ["new"]


def test_bm25_empty_corpus_removes_the_index(lexical: LexicalIndex) -> None:
    lexical.rebuild([], [])
    assert not lexical.folder.exists()
    assert lexical.query("pasta", k=5) == []
    assert lexical.doc_ids() == []
    lexical.rebuild(["a", "b"], ["the", "of and"])  # nothing indexable either
    assert lexical.query("the", k=5) == []
    assert LexicalIndex(Path("/nonexistent/bm25")).query("x", k=5) == []


def test_bm25_survives_an_interrupted_swap(lexical: LexicalIndex, data_dir: Path) -> None:
    folder = lexical.folder
    folder.rename(folder.with_name("facts.old"))  # crashed between the two renames
    fresh = LexicalIndex(folder)
    assert fresh.query("stock", k=2)[0][0] == "market"
    fresh.rebuild(["x"], ["stock split"])
    assert fresh.query("stock", k=2)[0][0] == "x"
    assert sorted(p.name for p in folder.parent.iterdir()) == ["facts"]


OTHER_PROCESS_WRITES = """
import sys
sys.path.insert(0, sys.argv[2])
import numpy as np
from fake_vectors import FakeEmbedder, unit
from nemori_cli.config import Settings
from nemori_cli.store.open_index import open_chroma
from pathlib import Path
ix = open_chroma(Settings(data_dir=Path(sys.argv[1])), "alice@example.com", FakeEmbedder())
ix.upsert("fact", ["x#0", "y#0"], np.stack([unit(1), unit(0, 1)]), ["x", "y"],
          [{"record_id": "x"}, {"record_id": "y"}])
"""


def test_a_collection_read_while_empty_is_read_again_after_another_process_wrote_to_it(
    settings: Settings,
) -> None:
    import subprocess
    import sys

    here = open_chroma(settings, "alice@example.com", FakeEmbedder())
    assert here.query("fact", unit(1), 5) == []  # this client has seen the collection empty
    subprocess.run(  # an ingest in another process (it held the user's lock; now it is done)
        [sys.executable, "-c", OTHER_PROCESS_WRITES, str(settings.data_dir),
         str(Path(__file__).parent)],
        check=True,
    )
    assert [r for r, _ in here.query("fact", unit(1), 5)] == ["x", "y"]
    here.upsert("fact", ["z#0"], unit(1, 1)[None, :], ["z"], [{"record_id": "z"}])
    assert here.count("fact") == 3


def test_a_store_another_process_is_creating_at_the_same_instant_opens_once_it_is_made(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    import chromadb
    from chromadb.errors import InternalError

    real, calls = chromadb.PersistentClient, []

    def racing(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 1:  # what chromadb says when the other process made the tables first
            raise InternalError("error returned from database: (code: 1) table collections "
                                "already exists")
        return real(*args, **kwargs)

    monkeypatch.setattr(chromadb, "PersistentClient", racing)
    ix = open_chroma(settings, "alice@example.com", FakeEmbedder())  # not a BrokenIndex
    ix.upsert("fact", ["a#0"], unit(1)[None, :], ["a"], [{"record_id": "a"}])
    assert [r for r, _ in ix.query("fact", unit(1), 5)] == ["a"] and len(calls) == 2
