"""Correct a fact in the user's words: the corrected fact supersedes the old one (history)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from nemori_cli.errors import NotFound, UsageError
from nemori_cli.indexing import index_records
from nemori_cli.models import Fact, check_category, utcnow, with_time
from nemori_cli.parts import Parts
from nemori_cli.pipeline.facts import fact_id
from nemori_cli.pipeline.rewrite import has_first_person, to_third_person

CORRECTED_BY = "user"  # the extractor a corrected fact names


def correct_fact(
    parts: Parts,
    fid: str,
    content: str | None = None,
    *,
    category: str | None = None,
    user: str | None = None,
) -> Fact:
    """Store the fact as corrected (new wording, category or both) and return it.

    New wording makes a new fact with the old one's sources and time, and the old one
    superseded by it (still listed, marked so; search leaves it out unless asked); a new
    category alone is changed in place.
    """
    content = " ".join(content.split()) if content is not None else None
    if content == "":
        raise UsageError("the corrected fact is empty")
    check_category(category)
    uid = parts.user_id(user)
    facts = parts.repo(uid).facts.lookup()
    if fid not in facts:
        raise NotFound(f"no fact {fid!r} for user {uid!r}")
    # refused before the lock, whose block marks the indexes for repair when it raises
    if not corrected_records(facts, fid, content, category, uid):
        return facts[fid]
    with parts.writing(uid) as repo:  # again under the lock: an ingest may have merged into it
        records = corrected_records(repo.facts.lookup(), fid, content, category, uid)
        repo.facts.upsert(records)
        index_records(parts.vectors(uid), parts.embedder, "fact", records)
        parts.rebuild_lexical("fact", uid)
    return records[0] if records else facts[fid]


def corrected_records(
    facts: Mapping[str, Fact], fid: str, content: str | None, category: str | None, uid: str
) -> list[Fact]:
    """The records to store: the corrected fact, then the old one superseded (if new wording)."""
    old = facts[fid]
    if old.superseded_by:
        raise UsageError(f"fact {fid} is superseded by {old.superseded_by}: correct that one")
    text = old.content if content is None else said_of(content, old.subject)
    new_id = fact_id(uid, with_time(text, old.when))
    # the corrected wording may be a fact stored already: it gains the old one's sources
    base = facts[new_id].merged_with(old) if new_id != old.id and new_id in facts else old
    changed = replace(
        base,
        id=new_id,
        content=text,
        category=category or base.category,
        confidence=1.0,
        created_at=utcnow() if new_id != old.id else old.created_at,
        superseded_by=None,
        extractor=CORRECTED_BY,
    )
    if changed == old:
        return []
    return [changed] if new_id == old.id else [changed, replace(old, superseded_by=new_id)]


def said_of(content: str, subject: str | None) -> str:
    """The fact as stored: "I live in Porto" said of its subject (the user when none)."""
    return to_third_person(content, subject) if has_first_person(content) else content
