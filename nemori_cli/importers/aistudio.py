"""Google AI Studio prompt files: runSettings, systemInstruction and chunkedPrompt.chunks."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from nemori_cli.importers.base import (
    Sink,
    Turn,
    dicts,
    first_str,
    items,
    normalize_role,
    obj,
)
from nemori_cli.importers.payload import JsonDoc, object_records
from nemori_cli.models import Conversation, stable_id

NAME = "aistudio"
DESCRIPTION = "Google AI Studio prompt file (chunkedPrompt); times are the file's own"
INPUT = "json"


def matches(doc: JsonDoc) -> bool:
    """Recognise an object with `chunkedPrompt` (and usually `runSettings`)."""
    return doc.kind == "object" and isinstance(obj(doc.head[0]).get("chunkedPrompt"), dict)


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield the prompt's chat: user and model chunks in order, without thoughts."""
    when = _file_time(sink.path)
    for record in object_records(doc, sink, "prompt"):
        prompt = obj(record.get("chunkedPrompt"))
        turns = [_turn(c) for c in items(prompt.get("chunks"))]
        # What was typed but not sent: kept at the place it will take once sent, so a later
        # export of the same prompt does not add it twice.
        turns += [_turn(p) for p in dicts(items(prompt.get("pendingInputs")))][:1]
        first = next((t.content for t in turns if t.content.strip()), "")
        conv_id = stable_id("aistudio", os.path.basename(sink.path), first)
        meta: dict[str, Any] = {"format": NAME, "time": "file modification time"}
        model = first_str(obj(record.get("runSettings")), "model")
        if model:
            meta["model"] = model.removeprefix("models/")
        conv = sink.build(
            conv_id, turns, title=_title(sink.path), created_at=when, metadata=meta
        )
        if conv is not None:
            yield conv


def _turn(chunk: Any) -> Turn:
    """Read a chunk; thoughts, images and files carry no chat text."""
    if not isinstance(chunk, dict) or chunk.get("isThought"):
        return Turn("assistant", "")
    role = normalize_role(chunk.get("role")) or "user"
    text = chunk.get("text")
    if not isinstance(text, str):  # streamed chunks keep their text in parts
        text = "".join(
            p["text"] for p in dicts(items(chunk.get("parts")))
            if isinstance(p.get("text"), str) and not p.get("thought")
        )
    return Turn(role, text)


def _file_time(path: str) -> datetime | None:
    """The file's modification time: prompt files hold no times of their own."""
    try:
        return datetime.fromtimestamp(os.stat(path).st_mtime, UTC)
    except (OSError, ValueError, OverflowError):
        return None


def _title(path: str) -> str | None:
    """AI Studio names a prompt file after the prompt's title."""
    stem, ext = os.path.splitext(os.path.basename(path))
    if path == "-" or ext.lower() == ".zip":
        return None
    return (stem if ext.lower() == ".json" else stem + ext) or None
