"""The nemori JSON contract: a message list, {messages}, {conversations}, or JSONL of either."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from nemori_cli.importers.base import Broken, Sink, Turn, first_str, normalize_role, text_of
from nemori_cli.importers.payload import BadRecord, JsonDoc
from nemori_cli.importers.timeparse import parse_time
from nemori_cli.models import Conversation

NAME = "nemori"
DESCRIPTION = "nemori JSON: a message list, {messages}, {conversations: [...]}, or JSONL of either"
INPUT = "json"

TurnReader = Callable[[Any, int], Turn]


def matches(doc: JsonDoc) -> bool:
    """Recognise the layouts of the contract."""
    return layout_ok(doc)


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield the conversations of a nemori JSON document."""
    return read_layout(doc, sink, read_turn, NAME)


def read_turn(raw: Any, index: int) -> Turn:
    """Read one message of the contract: {role, content, name?, timestamp?, id?}."""
    number = index + 1
    if not isinstance(raw, dict):
        raise Broken(f"message {number} is not an object")
    name = first_str(raw, "name", "speaker")
    role = raw.get("role") or speaker_role(raw)
    if isinstance(role, str) and role.strip():
        role = normalize_role(role) or role.strip()
    elif name:
        role = "user"  # a named speaker without a role is one of the people talking
    else:
        raise Broken(f"message {number} has no role")
    content = raw.get("content")
    if content is not None and not isinstance(content, str | list):
        raise Broken(f"message {number}: content is neither text nor a list of parts")
    try:
        timestamp = parse_time(raw.get("timestamp"))
    except (ValueError, OverflowError):
        raise Broken(f"message {number}: unreadable timestamp {raw.get('timestamp')!r}") from None
    return Turn(role, text_of(content), name, timestamp, first_str(raw, "id"))


def is_message(record: Any) -> bool:
    """Tell whether a record looks like one message."""
    if not isinstance(record, dict) or "messages" in record:
        return False
    return "role" in record or ("content" in record and ("name" in record or "speaker" in record))


def is_conversation(record: Any) -> bool:
    """Tell whether a record looks like one conversation with a message list."""
    return isinstance(record, dict) and isinstance(record.get("messages"), list)


def layout_ok(doc: JsonDoc) -> bool:
    """Tell whether a document has one of the contract's shapes."""
    if doc.kind == "object":
        obj = doc.head[0]
        return isinstance(obj, dict) and (
            isinstance(obj.get("conversations"), list) or isinstance(obj.get("messages"), list)
        )
    return bool(doc.head) and all(is_message(r) or is_conversation(r) for r in doc.head)


def read_layout(doc: JsonDoc, sink: Sink, turn: TurnReader, fmt: str) -> Iterator[Conversation]:
    """Walk the contract's shapes, reading each message with `turn`."""
    if doc.kind == "object":
        obj = doc.head[0]
        convs = obj.get("conversations") if isinstance(obj, dict) else None
        if isinstance(convs, list):
            for conv in convs:
                yield from _conversation(conv, sink, turn, fmt)
        else:
            yield from _conversation(obj, sink, turn, fmt)
        return
    loose: list[Any] = []  # message records: together they are one conversation
    for record in doc.records():
        if isinstance(record, BadRecord):
            sink.skip(None, f"{record.where}: {record.reason}")
        elif is_conversation(record):
            yield from _conversation(record, sink, turn, fmt)
        else:
            loose.append(record)
    if loose:
        yield from _conversation({"messages": loose}, sink, turn, fmt)


def _conversation(raw: Any, sink: Sink, turn: TurnReader, fmt: str) -> Iterator[Conversation]:
    if not isinstance(raw, dict):
        sink.skip(None, "a conversation that is not an object")
        return
    conv_id = first_str(raw, "id", "conversation_id")
    try:
        messages = raw.get("messages")
        if not isinstance(messages, list):
            raise Broken("no messages list")
        turns = [turn(m, i) for i, m in enumerate(messages)]
        try:
            created = parse_time(raw.get("created_at"))
        except (ValueError, OverflowError):
            raise Broken(f"unreadable created_at {raw.get('created_at')!r}") from None
    except Broken as exc:
        sink.skip(conv_id, str(exc))
        return
    title = raw.get("title") if isinstance(raw.get("title"), str) else None
    conv = sink.build(conv_id, turns, title=title, created_at=created, metadata={"format": fmt})
    if conv is not None:
        yield conv


def speaker_role(raw: dict[str, Any]) -> Any:
    """Who wrote a message without a `role`: exporters write `author` ("user" / "ai", or
    ChatGPT's {role}) or `sender` ("human" / "assistant")."""
    author = raw.get("author", raw.get("sender"))
    return author.get("role") if isinstance(author, dict) else author
