"""Shared pieces of every importer: turns, skipped records, and building a Conversation."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

from nemori_cli.errors import ImportFormatError
from nemori_cli.models import Conversation, Message, stable_id, strip_reasoning, to_iso

EMPTY = "empty conversation"

_USER = {"user", "human", "you", "me"}
_ASSISTANT = {
    "assistant", "ai", "bot", "model", "chatgpt", "gpt", "claude", "gemini", "bard", "copilot",
    "grok", "deepseek",
}
_GPT_MODEL = re.compile(r"^(?:gpt|o)\d[\w.\-]*$")
# Private-use characters: exporters' markup (citation markers, icons), never text a person wrote.
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
T = TypeVar("T")


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

    A conversation without a source id is named by its title and first message, and a message
    without one by its content and how often the same words came before (see content_ids), so
    reading a file again after messages were added to it finds only the new ones.
    """
    # a message's id is made from what it says as saved, thoughts and all, so that ids stay
    # as they were when this reader did not yet drop them
    said = [(t, strip_private_use(t.content).strip()) for t in turns]
    kept = [(t, text, strip_reasoning(text) if t.role == "assistant" else text)
            for t, text in said]
    kept = [(t, text, shown) for t, text, shown in kept if shown]
    if not kept:
        return None
    title = strip_private_use(title).strip() if isinstance(title, str) else None
    title = title or None
    first, first_text, _ = kept[0]
    conv_id = (
        stable_id("conv", title or "", _turn_key(first, first_text))
        if source_id in (None, "")
        else str(source_id)
    )
    derived = content_ids(conv_id, [_turn_key(t, text) for t, text, _ in kept])
    seen: set[str] = set()
    messages = []
    for (t, _, text), own in zip(kept, derived, strict=True):
        mid = str(t.id) if t.id not in (None, "") else own
        if mid in seen:  # a source that repeats ids must not make two messages one
            mid = f"{mid}:{own}"
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


def earliest(*times: datetime | None) -> datetime | None:
    """The earliest of the times that are known, or None when none is."""
    return min((t for t in times if t is not None), default=None)


def strip_private_use(text: str) -> str:
    """Remove characters of the Unicode private-use area (U+E000-U+F8FF)."""
    return _PRIVATE_USE.sub("", text)


def in_time_order(items: Sequence[T], time_of: Callable[[T], datetime | None]) -> list[T]:
    """Sort a linear conversation by time where the file's order disagrees (stable).

    An undated item keeps its place after the item before it. Tree formats (ChatGPT) keep
    their tree order instead: there an answer can be stamped before the question it answers.
    """
    last: datetime | None = None
    keyed = []
    for i, item in enumerate(items):
        last = time_of(item) or last
        keyed.append(((last is not None, last or datetime.min.replace(tzinfo=UTC), i), item))
    if all(k[0] for k, _ in keyed) or not any(k[0] for k, _ in keyed):
        return [item for _, item in sorted(keyed, key=lambda t: t[0])]
    return list(items)


def _turn_key(turn: Turn, text: str) -> str:
    return "\x1e".join((turn.role, turn.name or "", text, to_iso(turn.timestamp) or ""))


def content_ids(conversation_id: str, keys: Sequence[str]) -> list[str]:
    """Stable ids for messages that have none: conversation, content, and occurrence.

    The n-th message with the same speaker, words and time gets the same id wherever it sits,
    so a message list that grew (or had one edited) keeps the ids of the messages it kept.
    """
    count: dict[str, int] = {}
    out = []
    for key in keys:
        n = count[key] = count.get(key, 0) + 1
        out.append(stable_id("msg", conversation_id, key, str(n)))
    return out


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
