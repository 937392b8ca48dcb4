"""ChatGPT data exports: conversations.json (and its shards), each a tree of messages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from nemori_cli.importers.base import (
    Broken,
    Sink,
    Turn,
    earliest,
    fill_times,
    first_str,
    normalize_role,
    obj,
)
from nemori_cli.importers.chatgpt_memory import MemoryNotes
from nemori_cli.importers.payload import JsonDoc, object_records
from nemori_cli.importers.timeparse import try_time
from nemori_cli.importers.tree import branch, latest_leaf
from nemori_cli.models import Conversation, stable_id, to_iso

NAME = "chatgpt"
DESCRIPTION = "ChatGPT data export: conversations.json, conversations-*.json shards, or the .zip"
INPUT = "json"

# Content the person never saw in the chat: reasoning, memory and custom-instruction context,
# tool output, browsing and errors.
_HIDDEN_TYPES = {
    "thoughts", "reasoning_recap", "user_editable_context", "model_editable_context",
    "execution_output", "system_error", "sonic_webpage", "computer_output",
}
# user_profile: a preamble for the model, then the user's words fenced after "User profile:"
# (older exports: after "... about themselves:"); newer ones label each field
_PROFILE_FENCE = re.compile(r"User profile:\s*```(.*?)```", re.DOTALL)
_PROFILE_PREAMBLE = re.compile(r"^The user provided the following information about themselves\W*")
_PROFILE_FIELD = re.compile(r"^\s*(?P<label>Preferred name|Role|Other Information|More about you)"
                            r"\s*:\s*(?P<value>\S.*)$", re.IGNORECASE)
_FREE_FIELDS = {"other information", "more about you"}
_CITATION = re.compile("\ue200[^\ue201]*\ue201")  # private-use markers around inline citations
# Pointers to uploaded or generated files, written where a part's text would be.
_ASSET = re.compile(r"^\s*(?:sediment|file-service)://\S*\s*$")


def matches(doc: JsonDoc) -> bool:
    """Recognise conversation objects with a `mapping` tree."""
    return doc.kind != "lines" and any(isinstance(r, dict) and "mapping" in r for r in doc.head)


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield each conversation's visible branch, then what the user told about themself in
    custom instructions ("What would you like ChatGPT to know about you?"), once per text, and
    what ChatGPT kept in its memory about them."""
    told: dict[str, datetime | None] = {}  # each profile text and the first chat it was in
    memory = MemoryNotes()
    for record in object_records(doc, sink, "conversation"):
        memory.add(record)
        conv_id = first_str(record, "conversation_id", "id")
        try:
            conv = _conversation(record, conv_id, sink)
        except Broken as exc:
            sink.skip(conv_id, str(exc))
            continue
        when = try_time(record.get("create_time"))
        for text in custom_profiles(record.get("mapping")):
            told[text] = earliest(told.get(text), when)
        if conv is not None:
            yield conv
    for text, when in told.items():
        key = stable_id("about-me", text)
        about = sink.build(key, [Turn("user", text, None, when, key)], created_at=when,
                           title="About me (ChatGPT custom instructions)",
                           metadata={"format": NAME, "source": "custom instructions"})
        if about is not None:
            yield about
    if (remembered := memory.conversation(sink)) is not None:
        yield remembered


def custom_profiles(mapping: Any) -> list[str]:
    """The texts the user wrote about themself in custom instructions, as a message of theirs."""
    nodes = mapping.values() if isinstance(mapping, dict) else ()
    contents = (obj(obj(obj(n).get("message")).get("content")) for n in nodes)
    raws = (c.get("user_profile") for c in contents
            if c.get("content_type") == "user_editable_context")
    return [text for raw in raws if isinstance(raw, str) and (text := profile_text(raw))]


def profile_text(raw: str) -> str:
    """The user's own words in a user_profile field, without ChatGPT's preamble; the newer
    fields ("Preferred name: ...", "Role: ...") as an "About me:" list."""
    if m := _PROFILE_FENCE.search(raw):
        raw = m[1]
    elif m := _PROFILE_PREAMBLE.match(raw):
        raw = raw[m.end() :]
    items, rest = [], []
    for line in raw.strip().splitlines():
        field = _PROFILE_FIELD.match(line)
        if field and field["label"].lower() not in _FREE_FIELDS:
            items.append(f"- {field['label']}: {field['value']}")
        elif line.strip():
            rest.append(field["value"] if field else line.strip())
    return "\n".join(["About me:", *items, "", *rest] if items else rest).strip()


