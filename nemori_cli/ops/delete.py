"""Delete facts, episodes or a whole user from the JSONL files and every index."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from nemori_cli.errors import NotFound
from nemori_cli.indexing import index_records, turn_docs
from nemori_cli.models import Fact
from nemori_cli.parts import Parts
from nemori_cli.store.users import delete_user_files, list_users


@dataclass(frozen=True)
class Deleted:
    """What a delete removed: episode ids and fact ids."""

    episodes: list[str]
    facts: list[str]

    def to_dict(self) -> dict[str, list[str]]:
        return {"episodes": self.episodes, "facts": self.facts}


def delete_facts(parts: Parts, ids: Sequence[str], user: str | None = None) -> list[str]:
    """Delete facts from the JSONL and both indexes; return the ids deleted.

    Facts that a deleted one had superseded become current again.
    """
    facts = parts.repo(user).facts.lookup()
    missing = [i for i in ids if i not in facts]
    if missing:
        raise NotFound(f"no fact {missing[0]!r} for user {parts.user_id(user)!r}")
    with parts.writing(user) as repo:
        gone = set(ids)
        revived = [
            replace(f, superseded_by=None)
            for f in repo.facts.mentioning(gone)  # parses only lines naming a deleted id
            if f.superseded_by in gone and f.id not in gone
        ]
        repo.facts.delete(gone)
        repo.facts.upsert(revived)
        parts.vectors(user).delete("fact", gone)
        index_records(parts.vectors(user), parts.embedder, "fact", revived)
        # revived facts keep their text: masking the deleted ones is enough for BM25
        if not parts.lexical("fact", user).delete(sorted(gone)):
            parts.rebuild_lexical("fact", user)
    return list(ids)


def delete_episodes(parts: Parts, ids: Sequence[str], user: str | None = None) -> Deleted:
    """Delete episodes, and the facts that only they support, from all three stores."""
    episodes = parts.repo(user).episodes.all()
    missing = [i for i in ids if i not in episodes]
    if missing:
        raise NotFound(f"no episode {missing[0]!r} for user {parts.user_id(user)!r}")
    gone = set(ids)
    orphan: list[str] = []
    trimmed: list[Fact] = []
    for f in parts.repo(user).facts.all().values():
        rest = tuple(e for e in f.source_episode_ids if e not in gone)
        if not rest:
            orphan.append(f.id)
        elif len(rest) < len(f.source_episode_ids):
            dropped = {m for e in gone for m in episodes[e].message_ids}
            keep = tuple(m for m in f.source_message_ids if m not in dropped)
            trimmed.append(replace(f, source_episode_ids=rest, source_message_ids=keep))
    turns = sorted(d for e in gone for d, _ in turn_docs(episodes[e]))
    with parts.writing(user) as repo:
        repo.episodes.delete(gone)
        parts.vectors(user).delete("episode", gone)
        repo.facts.upsert(trimmed)
        if not (
            parts.lexical("episode", user).delete(sorted(gone))
            and parts.turns(user).delete(turns)
        ):
            parts.rebuild_lexical("episode", user)
    if orphan:
        delete_facts(parts, orphan, user)
    return Deleted(sorted(gone), sorted(orphan))


def delete_user(parts: Parts, user: str) -> None:
    """Delete everything stored for a user: JSONL files and both indexes."""
    uid = parts.user_id(user)
    if uid not in list_users(parts.data_dir):
        raise NotFound(f"no user {uid!r} in {parts.data_dir}")
    parts.vectors(uid).drop()
    delete_user_files(parts.data_dir, uid)
    parts.forget(uid)
