"""Records that flow between importers, pipeline, store and search."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Literal

from nemori_cli.errors import UsageError

Kind = Literal["episode", "fact"]
KINDS: tuple[Kind, ...] = ("episode", "fact")
CATEGORIES = ("user_profile", "experience", "knowledge", "other")
# a reasoning model's thoughts at the head of its reply (DeepSeek-R1, Qwen3, Seed, ... saved
# in an exported chat, or left in an answer by a server): not what it said; unclosed, all is
_REASONING = re.compile(r"^\s*<(think|thinking|seed:think|reasoning)>.*?(?:</\1>|\Z)\s*", re.S)


def check_category(value: str | None) -> str | None:
    """Reject a fact category that does not exist (a usage error listing the ones that do)."""
    if value is not None and value not in CATEGORIES:
        raise UsageError(f"unknown category {value!r}: use one of {', '.join(CATEGORIES)}")
    return value


def strip_reasoning(text: str) -> str:
    """Drop the thoughts a reasoning model wrote before its reply (`<think>...</think>`)."""
    return _REASONING.sub("", text)


def utcnow() -> datetime:
    """Return the current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


def aware(value: datetime | None) -> datetime | None:
    """The datetime with a time zone: a naive one is read as UTC (None passes through)."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


def to_iso(value: datetime | None) -> str | None:
    """Format an aware datetime as ISO 8601 (UTC), or pass None through."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def from_iso(value: str | None) -> datetime | None:
    """Parse an ISO 8601 string written by to_iso (or None)."""
    if not value:
        return None
    parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def stable_id(prefix: str, *parts: str) -> str:
    """Derive a short deterministic id from its parts, so re-runs produce the same ids."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]
    return f"{prefix}_{digest}"


@dataclass(frozen=True, slots=True)
class Message:
    """One turn of a conversation, as the source had it."""

    id: str
    role: str
    content: str
    name: str | None = None
    timestamp: datetime | None = None

    @property
    def speaker(self) -> str:
        """Name of who said it: the speaker name, else the role."""
        return self.name or self.role

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "role": self.role,
            "name": self.name,
            "content": self.content,
            "timestamp": to_iso(self.timestamp),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Message:
        return cls(
            id=str(d["id"]),
            role=d.get("role") or "user",
            content=d.get("content") or "",
            name=d.get("name"),
            timestamp=from_iso(d.get("timestamp")),
        )


@dataclass(frozen=True, slots=True)
class Conversation:
    """An ordered list of messages from one source conversation."""

    id: str
    messages: tuple[Message, ...]
    title: str | None = None
    source: str | None = None  # the file (or "-") it came from
    created_at: datetime | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def timestamp(self) -> datetime | None:
        """When the conversation started: its first dated message, else created_at."""
        for m in self.messages:
            if m.timestamp is not None:
                return m.timestamp
        return self.created_at


@dataclass(frozen=True, slots=True)
class Episode:
    """A coherent stretch of one conversation, with a title and a narrative."""

    id: str
    user_id: str
    conversation_id: str
    title: str
    content: str
    timestamp: datetime | None
    message_ids: tuple[str, ...]
    messages: tuple[Message, ...]
    created_at: datetime
    # how its facts were made: {"extractor": "offline" | "llm:<model>",
    #  "status": "pending" | "done" | "failed", "error"?: str, "calls"?, "tokens"?, "cost"?}
    extraction: dict[str, Any] = field(default_factory=dict)
    end_timestamp: datetime | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "user_id": self.user_id,
            "conversation_id": self.conversation_id,
            "title": self.title,
            "content": self.content,
            "timestamp": to_iso(self.timestamp),
            "end_timestamp": to_iso(self.end_timestamp),
            "message_ids": list(self.message_ids),
            "messages": [m.to_dict() for m in self.messages],
            "created_at": to_iso(self.created_at),
            "extraction": dict(self.extraction),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Episode:
        return cls(
            id=d["id"],
            user_id=d["user_id"],
            conversation_id=d["conversation_id"],
            title=d.get("title") or "",
            content=d.get("content") or "",
            timestamp=from_iso(d.get("timestamp")),
            end_timestamp=from_iso(d.get("end_timestamp")),
            message_ids=tuple(d.get("message_ids") or ()),
            messages=tuple(Message.from_dict(m) for m in d.get("messages") or ()),
            created_at=from_iso(d.get("created_at")) or utcnow(),
            extraction=dict(d.get("extraction") or {}),
        )

    def with_extraction(self, **changes: Any) -> Episode:
        """Return a copy whose extraction record has these keys changed."""
        return replace(self, extraction={**self.extraction, **changes})

    @property
    def made_by(self) -> str:
        """Who made the episode's narrative and facts: "llm", "offline", "offline fallback"
        (the LLM was asked and failed; see fallback_reason), or "pending"/"skipped"."""
        status = self.extraction.get("status") or ""
        if not str(self.extraction.get("extractor") or "offline").startswith("llm:"):
            return "offline" if status in ("done", "") else status
        if status == "done":
            return "llm"
        return "offline fallback" if status == "failed" else status

    @property
    def fallback_reason(self) -> str | None:
        """Why the LLM's answer was not used: invalid, timeout, error, stopped (None if it was)."""
        if self.made_by != "offline fallback":
            return None
        return str(self.extraction.get("fallback") or "error")  # older records lack the kind


