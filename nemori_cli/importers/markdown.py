"""Markdown transcripts: role headings, bold or bare role prefixes, llm logs, YAML front
matter."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from nemori_cli.importers import llm_logs
from nemori_cli.importers.base import Sink, Turn, normalize_role
from nemori_cli.importers.mdblocks import (
    drop_exporter_notes,
    outside_fences,
    own_time,
    split_front_matter,
)
from nemori_cli.importers.mdlayouts import read_layout
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation

NAME = "markdown"
DESCRIPTION = (
    "markdown transcripts: ## User, #### You:, **User:**, llm logs, chatgpt-md, exporters"
)
INPUT = "text"

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_BOLD = re.compile(
    r"^(?:\*\*|__)([^*_\n]{1,80}?)(?::[ \t]*(?:\*\*|__)|(?:\*\*|__)[ \t]*:)[ \t]*(.*)$"
)
# a pasted transcript's bare prefix, "User: text" or "Assistant:" on a line of its own
_PLAIN = re.compile(r"^([A-Za-z][A-Za-z0-9.\-]{0,30}):(?:[ \t]+(.*))?[ \t]*$")
_WORD = re.compile(r"^[^A-Za-z0-9]*?([A-Za-z][A-Za-z0-9.\-]*)(.*)$")
_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?"
    r"(?:[ ]?(?:Z|UTC|[+-]\d{2}:?\d{2}))?"
)
_ID = re.compile(
    r"\bid[:=][ \t]*`?([\w.:\-]+)`?|\(([\w.:\-]+)\)|\[([\w.:\-]+)\]|`([\w.:\-]+)`",
    re.IGNORECASE,
)
_BARE_ID = re.compile(r"^(?=[\w.:\-]*\d)[\w.:\-]{4,}$")
_SEPARATORS = " \t()[]{}·•|—–-,:;*_`"
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_TITLE_KEYS = ("title", "name", "subject")
_ID_KEYS = ("id", "conversation_id", "uuid", "chat_id")
_DATE_KEYS = ("created", "created_at", "date", "create_time", "createdat", "created_on")


@dataclass(frozen=True)
class _Mark:
    """A line that starts a turn."""

    line: int
    style: str  # "h1".."h6", "bold" for **Role:** prefixes, "plain" for Role: prefixes
    role: str
    timestamp: datetime | None
    id: str | None
    inline: str = ""  # text after a bold prefix, on the same line


def matches(text: str) -> bool:
    """Recognise a transcript: role headings, bold role prefixes, or llm logs."""
    lines = text.split("\n")
    start = split_front_matter(lines)[1]
    return (
        llm_logs.matches(lines)
        or bool(_chosen(_marks(lines, start)))
        or read_layout(lines[start:]) is not None
    )


def read(text: str, sink: Sink) -> Iterator[Conversation]:
    """Yield the conversation of a markdown transcript (one per conversation for llm logs)."""
    lines = text.split("\n")
    meta, start = split_front_matter(lines)
    title = next((meta[k] for k in _TITLE_KEYS if k in meta), None)
    if llm_logs.matches(lines[start:]):
        yield from llm_logs.read(lines[start:], sink, title=title)
        return
    conv_id = next((meta[k] for k in _ID_KEYS if k in meta), None)
    marks = _chosen(_marks(lines, start))
    layout = None if marks else read_layout(lines[start:])
    if layout is not None:
        turns = layout.turns
        title, conv_id = title or layout.title, conv_id or layout.id
    elif marks:
        turns = _marked_turns(lines, marks)
        if title is None:
            title = _preamble_title(lines[start : marks[0].line])
    else:
        sink.skip(conv_id, "no turns found")
        return
    turns = [_without_exporter_notes(t) for t in turns if t.role != "tool"]
    created = next((t for k in _DATE_KEYS if k in meta and (t := try_time(meta[k]))), None)
    metadata = {"format": NAME}
    for key in ("model", "source", "url"):
        if key in meta:
            metadata[key] = meta[key]
    conv = sink.build(
        conv_id,
        turns,
        title=title,
        created_at=created,
        metadata=metadata,
    )
    if conv is not None:
        yield conv


def _marked_turns(lines: list[str], marks: list[_Mark]) -> list[Turn]:
    """Cut the text at the marks: each turn runs to the next mark."""
    ids = Counter(m.id for m in marks if m.id)
    turns = []
    for k, mark in enumerate(marks):
        end = marks[k + 1].line if k + 1 < len(marks) else len(lines)
        body = _trim([mark.inline, *lines[mark.line + 1 : end]])
        unique_id = mark.id if mark.id and ids[mark.id] == 1 else None  # repeated: not an id
        turns.append(Turn(mark.role, "\n".join(body), None, mark.timestamp, unique_id))
    return turns


def _without_exporter_notes(turn: Turn) -> Turn:
    """Take an exporter's time line into the turn's time; drop its notes from answers."""
    when, body = own_time(turn.content.split("\n"))
    text = "\n".join(_trim(body))
    if turn.role == "assistant":
        text = drop_exporter_notes(text)
    return Turn(turn.role, text, turn.name, turn.timestamp or when, turn.id)


def _marks(lines: list[str], start: int) -> list[_Mark]:
    """Find every line outside code fences that could start a turn."""
    found = (_mark(lines[i], i) for i in outside_fences(lines, start))
    return [mark for mark in found if mark is not None]


def _chosen(marks: list[_Mark]) -> list[_Mark]:
    """Keep the marks of the document's convention: its most used style (the first on ties).

    A transcript has someone asking: without a user turn, role-like headings are just headings;
    bare prefixes ("User: admin") make a transcript only when someone answers too.
    """
    counts = Counter(m.style for m in marks)  # insertion order breaks ties by first use
    if not counts:
        return []
    style = max(counts, key=counts.__getitem__)
    chosen = [m for m in marks if m.style == style]
    roles = {m.role for m in chosen}
    return chosen if "user" in roles and (style != "plain" or "assistant" in roles) else []


def _mark(line: str, index: int) -> _Mark | None:
    heading = _HEADING.match(line)
    if heading:
        parsed = _role_label(heading.group(2))
        if parsed:
            return _Mark(index, f"h{len(heading.group(1))}", *parsed)
        return None
    bold = _BOLD.match(line)
    if bold:
        parsed = _role_label(bold.group(1))
        if parsed:
            return _Mark(index, "bold", *parsed, inline=bold.group(2))
        return None
    plain = _PLAIN.match(line)
    if plain and (role := normalize_role(plain.group(1))) in ("user", "assistant"):
        return _Mark(index, "plain", role, None, None, inline=plain.group(2) or "")
    return None


def _role_label(label: str) -> tuple[str, datetime | None, str | None] | None:
    """Read "User", "You:", "Assistant (msg-1) 2024-05-01T10:00Z": role, time and id."""
    m = _WORD.match(label.strip())
    if not m:
        return None
    word = m.group(1).rstrip(".-")
    # ChatGPT Exporter heads tool output (generated images) `#### Plugin (dalle.text2im):`.
    role = normalize_role(word) or ("tool" if word.lower() == "plugin" else None)
    if role is None:
        return None
    rest = m.group(2)
    timestamp = None
    found = _TIME.search(rest)
    if found:
        timestamp = try_time(found.group(0))
        rest = rest[: found.start()] + " " + rest[found.end() :]
    turn_id = None
    found = _ID.search(rest)
    if found:
        turn_id = next(g for g in found.groups() if g)
        rest = rest[: found.start()] + " " + rest[found.end() :]
    leftover = rest.strip(_SEPARATORS)
    if leftover and turn_id is None and _BARE_ID.match(leftover):
        turn_id, leftover = leftover, ""
    if leftover:
        return None  # "## User Guide" is a heading about users, not a turn
    return role, timestamp, turn_id


def _preamble_title(lines: list[str]) -> str | None:
    for line in lines:
        heading = _HEADING.match(line)
        if heading and heading.group(2).strip():
            return heading.group(2).strip()
    return None


def _trim(lines: list[str]) -> list[str]:
    """Drop blank lines and horizontal rules that only separate turns."""
    def filler(line: str) -> bool:
        return not line.strip() or bool(_RULE.match(line))

    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and filler(lines[end - 1]):
        end -= 1
    return lines[start:end]
