"""Embeddings from any provider litellm reaches (OpenAI, Ollama, vLLM, ...), in batches."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from nemori_cli.errors import EmbeddingError

if TYPE_CHECKING:
    import numpy as np


class LiteLLMEmbedder:
    """An embedding model reached through litellm (hosted or an OpenAI-compatible server)."""

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        batch_size: int = 128,
        timeout: float = 120.0,
        retries: int = 2,
    ) -> None:
        self.model = model
        self.model_id = f"litellm:{model}"
        self._api_base = api_base
        self._api_key = api_key
        self._batch_size = batch_size
        self._timeout = timeout
        self._retries = retries
        self._dim: int | None = None

    @property
    def dim(self) -> int:
        """The model's vector size (asks the model once when not known yet)."""
        if self._dim is None:
            self.embed(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed the texts in batches through litellm; rows normalised, in order."""
        import numpy as np

        texts = list(texts)
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        rows: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            rows.extend(self._call(texts[start : start + self._batch_size]))
        matrix = np.asarray(rows, dtype=np.float32)
        matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
        if self._dim is not None and matrix.shape[1] != self._dim:
            raise EmbeddingError(
                f"embedding model {self.model} changed its vector size "
                f"from {self._dim} to {matrix.shape[1]}"
            )
        self._dim = int(matrix.shape[1])
        return matrix

    def _call(self, batch: list[str]) -> list[list[float]]:
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        import litellm

        # Some providers reject empty strings; a single space embeds as "nothing".
        batch = [t if t.strip() else " " for t in batch]
        try:
            response = litellm.embedding(
                model=self.model,
                input=batch,
                api_base=self._api_base,
                api_key=self._api_key,
                timeout=self._timeout,
                num_retries=self._retries,
            )
        except Exception as exc:  # litellm raises many provider-specific types
            first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            raise EmbeddingError(
                f"embedding model {self.model} failed: {type(exc).__name__}: {first_line[:300]}"
            ) from None
        data = sorted(response.data, key=lambda d: field_of(d, "index"))
        if len(data) != len(batch):
            raise EmbeddingError(
                f"embedding model {self.model} returned {len(data)} vectors for {len(batch)} texts"
            )
        return [list(field_of(d, "embedding")) for d in data]


def field_of(item: Any, name: str) -> Any:
    return item[name] if isinstance(item, dict) else getattr(item, name)
