"""The embedders: the real local ONNX model, the cache, and litellm through a local server."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from nemori_cli.config import load_settings
from nemori_cli.embed import (
    LOCAL_MODEL_ID,
    CachedEmbedder,
    EmbeddingError,
    LiteLLMEmbedder,
    LocalEmbedder,
    make_embedder,
)
from nemori_cli.store.chroma_ef import chroma_embedding_function


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    return LocalEmbedder()


def test_similar_sentences_score_higher_than_unrelated(local: LocalEmbedder) -> None:
    v = local.embed(
        [
            "I love hiking in the mountains on weekends.",
            "Trekking up mountain trails is my favourite hobby.",
            "The quarterly tax report is due on Friday.",
        ]
    )
    assert v[0] @ v[1] > 0.5
    assert v[0] @ v[1] > v[0] @ v[2] + 0.3


def test_output_is_normalised_float32_with_384_columns(local: LocalEmbedder) -> None:
    v = local.embed(["one", "two words", ""])
    assert v.shape == (3, 384)
    assert v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)


def test_a_text_gets_the_same_vector_whatever_it_is_embedded_with(local: LocalEmbedder) -> None:
    texts = [
        "a much longer sentence about hiking in the alps with my friends last summer",
        "short",
        "mid length text about cooking",
        "word " * 400,  # truncated at 256 tokens
        "another one",
        "the end",
    ]
    spread = LocalEmbedder(threads=2).embed(texts)  # over two threads, longest first
    single = np.vstack([local.embed([t]) for t in texts])
    assert np.array_equal(spread, single)
    assert np.array_equal(LocalEmbedder(threads=3).embed(texts[::-1]), single[::-1])
    # and the rows really differ, so a shuffled order would have been caught
    assert spread[1] @ spread[0] < 0.9


def test_the_fast_graph_stays_close_to_the_model_as_shipped(local: LocalEmbedder) -> None:
    pairs = [  # each text and its paraphrase
        ("How was the trip to the mountains?", "We hiked up to a lake high in the Alps."),
        ("My sister starts a new job as a nurse.", "She was hired by the hospital to nurse."),
        ("Can you recommend a vegetarian restaurant?", "Where can I eat meat-free food?"),
        ("I adopted a rescue dog named Biscuit.", "Biscuit, my new shelter puppy, came home."),
    ]
    texts = [t for pair in pairs for t in pair]
    fast = local.embed(texts)
    shipped = LocalEmbedder(shipped=True).embed(texts)
    assert ((fast * shipped).sum(axis=1) > 0.97).all()
    # under both graphs, each text's nearest other text is its paraphrase
    partners = [i ^ 1 for i in range(len(texts))]
    for v in (fast, shipped):
        assert list(np.argmax(v @ v.T - 2 * np.eye(len(v)), axis=1)) == partners
    assert not np.array_equal(fast, shipped)  # the fast graph is what ran


def test_without_onnx_the_local_model_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "onnxruntime.quantization", None)
    with pytest.raises(EmbeddingError, match="pip install onnx"):
        LocalEmbedder(cache_dir=tmp_path / "fresh").embed(["hello"])


def test_empty_input_gives_empty_matrix(local: LocalEmbedder) -> None:
    assert local.embed([]).shape == (0, 384)
    assert CachedEmbedder(local).embed([]).shape == (0, 384)


def test_model_with_wrong_checksum_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    with pytest.raises(EmbeddingError, match=r"model\.onnx.*damaged or not the expected"):
        LocalEmbedder(model_path=fake).embed(["hello"])


def test_tokenizer_with_wrong_checksum_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "tokenizer.json"
    fake.write_text("{}")
    with pytest.raises(EmbeddingError, match="tokenizer"):
        LocalEmbedder(tokenizer_path=fake).embed(["hello"])


class CountingEmbedder:
    model_id = "test:counting"
    dim = 3

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.seen.extend(texts)
        return np.array([[len(t), 1.0, 0.0] for t in texts], dtype=np.float32)


def test_cache_embeds_each_text_once() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner)
    first = cached.embed(["a", "bb", "a"])
    second = cached.embed(["bb", "ccc", "a"])
    assert sorted(inner.seen) == ["a", "bb", "ccc"]
    assert first[0].tolist() == first[2].tolist() == second[2].tolist()
    assert second[1][0] == 3.0
    assert cached.model_id == "test:counting" and cached.dim == 3


def test_a_prefetched_text_is_embedded_once_on_its_own_thread() -> None:
    class Gated(CountingEmbedder):
        def __init__(self) -> None:
            super().__init__()
            self.threads: list[str] = []
            self.go = threading.Event()

        def embed(self, texts: Sequence[str]) -> np.ndarray:
            self.threads.append(threading.current_thread().name)
            self.go.wait(5)
            return super().embed(texts)

    inner = Gated()
    cached = CachedEmbedder(inner)
    cached.prefetch(["hiking", "hiking"])
    cached.prefetch(["hiking"])  # already on its way: not sent again
    assert inner.seen == []  # still waiting, and prefetch() did not block
    inner.go.set()
    got = cached.embed(["hiking", "alps"])
    assert inner.seen == ["hiking", "alps"]
    assert inner.threads[0] != threading.current_thread().name  # the prefetch ran elsewhere
    assert got[:, 0].tolist() == [6.0, 4.0]


def test_a_search_prefetches_its_query_only_when_there_is_something_to_search(
    data_dir: Path,
) -> None:
    from nemori_cli.memory import Memory

    inner = CountingEmbedder()
    memory = Memory.open(data_dir=data_dir, embedder=CachedEmbedder(inner))
    memory.parts.prefetch_query("hiking")  # nothing stored yet: no model is loaded for it
    assert memory.search("hiking") == [] and inner.seen == []


def test_make_embedder_defaults_to_the_local_model() -> None:
    embedder = make_embedder(load_settings())
    assert embedder.model_id == LOCAL_MODEL_ID
    assert embedder.dim == 384
    remote = make_embedder(load_settings({"embed_model": "openai/text-embedding-3-small"}))
    assert remote.model_id == "litellm:openai/text-embedding-3-small"


@pytest.mark.parametrize("name", ["local", LOCAL_MODEL_ID, "All-MiniLM-L6-v2", " local "])
def test_every_name_of_the_local_model_gives_the_local_model(name: str) -> None:
    assert make_embedder(load_settings({"embed_model": name})).model_id == LOCAL_MODEL_ID


def test_chroma_embedding_function_wraps_the_embedder() -> None:
    ef = chroma_embedding_function(CountingEmbedder())
    assert ef.name() == "nemori"
    assert not ef.is_legacy()
    out = ef(["ab", "c"])
    assert [list(map(float, row)) for row in out] == [[2.0, 1.0, 0.0], [1.0, 1.0, 0.0]]


class _EmbeddingsHandler(BaseHTTPRequestHandler):
    """An OpenAI-compatible /embeddings endpoint: vector = (len(text), index-free, 1)."""

    calls: list[list[str]] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server naming)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        type(self).calls.append(texts)
        data = []
        for i, text in enumerate(texts):
            vector = np.array([len(text), 3.0, 4.0], dtype=np.float32)
            if body.get("encoding_format") == "base64":
                emb: object = base64.b64encode(vector.tobytes()).decode()
            else:
                emb = vector.tolist()
            data.append({"object": "embedding", "index": i, "embedding": emb})
        data.reverse()  # the client must order by "index", not by position
        payload = json.dumps(
            {"object": "list", "data": data, "model": body["model"],
             "usage": {"prompt_tokens": 1, "total_tokens": 1}}
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def embeddings_server() -> Iterator[str]:
    _EmbeddingsHandler.calls = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EmbeddingsHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_litellm_embedder_batches_orders_and_normalises(embeddings_server: str) -> None:
    embedder = LiteLLMEmbedder(
        "openai/fake-embed", api_base=embeddings_server, api_key="x", batch_size=2, retries=0
    )
    v = embedder.embed(["abc", "", "abcdefghijkl"])
    assert [len(c) for c in _EmbeddingsHandler.calls] == [2, 1]
    assert v.shape == (3, 3) and embedder.dim == 3
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-6)
    assert np.allclose(v[0], np.array([3, 3, 4]) / np.sqrt(34), atol=1e-6)
    assert v[2][0] > v[0][0]  # row order follows the input, not the response


def test_litellm_embedder_reports_an_unreachable_server() -> None:
    embedder = LiteLLMEmbedder(
        "openai/fake-embed", api_base="http://127.0.0.1:9/v1", api_key="x", retries=0, timeout=5
    )
    with pytest.raises(EmbeddingError, match="openai/fake-embed failed"):
        embedder.embed(["hello"])


def test_cache_size_is_bounded() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, max_items=2)
    assert cached.embed(["a", "bb", "ccc"]).shape == (3, 3)
    cached.embed(["ccc"])
    assert inner.seen == ["a", "bb", "ccc"]  # the newest stayed cached
    cached.embed(["a"])
    assert inner.seen == ["a", "bb", "ccc", "a"]  # the oldest was forgotten