def _conversation(record: dict[str, Any], conv_id: str | None, sink: Sink) -> Conversation | None:
    mapping = record.get("mapping")
    if not isinstance(mapping, dict) or not mapping:
        raise Broken("no message tree (mapping)")
    created = try_time(record.get("create_time"))
    leaf = record.get("current_node")
    if not (isinstance(leaf, str) and leaf in mapping):
        leaf = latest_leaf(mapping, lambda n: n.get("children"), _node_time)
    else:  # current_node can stop at a user message whose answer sits below it
        leaf = _newest_below(mapping, leaf)
    turns = [
        turn
        for key, node in _keyed(branch(mapping, leaf, lambda n: n.get("parent")))
        if (turn := _turn(node.get("message"), key)) is not None
    ]
    meta: dict[str, Any] = {"format": NAME}
    if updated := try_time(record.get("update_time")):
        meta["updated_at"] = to_iso(updated)
    if isinstance(record.get("default_model_slug"), str):
        meta["model"] = record["default_model_slug"]
    return sink.build(
        conv_id,
        fill_times(turns, created),
        title=record.get("title") if isinstance(record.get("title"), str) else None,
        created_at=created,
        metadata=meta,
    )


def _newest_below(mapping: dict[str, Any], node: str) -> str:
    """Follow children down from a node, taking the newest child at each fork."""
    seen = {node}
    while True:
        kids = mapping[node].get("children") if isinstance(mapping[node], dict) else None
        kids = [k for k in kids if isinstance(k, str) and k in mapping and k not in seen] \
            if isinstance(kids, list) else []
        if not kids:
            return node
        node = max(reversed(kids), key=lambda k: _node_time(obj(mapping[k])) or float("-inf"))
        seen.add(node)


def _keyed(path: list[Any]) -> Iterator[tuple[str | None, dict]]:
    for node in path:
        if isinstance(node, dict):
            key = node.get("id")
            yield (key if isinstance(key, str) else None), node


def _node_time(node: dict[str, Any]) -> float | None:
    message = node.get("message")
    when = message.get("create_time") if isinstance(message, dict) else None
    return float(when) if isinstance(when, int | float) else None


def _turn(message: Any, node_id: str | None) -> Turn | None:
    """Read one node's message; None for what the person did not see as a chat message."""
    if not isinstance(message, dict):
        return None
    author = obj(message.get("author"))
    meta = obj(message.get("metadata"))
    content = obj(message.get("content"))
    kind = content.get("content_type")
    kind = kind if isinstance(kind, str) else ""
    role = normalize_role(author.get("role"))
    if (
        role in (None, "tool", "system")
        or message.get("weight") == 0
        or meta.get("is_visually_hidden_from_conversation")
        or meta.get("is_user_system_message")
        or (message.get("recipient") or "all") != "all"
        or message.get("channel") == "analysis"
        or kind in _HIDDEN_TYPES
        or kind.startswith("tether_")
    ):
        return None
    text = _CITATION.sub("", _content_text(content, kind))
    name = author.get("name") if isinstance(author.get("name"), str) else None
    msg_id = first_str(message, "id") or node_id
    return Turn(role, text, name, try_time(message.get("create_time")), msg_id)


def _content_text(content: dict[str, Any], kind: str) -> str:
    parts = content.get("parts")
    if isinstance(parts, list):
        texts = [t for t in (_part(p) for p in parts) if t]
        return "\n".join(texts)
    text = content.get("text")
    return text if isinstance(text, str) else ""


def _part(part: Any) -> str:
    if isinstance(part, str):
        return "" if _ASSET.match(part) else part
    if not isinstance(part, dict):
        return ""
    kind = str(part.get("content_type") or "")
    if kind == "image_asset_pointer":
        return "[image]"
    text = part.get("text")
    return text if isinstance(text, str) else ""  # audio transcriptions carry their text
