"""Turn episodes and facts into what the vector and lexical indexes hold, and index them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nemori_cli.embed import Embedder
from nemori_cli.models import Episode, Fact, Kind
from nemori_cli.native_memory import release_free_memory
from nemori_cli.pipeline.episodes import message_cap
from nemori_cli.pipeline.facts import is_human
from nemori_cli.pipeline.passages import flat_text, passage_id, tail_passages, user_turn_ids
from nemori_cli.pipeline.segment import embed_text
from nemori_cli.store.vector_index import VectorIndex

if TYPE_CHECKING:
    import numpy as np

EmbedFn = Callable[[Sequence[str]], "np.ndarray"]

WINDOW_MESSAGES = 4  # messages per vector document of an episode
TURN_SEP = "#t"  # a turn document's id: <episode id>#t<message index>[ANSWER_MARK]
ANSWER_MARK = "a"  # ends the id of a turn the assistant (or a tool) wrote
SHORT_NARRATIVE_CHARS = 1200  # narratives up to this length join the title in #0's text
EPISODE_BATCH = 256  # episodes embedded and upserted together
FACT_BATCH = 1024  # facts embedded and upserted together


@dataclass(frozen=True)
class VectorDocs:
    """Documents ready for VectorIndex.upsert."""

    ids: list[str]
    vectors: Any  # np.ndarray (n, dim)
    documents: list[str]
    metadatas: list[dict[str, Any]]


def fact_text(fact: Fact) -> str:
    """The text a fact is embedded and indexed by: its statement with its time, as shown."""
    return fact.dated_content


def lexical_text(record: Episode | Fact) -> str:
    """The text BM25 sees for a record."""
    if isinstance(record, Episode):
        return "\n".join([record.title, record.content, *cut_words(record)])
    return fact_text(record)


def turn_docs(ep: Episode) -> list[tuple[str, str]]:
    """The turn index's documents of an episode: (id, text) of each message with words; the
    id of an assistant's turn ends in ANSWER_MARK, so search can weigh it below a person's.

    BM25 over a whole episode dilutes a turn's rare words by the rest of the episode;
    scored alone, the turn that holds them ranks its episode where a raw-turn search would.
    """
    return [(f"{ep.id}{TURN_SEP}{i}{'' if is_human(m) else ANSWER_MARK}", m.content)
            for i, m in enumerate(ep.messages) if m.content.strip()]


def is_answer_turn(doc_id: str) -> bool:
    """Whether a turn document is the assistant's (or a tool's), not a person's."""
    return doc_id.endswith(ANSWER_MARK)


def turn_episode(doc_id: str) -> str:
    """The episode id of a turn document."""
    return doc_id.rsplit(TURN_SEP, 1)[0]


def cut_words(ep: Episode) -> list[str]:
    """What the narrative leaves out of each long message, so BM25 sees every word."""
    out = []
    for m in ep.messages:
        words = m.content.split()
        cap = message_cap(m)
        if len(words) > cap:
            out.append(" ".join(words[cap:]))
    return out


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


@dataclass(frozen=True)
class EpisodeTexts:
    """An episode batch's vector documents before embedding: ids, texts, metadata, and what
    each document's vector is made of (its own text, or the mean of its messages' vectors)."""

    ids: list[str]
    documents: list[str]
    metadatas: list[dict[str, Any]]
    parts: list[list[str]]  # texts whose vectors make each document's vector


def own_parts(ep: Episode, whole: str, openings: Sequence[str]) -> list[str]:
    """The texts whose mean vector is an episode's own document (#0), whose text is whole.

    An offline narrative repeats the messages: the title and the messages' openings, which
    the windows embed already, stand for it (one short text to embed, and an episode-wide
    vector that measured better than the narrative's). A narrative an LLM wrote is embedded
    with its title.
    """
    if ep.extraction.get("rewritten") or not openings:
        return [whole]
    title = ep.title.strip()
    return [title, *openings] if title else list(openings)


