"""BetterChatGPT exports: {chats: [{id, title, messages, config}], folders, version}."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from nemori_cli.importers.base import Sink, Turn, first_str, items, obj, text_of
from nemori_cli.importers.payload import BadRecord, JsonDoc
from nemori_cli.models import Conversation

NAME = "betterchatgpt"
DESCRIPTION = "BetterChatGPT export ({chats, folders, version}); it stores no times"
INPUT = "json"

_ROLES = ("user", "assistant")
_CONFIG_KEYS = {"max_tokens", "temperature", "presence_penalty", "top_p", "frequency_penalty"}


def matches(doc: JsonDoc) -> bool:
    """Recognise the export object, or the bare list of chats that older versions wrote."""
    if doc.kind == "object":
        root = obj(doc.head[0]) if doc.head else {}
        return (
            isinstance(root.get("chats", []), list)  # optional in version 1
            and isinstance(root.get("folders"), dict)
            and "version" in root
        )
    return doc.kind == "array" and any(is_chat(r) for r in doc.head)


def is_chat(record: Any) -> bool:
    """Tell whether a record is a BetterChatGPT chat: messages, a title and its settings."""
    if not isinstance(record, dict) or not isinstance(record.get("messages"), list):
        return False
    config = record.get("config")
    settings = isinstance(config, dict) and bool(_CONFIG_KEYS & config.keys())
    return "title" in record and (settings or isinstance(record.get("titleSet"), bool))


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield each chat's user and assistant messages; system prompts are settings, not chat."""
    folders: dict[str, Any] | None = None  # older lists name a chat's folder themselves
    records: Iterable[Any] = doc.records()
    if doc.kind == "object":
        root = obj(doc.head[0])
        folders, records = obj(root.get("folders")), items(root.get("chats"))
    for number, record in enumerate(records, 1):
        if isinstance(record, BadRecord):
            sink.skip(None, f"{record.where}: {record.reason}")
            continue
        if not isinstance(obj(record).get("messages"), list):
            sink.skip(first_str(obj(record), "id"), f"chat {number} has no messages list")
            continue
        meta: dict[str, Any] = {"format": NAME}
        if model := first_str(obj(record.get("config")), "model"):
            meta["model"] = model
        if folder := _folder_name(folders, record.get("folder")):
            meta["folder"] = folder
        conv = sink.build(
            first_str(record, "id"),
            [_turn(m) for m in record["messages"]],
            title=first_str(record, "title"),
            metadata=meta,
        )
        if conv is not None:
            yield conv


def _folder_name(folders: dict[str, Any] | None, folder: Any) -> str | None:
    """The folder's name: an id into `folders` (version 1), or the name itself (older lists)."""
    if not isinstance(folder, str) or not folder.strip():
        return None
    return folder if folders is None else first_str(obj(folders.get(folder)), "name")


def _turn(message: Any) -> Turn:
    role = obj(message).get("role")
    if role not in _ROLES:
        return Turn(str(role or "system"), "")  # the system message is the chat's prompt
    return Turn(role, text_of(obj(message).get("content")))
