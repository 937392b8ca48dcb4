"""Hybrid retrieval: vector and BM25 candidates, fused by reciprocal rank."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from nemori_cli.models import Episode, Fact, Kind, SearchHit

RRF_K = 60


@dataclass(frozen=True)
class SearchFilters:
    """What a hit must satisfy besides matching the query."""

    kinds: tuple[Kind, ...] = ("episode", "fact")
    since: datetime | None = None
    until: datetime | None = None
    conversation_id: str | None = None
    category: str | None = None
    include_superseded: bool = False

    @property
    def narrowing(self) -> bool:
        """Whether filters beyond kind may drop candidates (so fetch more)."""
        return bool(self.since or self.until or self.conversation_id or self.category)

    def vector_where(self, kind: Kind) -> dict[str, Any] | None:
        """The Chroma `where` clause for the filters that metadata can express."""
        clauses: list[dict[str, Any]] = []
        if self.since:
            clauses.append({"timestamp": {"$gte": self.since.timestamp()}})
        if self.until:
            clauses.append({"timestamp": {"$lte": self.until.timestamp()}})
        if kind == "fact" and not self.include_superseded:
            clauses.append({"superseded": False})
        if kind == "fact" and self.category:
            clauses.append({"category": self.category})
        if kind == "episode" and self.conversation_id:
            clauses.append({"conversation_id": self.conversation_id})
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}


def rrf(rankings: Iterable[Sequence[str]], k: int = RRF_K) -> dict[str, float]:
    """Fuse ranked id lists: each id scores the sum of 1 / (k + rank) over the lists."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return scores


def fuse(
    candidates: dict[Kind, list[Sequence[str]]],
    limit: int,
    scaled: bool = True,
    weights: Mapping[Kind, float] | None = None,
    k: int = RRF_K,
) -> list[tuple[Kind, str, float]]:
    """Fuse every kind's candidate lists into one ranking of (kind, id, score), best first.

    A kind's RRF sum is scaled to two lists' worth, so a kind searched by a third list
    (episodes, by their turns) does not crowd the other out of the pool; unscaled, that
    kind leads. A kind's weight (1 when not given) multiplies its scores; a smaller k
    counts a list's first places more against places further down.
    """
    fused: list[tuple[Kind, str, float]] = []
    for kind, rankings in candidates.items():
        scale = 2 / max(1, len(rankings)) if scaled else 1.0
        scale *= (weights or {}).get(kind, 1.0)
        fused.extend((kind, rid, s * scale) for rid, s in rrf(rankings, k).items())
    fused.sort(key=lambda t: (-t[2], t[0], t[1]))
    return fused[:limit]


def accepts(record: Episode | Fact, filters: SearchFilters) -> bool:
    """Whether a record passes the filters (applied to lexical candidates, and as a re-check)."""
    if isinstance(record, Fact):
        if record.superseded_by and not filters.include_superseded:
            return False
        if filters.category and record.category != filters.category:
            return False
        when = record.valid_from
    else:
        if filters.conversation_id and record.conversation_id != filters.conversation_id:
            return False
        when = record.timestamp
    if filters.since or filters.until:
        if when is None:
            return False
        if filters.since and when < filters.since:
            return False
        if filters.until and when > filters.until:
            return False
    return True


def to_hit(
    kind: Kind, record: Episode | Fact, score: float, episode_of: Callable[[str], Episode | None]
) -> SearchHit:
    """Shape a record as a search hit (the search output contract)."""
    if isinstance(record, Episode):
        return SearchHit(
            kind="episode",
            id=record.id,
            score=score,
            title=record.title,
            content=record.content,
            timestamp=record.timestamp,
            conversation_id=record.conversation_id,
            message_ids=record.message_ids,
            episode_ids=(record.id,),
        )
    first = next((episode_of(e) for e in record.source_episode_ids), None)
    return SearchHit(
        kind="fact",
        id=record.id,
        score=score,
        content=record.dated_content,
        timestamp=record.valid_from,
        conversation_id=first.conversation_id if first else None,
        message_ids=record.source_message_ids,
        episode_ids=record.source_episode_ids,
        category=record.category,
    )
