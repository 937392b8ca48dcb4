"""Rebuild every index of a user from the JSONL files."""

from __future__ import annotations

from dataclasses import dataclass, field

from nemori_cli.indexing import index_records
from nemori_cli.models import KINDS
from nemori_cli.ops.heal import move_aside_damaged
from nemori_cli.parts import Parts


@dataclass(frozen=True)
class Reindexed:
    """How many records a reindex put back into the indexes."""

    episodes: int
    facts: int
    moved_aside: list[str] = field(default_factory=list)  # damaged stores, one line each

    def to_dict(self) -> dict[str, object]:
        return {"episodes": self.episodes, "facts": self.facts, "moved_aside": self.moved_aside}


class ReindexInterrupted(KeyboardInterrupt):
    """Ctrl-C during a reindex: the JSONL is as it was, the indexes are partly rebuilt."""

    def __init__(self) -> None:
        super().__init__(
            "interrupted: the JSONL files are unchanged, the indexes only partly rebuilt; run "
            "`nemori reindex` again (else the next command that reads them rebuilds them first)"
        )


def reindex(parts: Parts, user: str | None = None) -> Reindexed:
    """Rebuild the user's vector collections and BM25 indexes (damaged ones moved aside first).

    Ctrl-C raises ReindexInterrupted; the indexes stay marked for the next reader to repair.
    """
    try:
        return _rebuild(parts, user)
    except KeyboardInterrupt:
        raise ReindexInterrupted() from None


def _rebuild(parts: Parts, user: str | None) -> Reindexed:
    with parts.writing(user) as repo:
        moved = move_aside_damaged(parts, parts.user_id(user))
        episodes = list(repo.episodes.all().values())
        facts = list(repo.facts.all().values())
        vectors = parts.vectors(user)
        task = parts.progress.task("Indexing", total=len(episodes) + len(facts))
        for kd in KINDS:
            vectors.reset(kd)
        index_records(vectors, parts.embedder, "episode", episodes, advance=task.advance)
        index_records(vectors, parts.embedder, "fact", facts, advance=task.advance)
        for kd in KINDS:
            parts.rebuild_lexical(kd, user)
        task.close()
    return Reindexed(len(episodes), len(facts), moved)
