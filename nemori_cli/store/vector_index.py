"""The vector-index protocol: nearest-neighbour search over one user's episodes and facts."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np


class VectorIndex(Protocol):
    """Nearest-neighbour search over one user's episodes and facts (cosine similarity)."""

    def upsert(
        self,
        kind: str,
        doc_ids: Sequence[str],
        embeddings: np.ndarray,
        documents: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
    ) -> None: ...

    def query(
        self, kind: str, embedding: np.ndarray, k: int, where: dict[str, Any] | None = None
    ) -> list[tuple[str, float]]: ...

    def query_many(
        self, kind: str, embeddings: np.ndarray, k: int, where: dict[str, Any] | None = None
    ) -> list[list[tuple[str, float]]]: ...

    def delete(self, kind: str, record_ids: Collection[str]) -> None: ...
    def embeddings(self, kind: str, doc_ids: Sequence[str]) -> dict[str, np.ndarray]: ...

    def record_ids(self, kind: str) -> set[str]: ...

    def documents(self, kind: str) -> dict[str, tuple[str, dict[str, Any]]]:
        """Every document of a kind: doc id -> (text_digest of its text, metadata)."""
        ...

    def built_with(self, kind: str) -> tuple[str | None, int | None]: ...

    def count(self, kind: str) -> int: ...

    def reset(self, kind: str) -> None: ...

    def drop(self) -> None: ...

    def copy_problem(self, kind: str, chroma_doc_ids: Collection[str]) -> str | None: ...

    def rebuild_copy(self, kind: str) -> None: ...

    def settle(self) -> None: ...

    def damaged(self) -> list[tuple[Path, str]]: ...

    def copy_damage(self, kind: str) -> str | None: ...

    def sample_problem(self, kind: str, size: int = 64) -> str | None: ...


def collection_name(user_id: str, kind: str) -> str:
    """Chroma collection name for a user and kind (Chroma allows only [a-zA-Z0-9._-])."""
    digest = hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:24]
    return f"nemori-{digest}-{kind}"


def text_digest(text: str) -> str:
    """What an index keeps of a document's text: enough for doctor to see that it changed."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


def record_of(doc_id: str) -> str:
    """The record a vector document belongs to: ids are "<record id>" or "<record id>#<n>"."""
    return doc_id.rsplit("#", 1)[0]
