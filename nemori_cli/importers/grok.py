"""Grok (xAI) data exports: prod-grok-backend.json, conversations with their responses."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nemori_cli.importers.base import Sink, Turn, dicts, first_str, items, normalize_role, obj
from nemori_cli.importers.payload import JsonDoc
from nemori_cli.importers.timeparse import try_time
from nemori_cli.importers.tree import branch, latest_leaf
from nemori_cli.models import Conversation, to_iso

NAME = "grok"
DESCRIPTION = "Grok (xAI) data export: prod-grok-backend.json (follows the latest branch)"
INPUT = "json"


def matches(doc: JsonDoc) -> bool:
    """Recognise `conversations[]` items holding `conversation` and `responses`."""
    return any(_is_item(r) for r in _items_of(doc, head=True))


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield each conversation along its latest branch, without thinking traces."""
    for number, item in enumerate(_items_of(doc, head=False), 1):
        if not isinstance(item, dict):
            sink.skip(None, f"conversation {number} is not an object")
            continue
        conv = obj(item.get("conversation"))
        conv_id = first_str(conv, "id", "conversation_id")
        responses = [obj(r.get("response")) or r for r in dicts(items(item.get("responses")))]
        turns = [_turn(r) for r in _shown(responses)]
        meta: dict[str, Any] = {"format": NAME}
        if updated := try_time(conv.get("modify_time")):
            meta["updated_at"] = to_iso(updated)
        model = next((m for r in responses if (m := first_str(r, "model"))), None)
        if model:
            meta["model"] = model
        built = sink.build(
            conv_id,
            turns,
            title=conv.get("title") if isinstance(conv.get("title"), str) else None,
            created_at=try_time(conv.get("create_time")),
            metadata=meta,
        )
        if built is not None:
            yield built


def _items_of(doc: JsonDoc, *, head: bool) -> list[Any] | Iterator[Any]:
    if doc.kind == "object":
        root = obj(doc.head[0]) if doc.head else {}
        return items(root.get("conversations"))
    if doc.kind == "array":
        return doc.head if head else doc.records()
    return []


def _is_item(item: Any) -> bool:
    return isinstance(item, dict) and "responses" in item and "conversation" in item


def _shown(responses: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The responses in order; where they branch, the path to the most recent leaf."""
    if not any(_id(r.get("parent_response_id")) for r in responses):
        return responses
    nodes = {key: r for r in responses if (key := _id(r.get("_id")))}
    children: dict[str, list[str]] = {}
    for key, r in nodes.items():
        parent = _id(r.get("parent_response_id"))
        if parent:
            children.setdefault(parent, []).append(key)
    leaf = latest_leaf(nodes, lambda r: children.get(_id(r.get("_id")) or ""), _time)
    return list(branch(nodes, leaf, lambda r: _id(r.get("parent_response_id"))))


def _id(value: Any) -> str | None:
    """A response id: a string, or MongoDB's {"$oid": ...}."""
    if isinstance(value, dict):
        value = value.get("$oid")
    return value if isinstance(value, str) and value else None


def _time(response: dict[str, Any]) -> float | None:
    when = try_time(response.get("create_time"))
    return when.timestamp() if when else None


def _turn(response: dict[str, Any]) -> Turn:
    """Read one response; its thinking trace, search results and attachments are not chat.

    Only the person is `human`: answers are `assistant`, `ASSISTANT` or a model's name
    (`grok-3`).
    """
    sender = response.get("sender")
    role = normalize_role(sender) or ("assistant" if isinstance(sender, str) and sender else "")
    text = response.get("message")
    return Turn(
        role or "user",
        text if isinstance(text, str) and role else "",
        None,
        try_time(response.get("create_time")),
        _id(response.get("_id")) or first_str(response, "response_id", "id"),
    )
