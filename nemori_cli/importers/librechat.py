"""LibreChat conversation exports: messages nested through `children` or linked by parent id."""

from __future__ import annotations

import re
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
from nemori_cli.importers.timeparse import try_time
from nemori_cli.importers.tree import branch, latest_leaf
from nemori_cli.models import Conversation

NAME = "librechat"
DESCRIPTION = "LibreChat conversation export (JSON; nested or flat, follows the latest branch)"
INPUT = "json"

_MAX_DEPTH = 10_000  # nested exports: deeper than this is not a real conversation
# Older LibreChat kept a reasoning model's thoughts in `text`: ":::thinking\n...\n:::".
_THINKING = re.compile(r"^[ \t]*:::thinking\b.*?^[ \t]*:::[ \t]*$\n?", re.S | re.M)


def matches(doc: JsonDoc) -> bool:
    """Recognise objects with `conversationId` and a `messages` list."""
    return doc.kind != "lines" and any(
        isinstance(r, dict) and "conversationId" in r and isinstance(r.get("messages"), list)
        for r in doc.head
    )


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield each conversation along the branch that ends with the newest message."""
    for record in object_records(doc, sink, "conversation"):
        conv_id = first_str(record, "conversationId")
        messages = _flatten(items(record.get("messages")))
        options = obj(record.get("options"))
        meta: dict[str, Any] = {"format": NAME}
        model = first_str(options, "model") or first_str(record, "model", "endpoint")
        if model:
            meta["model"] = model
        conv = sink.build(
            conv_id,
            [_turn(m) for m in _shown(messages)],
            title=first_str(record, "title"),
            created_at=try_time(record.get("createdAt")) or _first_time(messages),
            metadata=meta,
        )
        if conv is not None:
            yield conv


def _flatten(roots: list[Any]) -> list[dict[str, Any]]:
    """Every message, parents before children (nested exports keep replies in `children`)."""
    out: list[dict[str, Any]] = []
    stack: list[tuple[dict[str, Any], int]] = [(m, 0) for m in reversed(list(dicts(roots)))]
    while stack:
        message, depth = stack.pop()
        out.append(message)
        if depth < _MAX_DEPTH:
            kids = list(dicts(items(message.get("children"))))
            stack.extend((k, depth + 1) for k in reversed(kids))
    return out


def _shown(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The path from the root to the most recent leaf; file order when nothing is linked."""
    nodes = {m["messageId"]: m for m in messages if isinstance(m.get("messageId"), str)}
    children: dict[str, list[str]] = {}
    for key, m in nodes.items():
        parent = m.get("parentMessageId")
        if isinstance(parent, str) and parent in nodes:
            children.setdefault(parent, []).append(key)
    if not children:
        return messages
    leaf = latest_leaf(nodes, lambda m: children.get(m.get("messageId")), _time)
    return list(branch(nodes, leaf, lambda m: m.get("parentMessageId")))


def _time(message: dict[str, Any]) -> float | None:
    when = try_time(message.get("createdAt"))
    return when.timestamp() if when else None


def _first_time(messages: list[dict[str, Any]]) -> Any:
    return next((t for m in messages if (t := try_time(m.get("createdAt")))), None)


def _turn(message: dict[str, Any]) -> Turn:
    """Read one message; error notices, reasoning (`think`) and tool calls are not chat."""
    if message.get("error") is True:
        return Turn("assistant", "")
    mine = message.get("isCreatedByUser")
    if isinstance(mine, bool):
        role = "user" if mine else "assistant"
    else:
        sender = message.get("sender")
        role = normalize_role(sender) or "assistant"
    content = message.get("content")
    text = text_of(content, image="") if isinstance(content, list) else ""
    if not text.strip() and isinstance(message.get("text"), str):
        text = _THINKING.sub("", message["text"])
    when = try_time(message.get("createdAt"))
    return Turn(role, text, None, when, first_str(message, "messageId"))
