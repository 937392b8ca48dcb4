"""Rebuild every index of a user from the JSONL files."""

from __future__ import annotations

from dataclasses import dataclass

from nemori_cli.indexing import index_records
from nemori_cli.models import KINDS
from nemori_cli.parts import Parts


@dataclass(frozen=True)
class Reindexed:
    """How many records a reindex put back into the indexes."""

    episodes: int
    facts: int

    def to_dict(self) -> dict[str, int]:
        return {"episodes": self.episodes, "facts": self.facts}


def reindex(parts: Parts, user: str | None = None) -> Reindexed:
    """Drop the user's vector collections and rebuild them and the BM25 indexes."""
    with parts.writing(user) as repo:
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
    return Reindexed(len(episodes), len(facts))