@dataclass(frozen=True, slots=True)
class Fact:
    """A lasting statement about a person, traced to the messages it came from."""

    id: str
    user_id: str
    content: str
    category: str
    source_episode_ids: tuple[str, ...]
    source_message_ids: tuple[str, ...]
    confidence: float
    created_at: datetime
    valid_from: datetime | None
    extractor: str
    superseded_by: str | None = None
    subject: str | None = None  # who the fact is about (speaker name), when known
    # when what it tells happened, as resolved from what was said ("7 May 2023", "the week
    # before 8 May 2023"): beside the statement, as a time is beside an event in a diary
    when: str | None = None

    @property
    def dated_content(self) -> str:
        """The statement with its time, as a person reads it."""
        return with_time(self.content, self.when)

    def to_dict(self) -> dict[str, Any]:
        # the sources before the content: a line torn in the middle (a crash, a bad disk)
        # still says which episodes `nemori backfill` must extract it from again
        return {
            "id": self.id,
            "user_id": self.user_id,
            "source_episode_ids": list(self.source_episode_ids),
            "source_message_ids": list(self.source_message_ids),
            "content": self.content,
            "category": self.category,
            "subject": self.subject,
            "confidence": self.confidence,
            "created_at": to_iso(self.created_at),
            "valid_from": to_iso(self.valid_from),
            "when": self.when,
            "superseded_by": self.superseded_by,
            "extractor": self.extractor,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Fact:
        return cls(
            id=d["id"],
            user_id=d["user_id"],
            content=d.get("content") or "",
            category=d.get("category") or "other",
            subject=d.get("subject"),
            source_episode_ids=tuple(d.get("source_episode_ids") or ()),
            source_message_ids=tuple(d.get("source_message_ids") or ()),
            confidence=float(d.get("confidence", 1.0)),
            created_at=from_iso(d.get("created_at")) or utcnow(),
            valid_from=from_iso(d.get("valid_from")),
            when=d.get("when"),
            superseded_by=d.get("superseded_by"),
            extractor=d.get("extractor") or "offline",
        )

    def merged_with(self, other: Fact) -> Fact:
        """Return this fact with the other's sources appended (a duplicate folded in)."""
        return replace(
            self,
            source_episode_ids=_union(self.source_episode_ids, other.source_episode_ids),
            source_message_ids=_union(self.source_message_ids, other.source_message_ids),
        )


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One ranked result, in the shape of the search output contract."""

    kind: Kind
    id: str
    score: float
    content: str
    title: str | None = None
    timestamp: datetime | None = None
    conversation_id: str | None = None
    message_ids: tuple[str, ...] = ()
    episode_ids: tuple[str, ...] = ()
    category: str | None = None
    relevance: float | None = None  # 0-1, comparable across queries (see relevance.py)
    hit_id: str | None = None  # the id, and for part of an episode its span: "ep_x:3-6"
    snippet: str | None = None  # the part of the content that matched

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "kind": self.kind,
            "id": self.id,
            "hit_id": self.hit_id or self.id,
            "score": round(self.score, 6),
            "relevance": self.relevance,
            "snippet": self.snippet,
            "content": self.content,
            "timestamp": to_iso(self.timestamp),
            "conversation_id": self.conversation_id,
            "message_ids": list(self.message_ids),
            "episode_ids": list(self.episode_ids),
        }
        if self.kind == "episode":
            d["title"] = self.title
        else:
            d["category"] = self.category
        return d


def with_time(statement: str, when: str | None) -> str:
    """A statement with the time it tells of: "X went hiking (7 May 2023)." """
    if not when:
        return statement
    body = statement.rstrip()
    end = body[-1:] if body[-1:] in {".", "!", "?"} else ""
    return f"{body[: len(body) - len(end)]} ({when}){end or '.'}"


def _union(a: Sequence[str], b: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys([*a, *b]))
