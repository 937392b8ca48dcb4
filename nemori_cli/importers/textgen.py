"""text-generation-webui (oobabooga) chat histories: {internal, visible, metadata} pairs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from nemori_cli.importers.base import Sink, Turn, fill_times, first_str, obj
from nemori_cli.importers.htmltext import html_to_text
from nemori_cli.importers.payload import JsonDoc
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation, stable_id, strip_reasoning

NAME = "textgen"
DESCRIPTION = "text-generation-webui (oobabooga) chat history JSON ({internal, visible})"
INPUT = "json"

GREETING_MARK = "<|BEGIN-VISIBLE-CHAT|>"  # the user side of the character's greeting row
# Chat files are named after their start: 20250605-15-04-22.json (older: Name_20230605-150422).
_STAMP = re.compile(r"(?:^|_)(\d{8})-(\d{2})-?(\d{2})-?(\d{2})$")
_PERSISTENT = re.compile(r"^(?:(?P<a>.+)_persistent|persistent_(?P<b>.+))$")
_OLD_NAMED = re.compile(r"^(?P<name>.+)_\d{8}-\d{6}$")
# GPT-OSS writes its analysis channel before the final one.
_FINAL = "<|channel|>final<|message|>"
_END = "<|end|>"


def matches(doc: JsonDoc) -> bool:
    """Recognise an object whose `internal` and `visible` (or `data`, `data_visible`) are pairs."""
    if doc.kind != "object" or not doc.head:
        return False
    internal, visible = _histories(obj(doc.head[0]))
    if internal is None or visible is None:
        return False
    return any(_is_row(r) for r in internal[:50]) or not (internal or visible)


def _histories(root: dict[str, Any]) -> tuple[list[Any] | None, list[Any] | None]:
    """The plain and the HTML history; the first versions (early 2023) named them data."""
    for plain, shown in (("internal", "visible"), ("data", "data_visible")):
        if isinstance(root.get(plain), list) and isinstance(root.get(shown), list):
            return root[plain], root[shown]
    return None, None


def _is_row(row: Any) -> bool:
    return isinstance(row, list) and len(row) >= 2


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield the chat as one conversation: the shown version of each message, greeting kept."""
    root = obj(doc.head[0])
    internal, visible = _histories(root)
    stem, character = _file_facts(doc.source)
    turns: list[Turn] = []
    for index, row in enumerate(internal or []):
        if not _is_row(row):
            sink.skip(None, f"row {index + 1}: not a [user, reply] pair")
            continue
        shown = _row_at(visible or [], index)
        turns.extend(_turns(row, shown, index, obj(root.get("metadata")), character))
    started = _stamp_time(stem)
    meta: dict[str, Any] = {"format": NAME}
    if character:
        meta["character"] = character
    if started and any(t.timestamp is None and t.content.strip() for t in turns):
        meta["time"] = "chat file name"  # a guess: when the chat was started
    conv = sink.build(
        stable_id("textgen", character or "", stem) if stem else None,
        fill_times(turns, started) if started else turns,
        title=f"Chat with {character}" if character else None,
        created_at=started or next((t.timestamp for t in turns if t.timestamp), None),
        metadata=meta,
    )
    if conv is not None:
        yield conv


def _row_at(rows: list[Any], index: int) -> list[Any]:
    """The visible row beside an internal one ([] when the visible history is shorter)."""
    row = rows[index] if index < len(rows) else None
    return row if isinstance(row, list) else []


def _turns(
    row: list[Any], shown: list[Any], index: int, metadata: dict[str, Any], character: str | None
) -> list[Turn]:
    """The user's message and the reply of one row; tool output (a third item) is not chat."""
    user, reply = (_text(row, shown, side) for side in (0, 1))
    if row[0] == GREETING_MARK:
        user = ""  # the greeting row has no user message: the character speaks first
    user_time = try_time(first_str(obj(metadata.get(f"user_{index}")), "timestamp"))
    reply_time = try_time(first_str(obj(metadata.get(f"assistant_{index}")), "timestamp"))
    return [
        Turn("user", user, None, user_time),
        Turn("assistant", _answer(reply), character, reply_time),
    ]


def _text(row: list[Any], shown: list[Any], side: int) -> str:
    """The plain text of one side of a row, else its visible HTML as text."""
    plain = row[side]
    if isinstance(plain, str) and plain.strip():
        return plain
    html = shown[side] if len(shown) > side else None
    return html_to_text(html) if isinstance(html, str) else ""


def _answer(text: str) -> str:
    """Drop a reasoning model's thoughts from a reply (here, where ids are made from the text
    without them)."""
    if _FINAL in text:
        text = text.split(_FINAL, 1)[1].split(_END, 1)[0]
    return strip_reasoning(text)


def _file_facts(source: str) -> tuple[str | None, str | None]:
    """The chat's file stem and character, from logs/chat/<character>/<stem>.json or older names."""
    parts = source.replace("\\", "/").split("/")
    name = parts[-1]
    if source == "-" or not name.lower().endswith(".json"):
        return None, None
    stem = name[: -len(".json")]
    folder = parts[-3:-1]
    if len(folder) == 2 and folder[0] == "chat":
        return stem, folder[1]
    if old := _PERSISTENT.match(stem) or _OLD_NAMED.match(stem):
        return stem, next(g for g in old.groups() if g)
    return stem, None  # instruct mode (logs/instruct/<stem>.json) has no character


def _stamp_time(stem: str | None) -> datetime | None:
    """When a chat was started, from its file name (local time, read as UTC)."""
    m = _STAMP.search(stem or "")
    if not m:
        return None
    try:
        return datetime.strptime("".join(m.groups()), "%Y%m%d%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return None
