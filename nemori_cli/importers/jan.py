"""Jan (janhq/jan) threads: threads/<id>/messages.jsonl, titled by the thread.json beside it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import orjson

from nemori_cli.importers.base import Sink, Turn, first_str, in_time_order, items, obj, text_of
from nemori_cli.importers.payload import BadRecord, JsonDoc
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation, to_iso

NAME = "jan"
DESCRIPTION = "Jan thread (threads/<id>/messages.jsonl, titled by thread.json beside it)"
INPUT = "json"

MESSAGES_FILE = "messages.jsonl"
THREAD_FILE = "thread.json"
_THREAD_SIZE = 4 * 1024 * 1024  # thread.json holds a title and settings; larger is not one
_ROLES = {"user": "user", "assistant": "assistant"}
_THREAD_ONLY = (
    "Jan's thread.json holds a thread's title, not its messages: import the thread's folder "
    "or its messages.jsonl"
)


def matches(doc: JsonDoc) -> bool:
    """Recognise JSONL of Jan messages, or a thread.json named on its own."""
    if doc.kind == "lines":
        return any(_is_message(r) for r in doc.head)
    root = obj(doc.head[0]) if doc.kind == "object" and doc.head else {}
    return root.get("object") == "thread" and isinstance(root.get("assistants"), list)


def _is_message(record: Any) -> bool:
    return (
        isinstance(record, dict)
        and isinstance(record.get("thread_id"), str)
        and isinstance(record.get("content"), list)
        and "role" in record
        and (record.get("object") == "thread.message" or "created_at" in record)
    )


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield the thread's messages in time order; errors, reasoning and tool calls are not chat."""
    if doc.kind != "lines":
        sink.skip(first_str(obj(doc.head[0]), "id"), _THREAD_ONLY)
        return
    records = []
    for number, record in enumerate(doc.records(), 1):
        if isinstance(record, BadRecord):
            sink.skip(None, f"{record.where}: {record.reason}")
        elif not _is_message(record):
            sink.skip(None, f"line {number}: not a Jan message (thread_id, role, content)")
        else:
            records.append(record)
    records = in_time_order(records, _time)
    thread = _thread_beside(doc.source)
    thread_id = next((r["thread_id"] for r in records if r["thread_id"].strip()), None)
    meta: dict[str, Any] = {"format": NAME}
    if model := _model(thread):
        meta["model"] = model
    if updated := try_time(thread.get("updated")):
        meta["updated_at"] = to_iso(updated)
    conv = sink.build(
        thread_id or first_str(thread, "id"),
        [_turn(r) for r in records],
        title=first_str(thread, "title"),
        created_at=try_time(thread.get("created")) or next(filter(None, map(_time, records)), None),
        metadata=meta,
    )
    if conv is not None:
        yield conv


def _thread_beside(source: str) -> dict[str, Any]:
    """The thread.json in the same folder as a messages.jsonl on disk (empty when there is none)."""
    if os.path.basename(source) != MESSAGES_FILE:
        return {}
    path = os.path.join(os.path.dirname(source), THREAD_FILE)
    try:
        if os.path.getsize(path) > _THREAD_SIZE:
            return {}
        with open(path, "rb") as fh:
            return obj(orjson.loads(fh.read()))
    except (OSError, orjson.JSONDecodeError):
        return {}


def _model(thread: dict[str, Any]) -> str | None:
    """The thread's model: `model.id` in newer Jan, the first assistant's model in older."""
    model = first_str(obj(thread.get("model")), "id")
    if model:
        return model
    assistant = next(iter(items(thread.get("assistants"))), None)
    return first_str(obj(obj(assistant).get("model")), "id")


def _time(message: dict[str, Any]) -> Any:
    # Jan writes 0 for "not set"; try_time refuses it as out of range.
    return try_time(message.get("created_at")) or try_time(message.get("completed_at"))


def _turn(message: dict[str, Any]) -> Turn:
    raw = message.get("role")
    role = _ROLES.get(raw.strip().lower()) if isinstance(raw, str) else None
    if role is None or message.get("status") == "error":
        return Turn(role or "tool", "")  # tool output and error notices are not chat
    # newer Jan streams a model's reasoning into the answer's text: assemble drops it
    text = text_of(message.get("content"))
    return Turn(role, text, None, _time(message), first_str(message, "id"))
