"""Chroma's view of a nemori embedder, so Chroma never builds its default embedding function."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from nemori_cli.embed import EmbeddingError

if TYPE_CHECKING:
    from nemori_cli.embed import Embedder


def chroma_embedding_function(embedder: Embedder) -> Any:
    """Wrap an embedder as a Chroma EmbeddingFunction (so Chroma never builds its default)."""
    return chroma_ef_class()(embedder)


@functools.cache
def chroma_ef_class() -> type:
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
    from chromadb.utils.embedding_functions import register_embedding_function

    class NemoriEmbeddingFunction(EmbeddingFunction[Documents]):
        """Chroma's view of a nemori embedder; the model is checked by nemori, not Chroma."""

        def __init__(self, embedder: Embedder | None, config: dict[str, Any] | None = None):
            self._embedder = embedder
            self._config = config or {
                "model_id": embedder.model_id if embedder else None,
            }

        def __call__(self, input: Documents) -> Embeddings:
            if self._embedder is None:
                raise EmbeddingError(
                    f"no nemori embedder attached for {self._config.get('model_id')}"
                )
            return list(self._embedder.embed(list(input)))

        @staticmethod
        def name() -> str:
            return "nemori"

        def default_space(self) -> Any:
            return "cosine"

        def supported_spaces(self) -> Any:
            return ["cosine"]

        def get_config(self) -> dict[str, Any]:
            return dict(self._config)

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> NemoriEmbeddingFunction:
            return NemoriEmbeddingFunction(None, config)

    register_embedding_function(NemoriEmbeddingFunction)
    return NemoriEmbeddingFunction
