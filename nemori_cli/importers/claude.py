"""Claude.ai data exports: conversations.json with chat_messages (old and new layout)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from nemori_cli.importers.base import (
    Broken,
    Sink,
    Turn,
    dicts,
    fill_times,
    first_str,
    in_time_order,
    items,
    normalize_role,
)
from nemori_cli.importers.claude_memory import is_memory, memory_conversations
from nemori_cli.importers.payload import JsonDoc, object_records
from nemori_cli.importers.timeparse import try_time
from nemori_cli.importers.tree import branch
from nemori_cli.models import Conversation, to_iso

NAME = "claude"
DESCRIPTION = (
    "Claude.ai data export: conversations.json (old and new layout), memories.json, the .zip, "
    "or the manifest-*.json of a multi-part download"
)
INPUT = "json"

_THINKING = re.compile(r"<antThinking>.*?(?:</antThinking>|\Z)\s*", re.S)
_ARTIFACT = re.compile(r"<antArtifact\b([^>]*)>(.*?)(?:</antArtifact>|\Z)", re.S)
_TITLE_ATTR = re.compile(r"""\btitle=(?:"([^"]*)"|'([^']*)')""")
# What the export writes into `text` in place of blocks it cannot render.
_PLACEHOLDER = re.compile(
    r"(?:```\s*\n)?This block is not supported on your current device yet\.(?:\s*\n```)?"
)


def matches(doc: JsonDoc) -> bool:
    """Recognise conversation objects with `chat_messages` (or memories.json's records)."""
    return doc.kind != "lines" and any(
        isinstance(r, dict) and ("chat_messages" in r or is_memory(r)) for r in doc.head
    )


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield each conversation, its messages' text blocks, artifacts and attachment text (and
    what Claude keeps in its memory about the user, from memories.json)."""
    for record in object_records(doc, sink, "conversation"):
        if is_memory(record):
            yield from memory_conversations(record, sink, doc.source)
            continue
        conv_id = first_str(record, "uuid", "id")
        try:
            messages = record.get("chat_messages")
            if not isinstance(messages, list):
                raise Broken("no chat_messages list")
            leaf = record.get("current_leaf_message_uuid")  # claude.ai's own JSON has it
            turns = [_turn(m) for m in _shown(list(dicts(messages)), leaf)]
        except Broken as exc:
            sink.skip(conv_id, str(exc))
            continue
        meta: dict[str, Any] = {"format": NAME}
        if updated := try_time(record.get("updated_at")):
            meta["updated_at"] = to_iso(updated)
        created = try_time(record.get("created_at"))
        conv = sink.build(
            conv_id,
            fill_times(turns, created),  # newer exports may leave a message's time out
            title=record.get("name") if isinstance(record.get("name"), str) else None,
            created_at=created,
            metadata=meta,
        )
        if conv is not None:
            yield conv


def _shown(messages: list[dict[str, Any]], current: Any = None) -> list[dict[str, Any]]:
    """Keep one branch where edits or retries forked the chat: the one on screen when the
    conversation names it (`current_leaf_message_uuid`), else the one ending last."""
    parents = [m.get("parent_message_uuid") for m in messages]
    linked = [p for p in parents if isinstance(p, str)]
    if len(linked) == len(set(linked)):  # nobody has two children: one straight line
        return in_time_order(messages, lambda m: try_time(m.get("created_at")))
    by_id = {m["uuid"]: m for m in messages if isinstance(m.get("uuid"), str)}
    leaf = current if isinstance(current, str) and current in by_id else None
    leaf = leaf or next((k for k in reversed(by_id) if k not in set(linked)), None)
    return list(branch(by_id, leaf, lambda m: m.get("parent_message_uuid")))


def _turn(message: dict[str, Any]) -> Turn:
    sender = message.get("sender")
    role = normalize_role(sender) or (sender if isinstance(sender, str) else "")
    if not role:
        return Turn("user", "")  # no sender: nobody to attribute it to
    text = _blocks_text(message.get("content"))
    if not text.strip() and isinstance(message.get("text"), str):
        text = clean(_PLACEHOLDER.sub("", message["text"]))
    for attachment in dicts(items(message.get("attachments"))):
        extracted = attachment.get("extracted_content")
        if isinstance(extracted, str) and extracted.strip():
            label = first_str(attachment, "file_name") or "file"
            text = f"{text}\n\n[attachment: {label}]\n{extracted.strip()}"
    when = try_time(message.get("created_at"))
    return Turn(role, text, None, when, first_str(message, "uuid", "id"))


def _blocks_text(blocks: Any) -> str:
    """Join text blocks and artifacts; thinking, tool calls and tool results are dropped."""
    if not isinstance(blocks, list):
        return ""
    parts = []
    for block in dicts(blocks):
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            parts.append(clean(block["text"]))
        elif kind == "tool_use" and block.get("name") == "artifacts":
            parts.append(_artifact(block.get("input")))
    return "\n\n".join(p for p in parts if p.strip())


def _artifact(spec: Any) -> str:
    if not isinstance(spec, dict):
        return ""
    title = first_str(spec, "title", "id") or "untitled"
    body = first_str(spec, "content", "new_str") or ""
    return f"[artifact: {title}]\n{body}".strip()


def clean(text: str) -> str:
    """Strip <antThinking> sections; turn <antArtifact> tags into a marker and their text."""
    text = _THINKING.sub("", text)
    return _ARTIFACT.sub(_artifact_tag, text).strip()


def _artifact_tag(m: re.Match[str]) -> str:
    found = _TITLE_ATTR.search(m.group(1))
    title = (found.group(1) or found.group(2)) if found else "untitled"
    return f"[artifact: {title}]\n{m.group(2).strip()}"
