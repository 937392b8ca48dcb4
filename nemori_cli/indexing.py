"""Turn episodes and facts into the documents that the vector and lexical indexes hold."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nemori_cli.models import Episode, Fact
from nemori_cli.pipeline.segment import embed_text

if TYPE_CHECKING:
    import numpy as np

EmbedFn = Callable[[Sequence[str]], "np.ndarray"]

WINDOW_MESSAGES = 4  # messages per vector document of an episode
SHORT_NARRATIVE_CHARS = 1200  # narratives up to this length are embedded whole


@dataclass(frozen=True)
class VectorDocs:
    """Documents ready for VectorIndex.upsert."""

    ids: list[str]
    vectors: Any  # np.ndarray (n, dim)
    documents: list[str]
    metadatas: list[dict[str, Any]]


def lexical_text(record: Episode | Fact) -> str:
    """The text BM25 sees for a record."""
    if isinstance(record, Episode):
        return f"{record.title}\n{record.content}"
    return record.content




def episode_metadata(ep: Episode) -> dict[str, Any]:
    """Filterable metadata for an episode's vector documents."""
    meta: dict[str, Any] = {"record_id": ep.id, "conversation_id": ep.conversation_id}
    if ep.timestamp is not None:
        meta["timestamp"] = ep.timestamp.timestamp()
    return meta


def fact_metadata(fact: Fact) -> dict[str, Any]:
    """Filterable metadata for a fact's vector document."""
    meta: dict[str, Any] = {
        "record_id": fact.id,
        "category": fact.category,
        "superseded": fact.superseded_by is not None,
    }
    if fact.valid_from is not None:
        meta["timestamp"] = fact.valid_from.timestamp()
    return meta


def episode_docs(episodes: Sequence[Episode], embed: EmbedFn) -> VectorDocs:
    """Build an episode's vector documents: its title (or short narrative) and message windows.

    A window's vector is the mean of its messages' vectors, which segmentation has already
    computed, so long episodes cost no extra embedding time.
    """
    import numpy as np

    ids: list[str] = []
    docs: list[str] = []
    metas: list[dict[str, Any]] = []
    whole_texts: list[str] = []
    windows: list[list[str]] = []  # message texts per window; [] for a whole-text document
    for ep in episodes:
        meta = episode_metadata(ep)
        whole = ep.content if len(ep.content) <= SHORT_NARRATIVE_CHARS else ""
        whole = f"{ep.title}\n{whole}".strip()
        ids.append(f"{ep.id}#0")
        docs.append(whole)
        metas.append(meta)
        whole_texts.append(whole)
        windows.append([])
        # the text segmentation embeds a message as, so each is embedded once per run
        texts = [t for t in (embed_text(m) for m in ep.messages) if t]
        for n, start in enumerate(range(0, len(texts), WINDOW_MESSAGES), start=1):
            chunk = texts[start : start + WINDOW_MESSAGES]
            ids.append(f"{ep.id}#{n}")
            docs.append("\n".join(chunk))
            metas.append(meta)
            windows.append(chunk)
    all_texts = list(dict.fromkeys([*whole_texts, *(t for w in windows for t in w)]))
    if not all_texts:
        return VectorDocs([], np.zeros((0, 0), dtype=np.float32), [], [])
    matrix = embed(all_texts)
    row = {t: i for i, t in enumerate(all_texts)}
    vectors = np.empty((len(ids), matrix.shape[1]), dtype=np.float32)
    wi = 0
    for i, window in enumerate(windows):
        if not window:
            vectors[i] = matrix[row[whole_texts[wi]]]
            wi += 1
        else:
            mean = matrix[[row[t] for t in window]].mean(axis=0)
            vectors[i] = mean / max(float(np.linalg.norm(mean)), 1e-12)
    return VectorDocs(ids, vectors, docs, metas)


def fact_docs(facts: Sequence[Fact], vectors: Any) -> VectorDocs:
    """Build one vector document per fact from vectors already computed."""
    return VectorDocs(
        [f.id for f in facts],
        vectors,
        [f.content for f in facts],
        [fact_metadata(f) for f in facts],
    )
