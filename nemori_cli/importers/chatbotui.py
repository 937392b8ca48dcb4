"""chatbot-ui exports: {version, history: [conversations], folders, prompts}."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nemori_cli.importers.base import (
    Sink,
    Turn,
    dicts,
    first_str,
    items,
    normalize_role,
    obj,
    text_of,
)
from nemori_cli.importers.payload import JsonDoc, object_records
from nemori_cli.models import Conversation

NAME = "chatbotui"
DESCRIPTION = "chatbot-ui export ({version, history, folders, prompts}); it stores no times"
INPUT = "json"


def matches(doc: JsonDoc) -> bool:
    """Recognise the export object, or the bare list of conversations of version 1."""
    if doc.kind == "object":
        root = obj(doc.head[0]) if doc.head else {}
        return isinstance(root.get("history"), list) and bool(
            {"folders", "prompts", "version"} & root.keys()
        )
    return doc.kind == "array" and any(_is_conversation(r) for r in doc.head)


def _is_conversation(record: Any) -> bool:
    return (
        isinstance(record, dict)
        and isinstance(record.get("messages"), list)
        and "prompt" in record
        and isinstance(record.get("model"), dict)
    )


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield each conversation's messages; system prompts and prompt templates are not chat."""
    if doc.kind == "object":
        records: Any = dicts(items(obj(doc.head[0]).get("history")))
    else:
        records = object_records(doc, sink, "conversation")
    for record in records:
        model = obj(record.get("model"))
        meta: dict[str, Any] = {"format": NAME}
        if name := first_str(model, "id", "name"):
            meta["model"] = name
        conv = sink.build(
            first_str(record, "id"),
            [_turn(m) for m in items(record.get("messages"))],
            title=first_str(record, "name", "title"),
            metadata=meta,
        )
        if conv is not None:
            yield conv


def _turn(message: Any) -> Turn:
    if not isinstance(message, dict):
        return Turn("user", "")
    role = normalize_role(message.get("role"))
    if role not in ("user", "assistant"):
        return Turn(role or "user", "")
    return Turn(role, text_of(message.get("content")))
