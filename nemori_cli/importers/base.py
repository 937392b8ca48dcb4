"""Shared pieces of every importer: turns, skipped records, and building a Conversation."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from nemori_cli.errors import ImportFormatError
from nemori_cli.models import Conversation, Message, stable_id, to_iso

EMPTY = "empty conversation"

_USER = {"user", "human", "you", "me"}
_ASSISTANT = {
    "assistant", "ai", "bot", "model", "chatgpt", "gpt", "claude", "gemini", "bard", "copilot",
    "grok", "deepseek",
}
_GPT_MODEL = re.compile(r"^(?:gpt|o)\d[\w.\-]*$")
# Private-use characters: exporters' markup (citation markers, icons), never text a person wrote.
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")


@dataclass(frozen=True)
class Skipped:
    """A conversation (or record) that was not imported, and why."""

    conversation_id: str | None
    reason: str


@dataclass(frozen=True)
class Turn:
    """One message as read from a source, before ids are settled."""

    role: str
    content: str
    name: str | None = None
    timestamp: datetime | None = None
    id: str | None = None


class Broken(Exception):
    """Raised by a format reader when one conversation cannot be read."""


@dataclass
class Sink:
    """Where readers report skipped conversations; strict mode turns a skip into an error."""

    path: str
    strict: bool = False
    skipped: list[Skipped] = field(default_factory=list)

    @property
    def label(self) -> str:
        """Name the source for messages: the path, or <stdin>."""
        return display(self.path)

    def skip(self, conversation_id: str | None, reason: str) -> None:
        """Record a conversation that is not imported (raise instead in strict mode)."""
        if self.strict:
            what = f"conversation {conversation_id}: " if conversation_id else ""
            raise ImportFormatError(f"{self.label}: {what}{reason}")
        self.skipped.append(Skipped(conversation_id, reason))

    def build(
        self,
        source_id: Any,
        turns: Sequence[Turn],
        *,
        title: str | None = None,
        created_at: datetime | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> Conversation | None:
        """Build a Conversation from turns, or record it as skipped when it has no text."""
        conv = assemble(
            source_id, turns, title=title, created_at=created_at, path=self.path,
            metadata=metadata,
        )
        if conv is None:
            self.skip(str(source_id) if source_id not in (None, "") else None, EMPTY)
        return conv


def display(path: str) -> str:
    """Name a path in a message to the user."""
    return "<stdin>" if path == "-" else path


def assemble(
    source_id: Any,
    turns: Sequence[Turn],
    *,
    title: str | None = None,
    created_at: datetime | None = None,
    path: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> Conversation | None:
    """Settle ids and drop empty turns; None when no turn has text.

    Message ids without a source id are derived from the turn's position in the source, so they
    stay the same when the same content is read again.
    """
    kept = [(i, t, strip_private_use(t.content).strip()) for i, t in enumerate(turns)]
    kept = [(i, t, text) for i, t, text in kept if text]
    if not kept:
        return None
    title = strip_private_use(title).strip() if isinstance(title, str) else None
    title = title or None
    if source_id in (None, ""):
        conv_id = stable_id(
            "conv",
            title or "",
            *(
                "\x1e".join((t.role, t.name or "", text, to_iso(t.timestamp) or ""))
                for _, t, text in kept
            ),
        )
    else:
        conv_id = str(source_id)
    seen: set[str] = set()
    messages = []
    for i, t, text in kept:
        mid = str(t.id) if t.id not in (None, "") else f"{conv_id}:{i}"
        if mid in seen:  # a source that repeats ids must not make two messages one
            mid = f"{mid}:{i}"
        seen.add(mid)
        messages.append(Message(mid, t.role, text, t.name or None, t.timestamp))
    return Conversation(
        id=conv_id,
        messages=tuple(messages),
        title=title,
        source=path,
        created_at=created_at,
        metadata=dict(metadata or {}),
    )


def fill_times(turns: list[Turn], created: datetime | None) -> list[Turn]:
    """Date undated messages: from the message before, else the conversation, else the next."""
    times: list[datetime | None] = []
    last = created
    for turn in turns:
        last = turn.timestamp or last
        times.append(last)
    following = None
    for i in range(len(times) - 1, -1, -1):
        following = times[i] = times[i] or following
    return [replace(t, timestamp=when) for t, when in zip(turns, times, strict=True)]


def strip_private_use(text: str) -> str:
    """Remove characters of the Unicode private-use area (U+E000-U+F8FF)."""
    return _PRIVATE_USE.sub("", text)


def normalize_role(raw: Any) -> str | None:
    """Map a source's role or speaker label to user/assistant/system/tool; None if unknown."""
    if not isinstance(raw, str):
        return None
    key = raw.strip().lower()
    if key in _USER:
        return "user"
    if key in _ASSISTANT or _GPT_MODEL.match(key):
        return "assistant"
    if key in ("system", "developer"):
        return "system"
    if key in ("tool", "function"):
        return "tool"
    return None


def text_of(content: Any, *, image: str = "[image]") -> str:
    """Join text from a string or a list of parts; images become a marker, other parts vanish."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        return _part_text(content, image)
    if isinstance(content, list):
        return "\n".join(p for p in (text_of(c, image=image) for c in content) if p)
    return ""


def _part_text(part: dict[str, Any], image: str) -> str:
    kind = str(part.get("type") or part.get("content_type") or "")
    if "image" in kind:
        return image
    text = part.get("text")
    if isinstance(text, dict):  # Assistants API: {"type": "text", "text": {"value": ...}}
        text = text.get("value")
    if isinstance(text, str) and kind in ("", "text", "input_text", "output_text"):
        return text
    return ""


def first_str(record: dict[str, Any], *keys: str) -> str | None:
    """Return the first of these keys whose value is a non-empty string (or a number)."""
    for key in keys:
        value = record.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
    return None


def obj(value: Any) -> dict[str, Any]:
    """Return the value if it is a JSON object, else an empty one (sources hold stray nulls)."""
    return value if isinstance(value, dict) else {}


def items(value: Any) -> list[Any]:
    """Return the value if it is a JSON array, else an empty one."""
    return value if isinstance(value, list) else []


def dicts(values: Iterable[Any]) -> Iterable[dict[str, Any]]:
    """Keep only the dict items of a sequence (sources hold stray nulls)."""
    return (v for v in values if isinstance(v, dict))


class EmptySource(ImportFormatError):
    """A readable file that yielded no conversation to import."""
