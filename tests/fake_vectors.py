"""Stand-ins for vector index tests: an embedder that is only a model's identity, unit vectors."""

from __future__ import annotations

import numpy as np

DIM = 8


class FakeEmbedder:
    """Only the identity of a model: the index is always handed the vectors."""

    def __init__(self, model_id: str = "test:fake", dim: int = DIM) -> None:
        self.model_id, self.dim = model_id, dim

    def embed(self, texts: object) -> np.ndarray:
        raise AssertionError("the index must not embed by itself")


def unit(*values: float) -> np.ndarray:
    """A unit vector of DIM floats starting with these values."""
    v = np.zeros(DIM, dtype=np.float32)
    v[: len(values)] = values
    return v / np.linalg.norm(v)
