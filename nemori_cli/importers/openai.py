"""OpenAI-style chat messages: [{role, content}], {messages: [...]}, fine-tuning JSONL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nemori_cli.importers import nemori
from nemori_cli.importers.base import Broken, Sink, Turn, first_str, normalize_role, text_of
from nemori_cli.importers.payload import JsonDoc
from nemori_cli.models import Conversation

NAME = "openai"
DESCRIPTION = "OpenAI-style message lists ({role, content} with text parts), plain or JSONL"
INPUT = "json"

_OPENAI_KEYS = {"tool_calls", "tool_call_id", "function_call", "refusal", "audio"}
_OPENAI_ROLES = {"developer", "tool", "function"}
_REQUEST_KEYS = {"model", "tools", "functions", "temperature", "parallel_tool_calls"}
_NEMORI_KEYS = {"timestamp", "id", "speaker"}


def matches(doc: JsonDoc) -> bool:
    """Recognise message lists that carry OpenAI-only fields and none of nemori's."""
    if not nemori.layout_ok(doc):
        return False
    convs, messages = _sample(doc)
    if any(_NEMORI_KEYS & m.keys() for m in messages):
        return False
    if any({"id", "title", "conversations"} & c.keys() for c in convs):
        return False
    return any(_REQUEST_KEYS & c.keys() for c in convs) or any(map(_openai_message, messages))


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield the conversations of OpenAI-style message lists."""
    return nemori.read_layout(doc, sink, read_turn, NAME)


def read_turn(raw: Any, index: int) -> Turn:
    """Read one chat message; tool traffic is dropped, text parts joined, images marked."""
    if not isinstance(raw, dict):
        raise Broken(f"message {index + 1} is not an object")
    role = raw.get("role")
    if not isinstance(role, str) or not role.strip():
        raise Broken(f"message {index + 1} has no role")
    role = normalize_role(role) or role.strip()
    if role == "tool":
        return Turn(role, "")  # tool results are traffic between the model and its tools
    text = text_of(raw.get("content"))
    if not text.strip() and isinstance(raw.get("refusal"), str):
        text = raw["refusal"]
    return Turn(role, text, first_str(raw, "name"))


def _openai_message(message: dict[str, Any]) -> bool:
    role = message.get("role")
    if _OPENAI_KEYS & message.keys() or (isinstance(role, str) and role in _OPENAI_ROLES):
        return True
    content = message.get("content")
    return isinstance(content, list) and any(isinstance(p, dict) and "type" in p for p in content)


def _sample(doc: JsonDoc) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the conversation objects and messages among the first records."""
    convs: list[dict[str, Any]] = []
    messages: list[dict[str, Any]] = []
    records = doc.head
    if doc.kind == "object" and isinstance(doc.head[0].get("conversations"), list):
        convs.append(doc.head[0])
        records = doc.head[0]["conversations"][:50]
    for record in records:
        if nemori.is_conversation(record):
            convs.append(record)
            messages.extend(m for m in record["messages"][:50] if isinstance(m, dict))
        elif isinstance(record, dict):
            messages.append(record)
    return convs, messages
