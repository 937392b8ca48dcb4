"""Read what is stored: list and get episodes and facts, and count them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from nemori_cli.errors import NotFound
from nemori_cli.models import Episode, Fact
from nemori_cli.parts import Parts
from nemori_cli.store.usage import UsageLog


def list_episodes(parts: Parts, user: str | None = None) -> list[Episode]:
    """Every episode of the user, oldest first."""
    eps = list(parts.repo(user).episodes.all().values())
    return sorted(eps, key=lambda e: (e.timestamp is None, e.timestamp or e.created_at, e.id))


def list_facts(
    parts: Parts,
    user: str | None = None,
    *,
    category: str | None = None,
    include_superseded: bool = True,
) -> list[Fact]:
    """Every fact of the user (optionally one category), oldest first."""
    out = [
        f
        for f in parts.repo(user).facts.all().values()
        if (category is None or f.category == category)
        and (include_superseded or f.superseded_by is None)
    ]
    return sorted(out, key=lambda f: (f.valid_from is None, f.valid_from or f.created_at, f.id))


def get_episode(parts: Parts, episode_id: str, user: str | None = None) -> Episode:
    """One episode by id; NotFound when the user has none with that id."""
    ep = parts.repo(user).episodes.get(episode_id)
    if ep is None:
        raise NotFound(f"no episode {episode_id!r} for user {parts.user_id(user)!r}")
    return ep


def get_fact(parts: Parts, fact_id: str, user: str | None = None) -> Fact:
    """One fact by id; NotFound when the user has none with that id."""
    fact = parts.repo(user).facts.get(fact_id)
    if fact is None:
        raise NotFound(f"no fact {fact_id!r} for user {parts.user_id(user)!r}")
    return fact


def replaced_facts(parts: Parts, fact_id: str, user: str | None = None) -> list[Fact]:
    """The facts this one superseded, and those they superseded in turn, newest first."""
    table = parts.repo(user).facts
    found: list[Fact] = []
    wanted = {fact_id}
    while wanted:
        older = [f for f in table.mentioning(wanted) if f.superseded_by in wanted]
        older = [f for f in older if f not in found]
        found.extend(sorted(older, key=lambda f: f.created_at, reverse=True))
        wanted = {f.id for f in older}
    return found


@dataclass(frozen=True)
class Stats:
    """Counts and LLM spend for one user."""

    user: str
    episodes: int
    messages: int
    facts: int
    current_facts: int
    facts_by_category: dict[str, int] = field(default_factory=dict)
    extraction: dict[str, int] = field(default_factory=dict)  # episodes by extraction status
    episodes_made_by: dict[str, int] = field(default_factory=dict)  # llm, offline, fallbacks
    facts_by_extractor: dict[str, int] = field(default_factory=dict)
    llm_usage: dict[str, float] = field(default_factory=dict)  # calls, tokens, cost
    ask_usage: dict[str, float] = field(default_factory=dict)  # questions, calls, tokens, cost
    data_dir: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def usage_log(parts: Parts, user: str | None = None) -> UsageLog:
    """The user's record of LLM spend outside extraction (answers)."""
    return UsageLog(parts.repo(user).folder, lock_timeout=parts.settings.lock_timeout)


def stats(parts: Parts, user: str | None = None) -> Stats:
    """Count a user's episodes, messages and facts, and add up the LLM spend."""
    episodes = parts.repo(user).episodes.all().values()
    facts = list(parts.repo(user).facts.all().values())
    by_status: dict[str, int] = {}
    made_by: dict[str, int] = {}
    usage: dict[str, float] = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost": 0.0}
    for ep in episodes:
        st = ep.extraction.get("status", "unknown")
        by_status[st] = by_status.get(st, 0) + 1
        reason = ep.fallback_reason
        who = f"offline fallback ({reason})" if reason else ep.made_by
        made_by[who] = made_by.get(who, 0) + 1
        for key in usage:
            usage[key] += ep.extraction.get(key, 0) or 0
    categories: dict[str, int] = {}
    extractors: dict[str, int] = {}
    for f in facts:
        categories[f.category] = categories.get(f.category, 0) + 1
        extractors[f.extractor] = extractors.get(f.extractor, 0) + 1
    return Stats(
        user=parts.user_id(user),
        episodes=len(episodes),
        messages=sum(len(e.message_ids) for e in episodes),
        facts=len(facts),
        current_facts=sum(1 for f in facts if f.superseded_by is None),
        facts_by_category=categories,
        extraction=by_status,
        episodes_made_by=made_by,
        facts_by_extractor=extractors,
        llm_usage=usage,
        ask_usage=usage_log(parts, user).summary("ask", count_as="questions"),
        data_dir=str(parts.data_dir),
    )
