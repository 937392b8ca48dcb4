"""Chatbox backups: `chat-sessions`, or `chat-sessions-list` with one `session:<id>` each."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nemori_cli.importers.base import (
    Sink,
    Turn,
    dicts,
    first_str,
    in_time_order,
    items,
    normalize_role,
    obj,
    text_of,
)
from nemori_cli.importers.payload import JsonDoc
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation

NAME = "chatbox"
DESCRIPTION = "Chatbox data backup (chatbox-exported-data-*.json) or its config.json"
INPUT = "json"

SESSIONS = "chat-sessions"  # every session, whole (Chatbox before 1.12, and its config.json)
SESSION_LIST = "chat-sessions-list"  # the sessions' names and ids; each stored on its own
SESSION_KEY = "session:"
# What Chatbox shows while an answer is on its way: nothing was said yet.
_PLACEHOLDERS = {"...", "...."}


def matches(doc: JsonDoc) -> bool:
    """Recognise Chatbox's store by its session keys."""
    root = obj(doc.head[0]) if doc.kind == "object" and doc.head else {}
    if isinstance(root.get(SESSION_LIST), list):
        return True
    if isinstance(root.get(SESSIONS), list):
        return True
    return any(
        k.startswith(SESSION_KEY) and isinstance(obj(v).get("messages"), list)
        for k, v in root.items()
    )


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield each chat session: its earlier threads, then its current one, in time order.

    Image-generation sessions are not chat; system prompts, reasoning, tool calls and the
    compaction summaries Chatbox writes for itself are left out.
    """
    root = obj(doc.head[0])
    for number, session in enumerate(_sessions(root), 1):
        if not isinstance(session, dict):
            sink.skip(None, f"session {number} is not an object")
            continue
        if session.get("type") == "picture":
            continue
        if not isinstance(session.get("messages"), list):
            sink.skip(first_str(session, "id"), f"session {number} has no messages list")
            continue
        messages = in_time_order(_messages(session), _time)
        meta: dict[str, Any] = {"format": NAME}
        models = [m for m in (first_str(x, "model") for x in messages) if m]
        if model := (models[-1] if models else first_str(obj(session.get("settings")), "modelId")):
            meta["model"] = model
        conv = sink.build(
            first_str(session, "id"),
            [_turn(m) for m in messages],
            title=first_str(session, "name"),
            created_at=next(filter(None, map(_time, messages)), None),
            metadata=meta,
        )
        if conv is not None:
            yield conv


def _sessions(root: dict[str, Any]) -> Iterator[Any]:
    """Each session once: those the list names in its order, other stored ones, then the old
    single key's (which newer versions keep after moving its sessions out)."""
    seen: set[str] = set()
    listed = [first_str(obj(m), "id") for m in items(root.get(SESSION_LIST))]
    keys = [SESSION_KEY + i for i in listed if i] + [k for k in root if k.startswith(SESSION_KEY)]
    for key in dict.fromkeys(keys):
        if key in root:
            seen.add(key[len(SESSION_KEY):])
            yield root[key]
    for session in items(root.get(SESSIONS)):
        if first_str(obj(session), "id") not in seen:
            yield session


def _messages(session: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages of the session's earlier threads (kept when the context was cleared or a
    new thread started), then those of its current one."""
    threads = [t.get("messages") for t in dicts(items(session.get("threads")))]
    return [m for group in (*threads, session.get("messages")) for m in dicts(items(group))]


def _time(message: dict[str, Any]) -> Any:
    return try_time(message.get("timestamp"))


def _turn(message: dict[str, Any]) -> Turn:
    role = normalize_role(message.get("role"))
    if role not in ("user", "assistant") or message.get("isSummary") is True:
        return Turn(role or "tool", "")
    text = text_of(message.get("contentParts"))  # newer: text, image, reasoning, tool parts
    if not text.strip() or text.strip() in _PLACEHOLDERS:
        content = message.get("content")  # older: the text itself
        text = content if isinstance(content, str) else ""
    if text.strip() in _PLACEHOLDERS:
        text = ""
    return Turn(role, text, None, _time(message), first_str(message, "id"))
