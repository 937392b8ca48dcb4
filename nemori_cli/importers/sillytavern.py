"""SillyTavern chat files: JSONL with a header line, then {name, is_user, send_date, mes}."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nemori_cli.importers.base import Sink, Turn, first_str
from nemori_cli.importers.payload import BadRecord, JsonDoc
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation, stable_id

NAME = "sillytavern"
DESCRIPTION = "SillyTavern chat JSONL (a header line, then one message a line)"
INPUT = "json"

_HEADER_KEYS = {"chat_metadata", "user_name", "character_name"}
_UNNAMED = "unused"  # what group chats (and newer solo chats) write for both names


def matches(doc: JsonDoc) -> bool:
    """Recognise JSONL whose header names the chat's people, or whose lines are `mes` lines."""
    if doc.kind != "lines":
        return False
    first = doc.head[0] if doc.head else None
    if isinstance(first, dict) and len(_HEADER_KEYS & first.keys()) >= 2:
        return True
    return any(_is_message(r) for r in doc.head)


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield the chat as one conversation; each speaker's name is kept."""
    header: dict[str, Any] = {}
    turns: list[Turn] = []
    for number, record in enumerate(doc.records(), 1):
        if isinstance(record, BadRecord):
            sink.skip(None, f"{record.where}: {record.reason}")
            continue
        if number == 1 and isinstance(record, dict) and not _is_message(record):
            header = record
            continue
        if not _is_message(record):
            turns.append(Turn("user", ""))  # keeps later messages' positions, hence their ids
            continue
        turns.append(_turn(record))
    meta: dict[str, Any] = {"format": NAME}
    character = _character(header, turns)
    if character:
        meta["character"] = character
    conv = sink.build(
        _chat_id(header),
        turns,
        title=f"Chat with {character}" if character else None,
        created_at=try_time(header.get("create_date")),
        metadata=meta,
    )
    if conv is not None:
        yield conv


def _character(header: dict[str, Any], turns: list[Turn]) -> str | None:
    """The header's character, else (group chats write "unused") the characters who speak."""
    named = first_str(header, "character_name")
    if named and named != _UNNAMED:
        return named
    speakers = dict.fromkeys(t.name for t in turns if t.role == "assistant" and t.name)
    return ", ".join(speakers) or None


def _is_message(record: Any) -> bool:
    if not isinstance(record, dict):
        return False
    return "mes" in record and ("is_user" in record or "name" in record)


def _turn(record: dict[str, Any]) -> Turn:
    if record.get("is_user"):
        role = "user"
    elif record.get("is_system"):
        role = "system"
    else:
        role = "assistant"
    text = record["mes"] if isinstance(record["mes"], str) else ""
    return Turn(role, text, first_str(record, "name"), try_time(record.get("send_date")))


def _chat_id(header: dict[str, Any]) -> str | None:
    """Name the chat by what stays the same as it grows, so new messages join it on re-import."""
    metadata = header.get("chat_metadata")
    integrity = first_str(metadata, "integrity") if isinstance(metadata, dict) else None
    if integrity:
        return integrity
    created = first_str(header, "create_date")
    if created:
        people = (first_str(header, "user_name") or "", first_str(header, "character_name") or "")
        return stable_id("st", *people, created)
    return None