def episode_texts(episodes: Sequence[Episode]) -> EpisodeTexts:
    """Lay out the vector documents of episodes: title (or short narrative), windows, passages,
    and in a chat with an assistant each user turn.

    A window's vector is the mean of its messages' openings' vectors, which segmentation has
    already computed; the rest of a long message is embedded as passages of its own. The
    episode's own document holds its title and short narrative; see own_parts for its vector.
    """
    ids: list[str] = []
    docs: list[str] = []
    metas: list[dict[str, Any]] = []
    parts: list[list[str]] = []
    for ep in episodes:
        meta = episode_metadata(ep)
        whole = ep.content if len(ep.content) <= SHORT_NARRATIVE_CHARS else ""
        whole = f"{ep.title}\n{whole}".strip()
        ids.append(f"{ep.id}#0")
        docs.append(whole)
        metas.append(meta)
        # the text segmentation embeds a message as, so each is embedded once per run
        spoken = [m for m in ep.messages if embed_text(m)]
        texts = [embed_text(m) for m in spoken]
        parts.append(own_parts(ep, whole, texts))
        for i, m in enumerate(spoken):
            for j, passage in enumerate(tail_passages(flat_text(m))):
                ids.append(passage_id(ep.id, i, j))
                docs.append(passage)
                metas.append(meta)
                parts.append([passage])
        for i, doc_id in user_turn_ids(ep.id, spoken).items():  # its opening's vector, reused
            ids.append(doc_id)
            docs.append(texts[i])
            metas.append(meta)
            parts.append([texts[i]])
        for n, start in enumerate(range(0, len(texts), WINDOW_MESSAGES), start=1):
            chunk = texts[start : start + WINDOW_MESSAGES]
            ids.append(f"{ep.id}#{n}")
            docs.append("\n".join(chunk))
            metas.append(meta)
            parts.append(chunk)
    return EpisodeTexts(ids, docs, metas, parts)


def episode_docs(episodes: Sequence[Episode], embed: EmbedFn) -> VectorDocs:
    """Build and embed the vector documents of episodes (see episode_texts)."""
    import numpy as np

    laid = episode_texts(episodes)
    all_texts = list(dict.fromkeys(t for p in laid.parts for t in p))
    if not all_texts:
        return VectorDocs([], np.zeros((0, 0), dtype=np.float32), [], [])
    matrix = embed(all_texts)
    row = {t: i for i, t in enumerate(all_texts)}
    vectors = np.empty((len(laid.ids), matrix.shape[1]), dtype=np.float32)
    for i, texts in enumerate(laid.parts):
        if len(texts) == 1:
            vectors[i] = matrix[row[texts[0]]]
        else:
            mean = matrix[[row[t] for t in texts]].mean(axis=0)
            vectors[i] = mean / max(float(np.linalg.norm(mean)), 1e-12)
    return VectorDocs(laid.ids, vectors, laid.documents, laid.metadatas)


def fact_docs(facts: Sequence[Fact], vectors: Any) -> VectorDocs:
    """Build one vector document per fact from vectors already computed."""
    return VectorDocs(
        [f.id for f in facts],
        vectors,
        [fact_text(f) for f in facts],
        [fact_metadata(f) for f in facts],
    )


def index_records(
    vectors: VectorIndex,
    embedder: Embedder,
    kind: Kind,
    records: Sequence[Episode] | Sequence[Fact],
    *,
    advance: Callable[[int], None] | None = None,
) -> None:
    """Embed records in batches and upsert their documents into the vector index."""
    step = EPISODE_BATCH if kind == "episode" else FACT_BATCH
    for start in range(0, len(records), step):
        chunk = records[start : start + step]
        if kind == "episode":
            docs = episode_docs(chunk, embedder.embed)  # type: ignore[arg-type]
        else:
            docs = fact_docs(chunk, embedder.embed([fact_text(r) for r in chunk]))  # type: ignore[arg-type]
        vectors.upsert(kind, docs.ids, docs.vectors, docs.documents, docs.metadatas)
        release_free_memory()
        if advance is not None:
            advance(len(chunk))
