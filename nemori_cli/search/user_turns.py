"""Episodes ranked by their best user turn's vector: for advice, what the user said of themself
counts, not the long answers round it (see hybrid.py's ADVICE_ANSWER_SIM)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from nemori_cli.models import Episode
from nemori_cli.search.turns import spoken

if TYPE_CHECKING:
    from nemori_cli.store.vector_index import VectorIndex


def user_turn_order(
    episodes: Mapping[str, Episode], ids: Sequence[str], qvec: Any, vectors: VectorIndex
) -> list[str]:
    """The episodes that have user turns (a chat with an assistant), best user turn first."""
    import numpy as np

    docs = {d: rid for rid in ids for d in spoken(rid, episodes[rid].messages).user_turns.values()}
    if not docs:
        return []
    stored = vectors.embeddings("episode", list(docs))
    if not stored:
        return []
    doc_ids = list(stored)
    sims = np.asarray([stored[d] for d in doc_ids], dtype=np.float32) @ np.asarray(
        qvec, dtype=np.float32
    )
    best: dict[str, float] = {}
    for d, s in zip(doc_ids, sims.tolist(), strict=True):
        rid = docs[d]
        best[rid] = max(best.get(rid, -1.0), s)
    return sorted(best, key=lambda r: (-best[r], r))
