"""LobeChat exports: the config file ({exportType, state, version}) or the data ({data, mode})."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from nemori_cli.importers.base import (
    Sink,
    Turn,
    dicts,
    first_str,
    in_time_order,
    items,
    obj,
    text_of,
)
from nemori_cli.importers.payload import JsonDoc
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation

NAME = "lobechat"
DESCRIPTION = "LobeChat export: config file ({exportType, state, version}) or data ({data, mode})"
INPUT = "json"

INBOX = "lobechat-inbox"  # the default chat ("Just Chat"), which belongs to no session
_TABLES = ("messages", "sessions", "topics")
_NO_MESSAGES = "no messages: an export of agents or settings holds none"
_LOADING = "..."  # what an answer holds until its first words (and keeps when it failed)


@dataclass
class Tables:
    """What an export holds, in one shape for every version: messages and what names them."""

    messages: list[Any] = field(default_factory=list)
    sessions: dict[str, str | None] = field(default_factory=dict)  # id -> title
    topics: dict[str, dict[str, Any]] = field(default_factory=dict)
    threads: dict[str, dict[str, Any]] = field(default_factory=dict)


def matches(doc: JsonDoc) -> bool:
    """Recognise the config file's `state` or the data export's `data` tables."""
    root = obj(doc.head[0]) if doc.kind == "object" and doc.head else {}
    state = root.get("state")
    if isinstance(state, dict) and "version" in root:
        return "exportType" in root or any(key in state for key in _TABLES)
    data = root.get("data")
    return (
        isinstance(data, dict)
        and isinstance(data.get("messages"), list)
        and ("schemaHash" in root or "mode" in root or isinstance(data.get("topics"), list))
    )


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield one conversation per topic (or thread); a session's messages outside any topic
    make one more, as do the inbox's."""
    root = obj(doc.head[0])
    tables = _tables(root)
    if not tables.messages:
        held = obj(root.get("data")) or obj(root.get("state"))
        listed = isinstance(held.get("messages", []), list)
        sink.skip(None, _NO_MESSAGES if listed else "its messages are not a list")
    groups: dict[str, list[dict[str, Any]]] = {}
    for number, message in enumerate(tables.messages, 1):
        if not isinstance(message, dict):
            sink.skip(None, f"message {number} is not an object")
            continue
        groups.setdefault(_place(message), []).append(message)
    for place, messages in groups.items():
        messages = in_time_order(messages, _time)
        conv = sink.build(
            place,
            [_turn(m) for m in messages],
            title=_title(place, messages[0], tables),
            created_at=_created(place, tables) or next(filter(None, map(_time, messages)), None),
            metadata=_metadata(place, messages, tables),
        )
        if conv is not None:
            yield conv


def _tables(root: dict[str, Any]) -> Tables:
    """Read the export's tables: the data export's rows, or the config file's state."""
    data = root.get("data")
    if isinstance(data, dict):
        return _data_tables(data)
    state = obj(root.get("state"))
    sessions = state.get("sessions")
    if isinstance(sessions, dict):  # version 1 (2023): messages and topics inside each session
        return _nested_tables(sessions)
    return Tables(
        messages=items(state.get("messages")),
        sessions={
            s["id"]: first_str(obj(s.get("meta")), "title")
            for s in dicts(items(sessions)) if isinstance(s.get("id"), str)
        },
        topics=_by_id(state.get("topics")),
    )


def _nested_tables(sessions: dict[str, Any]) -> Tables:
    tables = Tables()
    for key, session in sessions.items():
        session = obj(session)
        sid = first_str(session, "id") or key
        tables.sessions[sid] = first_str(obj(session.get("meta")), "title")
        for chat in dicts(obj(session.get("chats")).values()):
            tables.messages.append({"sessionId": sid, **chat})
        for topic in dicts(obj(session.get("topics")).values()):
            if isinstance(topic.get("id"), str):
                tables.topics[topic["id"]] = {"sessionId": sid, **topic}
    return tables


def _data_tables(data: dict[str, Any]) -> Tables:
    """The database's rows; a session is titled by its agent (what LobeChat shows), else its
    own title."""
    agents = {a: first_str(row, "title") for a, row in _by_id(data.get("agents")).items()}
    named = {
        link["sessionId"]: agents.get(first_str(link, "agentId") or "")
        for link in dicts(items(data.get("agentsToSessions")))
        if isinstance(link.get("sessionId"), str)
    }
    return Tables(
        messages=items(data.get("messages")),
        sessions={
            sid: named.get(sid) or first_str(row, "title")
            for sid, row in _by_id(data.get("sessions")).items()
        },
        topics=_by_id(data.get("topics")),
        threads=_by_id(data.get("threads")),
    )


def _by_id(rows: Any) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in dicts(items(rows)) if isinstance(r.get("id"), str)}


def _place(message: dict[str, Any]) -> str:
    """The conversation a message belongs to: its thread, topic, session, or the inbox."""
    for key in ("threadId", "topicId"):
        if place := first_str(message, key):
            return place
    session = first_str(message, "sessionId")
    return INBOX if session in (None, "inbox") else session


def _title(place: str, first: dict[str, Any], tables: Tables) -> str | None:
    named = tables.threads.get(place) or tables.topics.get(place)
    if named is not None and (title := first_str(named, "title")):
        return title
    return tables.sessions.get(first_str(first, "sessionId") or "")


def _created(place: str, tables: Tables) -> Any:
    named = tables.threads.get(place) or tables.topics.get(place) or {}
    return try_time(named.get("createdAt", named.get("createAt")))


def _metadata(place: str, messages: list[dict[str, Any]], tables: Tables) -> dict[str, Any]:
    meta: dict[str, Any] = {"format": NAME}
    models = [m for m in (first_str(x, "model", "fromModel") for x in messages) if m]
    if models:
        meta["model"] = models[-1]
    agent = tables.sessions.get(first_str(messages[0], "sessionId") or "")
    if agent and (place in tables.topics or place in tables.threads):
        meta["agent"] = agent
    return meta


def _time(message: dict[str, Any]) -> Any:
    return try_time(message.get("createdAt", message.get("createAt")))


def _turn(message: dict[str, Any]) -> Turn:
    """Read one message; system prompts, tool and plugin output, and error notices are not chat."""
    role = message.get("role")
    if role not in ("user", "assistant") or message.get("error"):
        return Turn(str(role or "tool"), "")
    text = text_of(message.get("content"))
    if role == "assistant" and text.strip() == _LOADING:
        text = ""
    return Turn(role, text, None, _time(message), first_str(message, "id"))
