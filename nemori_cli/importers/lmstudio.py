"""LM Studio conversations: <ms>.conversation.json with messages[].versions[currentlySelected]."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from typing import Any

from nemori_cli.importers.base import Sink, Turn, dicts, first_str, items, obj
from nemori_cli.importers.payload import JsonDoc
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation

NAME = "lmstudio"
DESCRIPTION = "LM Studio conversation (*.conversation.json, selected versions)"
INPUT = "json"

_SUFFIXES = (".conversation.json", ".json")
_ROLES = ("user", "assistant")


def matches(doc: JsonDoc) -> bool:
    """Recognise an object whose messages carry `versions` and `currentlySelected`."""
    root = obj(doc.head[0]) if doc.kind == "object" and doc.head else {}
    messages = root.get("messages")
    if not isinstance(messages, list):
        return False
    if not messages:  # a conversation opened and left empty still has LM Studio's own keys
        return "createdAt" in root and bool({"tokenCount", "lastUsedModel"} & root.keys())
    return any(
        isinstance(m.get("versions"), list) and "currentlySelected" in m for m in dicts(messages)
    )


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield the conversation as shown: each message's selected version, answers without thoughts.

    The system prompt is a setting, not chat; files attached to a message are not read.
    """
    root = obj(doc.head[0])
    turns: list[Turn] = []
    for number, message in enumerate(items(root.get("messages")), 1):
        version = _selected(message)
        if version is None:
            sink.skip(None, f"message {number}: no versions to read")
            continue
        turns.append(_turn(version))
    meta: dict[str, Any] = {"format": NAME}
    if model := first_str(obj(root.get("lastUsedModel")), "identifier"):
        meta["model"] = model
    conv = sink.build(
        _conversation_id(doc.source),
        turns,
        title=first_str(root, "name"),
        created_at=try_time(root.get("createdAt")),
        metadata=meta,
    )
    if conv is not None:
        yield conv


def _selected(message: Any) -> dict[str, Any] | None:
    """The version on screen: `currentlySelected`, kept within range (the first when unset)."""
    versions = items(obj(message).get("versions"))
    if not versions:
        return None
    index = obj(message).get("currentlySelected")
    index = index if isinstance(index, int) and not isinstance(index, bool) else 0
    version = versions[max(0, min(index, len(versions) - 1))]
    return version if isinstance(version, dict) else None


def _turn(version: dict[str, Any]) -> Turn:
    role = version.get("role")
    if role not in _ROLES:
        return Turn(str(role or "system"), "")  # system and tool messages are not chat
    if version.get("type") == "multiStep" or "steps" in version:
        blocks = [s for s in dicts(items(version.get("steps"))) if _is_answer(s)]
        text = "\n".join(t for t in (_text(b.get("content")) for b in blocks) if t)
    else:
        text = _text(version.get("content"))
    name = first_str(obj(version.get("senderInfo")), "senderName") if role == "assistant" else None
    return Turn(role, text, name)


def _is_answer(step: dict[str, Any]) -> bool:
    """A step that is part of the answer: a content block not styled as thinking.

    Tool calls, tool status and debug info come as other step types.
    """
    return step.get("type") == "contentBlock" and obj(step.get("style")).get("type") != "thinking"


def _text(content: Any) -> str:
    """Join the text parts; structural ones (markup around thoughts) and files are left out."""
    return "\n".join(
        p["text"] for p in dicts(items(content))
        if p.get("type") == "text" and isinstance(p.get("text"), str) and not p.get("isStructural")
    )


def _conversation_id(source: str) -> str | None:
    """LM Studio names a conversation's file after its creation (`1733139474125`): its id."""
    name = posixpath.basename(source.replace("\\", "/"))
    for suffix in _SUFFIXES:
        if name.lower().endswith(suffix) and len(name) > len(suffix):
            return f"lmstudio-{name[: -len(suffix)]}"
    return None
