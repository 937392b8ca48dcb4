"""Open WebUI chat exports: chat.history.messages, a tree with parentId and currentId."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from nemori_cli.importers.base import (
    Broken,
    Sink,
    Turn,
    dicts,
    first_str,
    normalize_role,
    obj,
    text_of,
)
from nemori_cli.importers.payload import JsonDoc, object_records
from nemori_cli.importers.timeparse import try_time
from nemori_cli.importers.tree import branch, latest_leaf
from nemori_cli.models import Conversation, to_iso

NAME = "openwebui"
DESCRIPTION = "Open WebUI chat export (one chat or all chats; follows the shown branch)"
INPUT = "json"

# Collapsed blocks that Open WebUI writes into answers: model reasoning and tool calls (chats
# saved before it folded reasoning into <details> keep the model's own <think> block, which
# assemble drops)
_DETAILS = re.compile(
    r'<details\s+type="(?:reasoning|tool_calls|code_interpreter)"[^>]*>.*?</details>\s*', re.S
)


def matches(doc: JsonDoc) -> bool:
    """Recognise chat records whose `chat` holds a history tree or a message list."""
    first = doc.head[0] if doc.head else None
    if doc.kind == "lines" or not isinstance(first, dict):
        return False
    chat = obj(first.get("chat")) or first
    history = chat.get("history")
    return isinstance(history, dict) and isinstance(history.get("messages"), dict) or (
        chat is not first and isinstance(chat.get("messages"), list)
    )


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield each chat along the branch that was on screen (currentId up to the root)."""
    for record in object_records(doc, sink, "chat"):
        chat = obj(record.get("chat")) or record
        conv_id = first_str(record, "id") or first_str(chat, "id")
        try:
            turns = [_turn(m) for m in _shown_messages(chat)]
        except Broken as exc:
            sink.skip(conv_id, str(exc))
            continue
        meta: dict[str, Any] = {"format": NAME}
        if updated := try_time(record.get("updated_at")):
            meta["updated_at"] = to_iso(updated)
        created = try_time(record.get("created_at")) or try_time(chat.get("timestamp"))
        conv = sink.build(
            conv_id,
            turns,
            title=first_str(record, "title") or first_str(chat, "title"),
            created_at=created,
            metadata=meta,
        )
        if conv is not None:
            yield conv


def _shown_messages(chat: dict[str, Any]) -> list[dict[str, Any]]:
    history = obj(chat.get("history"))
    nodes = history.get("messages")
    if isinstance(nodes, dict) and nodes:
        leaf = history.get("currentId")
        if not (isinstance(leaf, str) and leaf in nodes):
            leaf = latest_leaf(nodes, lambda n: n.get("childrenIds"), _time)
        return list(dicts(branch(nodes, leaf, lambda n: n.get("parentId"))))
    linear = chat.get("messages")
    if isinstance(linear, list):
        return list(dicts(linear))
    raise Broken("no history or messages")


def _time(message: dict[str, Any]) -> float | None:
    when = message.get("timestamp")
    return float(when) if isinstance(when, int | float) else None


def _turn(message: dict[str, Any]) -> Turn:
    raw_role = message.get("role")
    role = normalize_role(raw_role) or (raw_role if isinstance(raw_role, str) else "")
    if not role or role == "tool":
        return Turn(role, "")  # tool output is traffic between the model and its tools
    text = _DETAILS.sub("", text_of(message.get("content")))
    return Turn(role, text, None, try_time(message.get("timestamp")), first_str(message, "id"))
