"""Google Takeout, Gemini in Workspace: `Conversation History/conversation_<n>.txt` (JSON)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nemori_cli.importers.base import Sink, Turn, dicts, first_str, items, obj
from nemori_cli.importers.payload import JsonDoc
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation, to_iso


def matches(doc: JsonDoc) -> bool:
    """Recognise a side-panel conversation: an object with `conversation_turns`."""
    first = doc.head[0] if doc.head and doc.kind == "object" else None
    return isinstance(first, dict) and isinstance(first.get("conversation_turns"), list)


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield the file's one conversation: user turns' prompts, system turns' answers."""
    record = obj(doc.head[0]) if doc.head else {}
    created = try_time(record.get("creation_time"))
    # The file holds no id; its creation time stays the same as the conversation grows.
    conv_id = f"gemini-workspace-{to_iso(created)}" if created else None
    listed = dicts(items(record.get("conversation_turns")))
    turns = [_turn(t, conv_id, n) for n, t in enumerate(listed)]
    meta: dict[str, Any] = {"format": "gemini", "product": "Gemini in Workspace"}
    if updated := try_time(record.get("last_modification_time")):
        meta["updated_at"] = to_iso(updated)
    conv = sink.build(
        conv_id, turns, title=first_str(record, "title"), created_at=created, metadata=meta
    )
    if conv is not None:
        yield conv


def _turn(item: dict[str, Any], conv_id: str | None, position: int) -> Turn:
    user, system = obj(item.get("user_turn")), obj(item.get("system_turn"))
    turn = user or system
    index = first_str(turn, "turn_index") or str(position)
    msg_id = f"{conv_id}:{index}" if conv_id else None
    when = try_time(turn.get("turn_last_modified"))
    if user:
        prompt = user.get("prompt")
        return Turn("user", prompt if isinstance(prompt, str) else "", None, when, msg_id)
    # An answer is a list of results, each with the sentence shown above it (`preamble`).
    parts = [
        text.strip()
        for result in dicts(items(system.get("text")))
        for text in (result.get("preamble"), result.get("data"))
        if isinstance(text, str) and text.strip()
    ]
    return Turn("assistant", "\n".join(parts), None, when, msg_id)
