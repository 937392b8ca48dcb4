"""TypingMind exports: {data: {chats: [{chatID, chatTitle, messages, ...}], folders, ...}}."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from nemori_cli.importers.base import Sink, Turn, dicts, first_str, items, obj, text_of
from nemori_cli.importers.payload import JsonDoc
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation, to_iso

NAME = "typingmind"
DESCRIPTION = "TypingMind data export ({data: {chats, folders, ...}})"
INPUT = "json"

MULTI = "tm_multi_responses"  # one question put to several models: each one's answer
# Messages TypingMind keeps but that are nobody's words: an attached file, the marker of a
# cleared context, the summary it writes for itself, an agent's hidden training examples.
_NOT_SAID = {"attachment", "clear-context", "tm_context_summary", "training-message"}


def matches(doc: JsonDoc) -> bool:
    """Recognise the export's `data.chats`, whose chats carry `chatID`."""
    root = obj(doc.head[0]) if doc.kind == "object" and doc.head else {}
    chats = obj(root.get("data")).get("chats")
    return isinstance(chats, list) and (
        not chats or any("chatID" in c or "chatTitle" in c for c in dicts(chats[:50]))
    )


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield each chat's questions and answers; tool calls, thinking and files are left out."""
    data = obj(obj(doc.head[0]).get("data"))
    folders = {
        f["id"]: first_str(f, "title", "name")
        for f in dicts(items(data.get("folders"))) if isinstance(f.get("id"), str)
    }
    for number, chat in enumerate(items(data.get("chats")), 1):
        if not isinstance(chat, dict):
            sink.skip(None, f"chat {number} is not an object")
            continue
        if not isinstance(chat.get("messages"), list):
            sink.skip(first_str(chat, "chatID", "id"), f"chat {number} has no messages list")
            continue
        meta: dict[str, Any] = {"format": NAME}
        if model := first_str(chat, "model"):
            meta["model"] = model
        if updated := try_time(chat.get("updatedAt")):
            meta["updated_at"] = to_iso(updated)
        if folder := folders.get(first_str(chat, "folderID") or ""):
            meta["folder"] = folder
        conv = sink.build(
            first_str(chat, "chatID", "id"),
            [t for m in dicts(items(chat.get("messages"))) for t in _turns(m)],
            title=first_str(chat, "chatTitle"),
            created_at=try_time(chat.get("createdAt")),
            metadata=meta,
        )
        if conv is not None:
            yield conv


def _turns(message: dict[str, Any]) -> list[Turn]:
    """One message's turn, or each model's answers to a question put to several."""
    if message.get("type") != MULTI:
        return [_turn(message)]
    return [
        _named(_turn(m), first_str(response, "model"))
        for response in dicts(items(message.get("responses")))
        for m in dicts(items(response.get("messages")))
    ]


def _turn(message: dict[str, Any]) -> Turn:
    role, kind = message.get("role"), message.get("type")
    if role not in ("user", "assistant") or (isinstance(kind, str) and kind in _NOT_SAID):
        return Turn(str(role or "tool"), "")  # system prompt, tool output, files, markers
    text = text_of(message.get("content"))
    when = try_time(message.get("createdAt"))
    return Turn(role, text, None, when, first_str(message, "uuid", "id"))


def _named(turn: Turn, model: str | None) -> Turn:
    """Name an answer by the model that gave it, when several models answered one question."""
    return replace(turn, name=model) if turn.role == "assistant" and model else turn
