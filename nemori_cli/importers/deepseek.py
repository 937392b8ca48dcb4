"""DeepSeek data exports: conversations.json, each a tree of nodes holding typed fragments."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nemori_cli.importers.base import Broken, Sink, Turn, dicts, first_str, items, obj
from nemori_cli.importers.payload import JsonDoc, object_records
from nemori_cli.importers.timeparse import try_time
from nemori_cli.importers.tree import branch, latest_leaf
from nemori_cli.models import Conversation, to_iso

NAME = "deepseek"
DESCRIPTION = "DeepSeek data export: conversations.json (follows the newest branch)"
INPUT = "json"

# Fragment types that are chat (TEMPLATE_RESPONSE is the notice shown for a filtered answer);
# THINK (reasoning), SEARCH and READ_LINK (web results), TIP and tool fragments are not.
_ROLES = {"REQUEST": "user", "RESPONSE": "assistant", "TEMPLATE_RESPONSE": "assistant"}


def matches(doc: JsonDoc) -> bool:
    """Recognise records with a `mapping` tree and DeepSeek's `inserted_at` times."""
    return doc.kind != "lines" and any(_is_record(r) for r in doc.head)


def _is_record(record: Any) -> bool:
    if not isinstance(record, dict) or not isinstance(record.get("mapping"), dict):
        return False
    if "current_node" in record or "create_time" in record:  # ChatGPT's
        return False
    return "inserted_at" in record or any(
        isinstance(obj(n).get("message"), dict) and "fragments" in n["message"]
        for n in list(record["mapping"].values())[:20]
    )


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield each conversation along its newest branch, without reasoning or search results."""
    for record in object_records(doc, sink, "conversation"):
        conv_id = first_str(record, "id")
        try:
            turns = _turns(record, conv_id)
        except Broken as exc:
            sink.skip(conv_id, str(exc))
            continue
        meta: dict[str, Any] = {"format": NAME}
        models = (obj(n.get("message")).get("model") for n in dicts(record["mapping"].values()))
        if model := next((m for m in models if isinstance(m, str) and m), None):
            meta["model"] = model
        if updated := try_time(record.get("updated_at")):
            meta["updated_at"] = to_iso(updated)
        conv = sink.build(
            conv_id,
            turns,
            title=record.get("title") if isinstance(record.get("title"), str) else None,
            created_at=try_time(record.get("inserted_at")),
            metadata=meta,
        )
        if conv is not None:
            yield conv


def _turns(record: dict[str, Any], conv_id: str | None) -> list[Turn]:
    mapping = record.get("mapping")
    if not isinstance(mapping, dict) or not mapping:
        raise Broken("no message tree (mapping)")
    # No current node is recorded: the branch shown last is the one with the newest leaf.
    leaf = latest_leaf(mapping, lambda n: [_key(c) for c in items(n.get("children"))], _time)
    turns: list[Turn] = []
    asked = 0  # messages so far, for old exports whose messages carry no fragment types
    for key, node in mapping_path(mapping, leaf):
        message = obj(node.get("message"))
        if not message:
            continue  # the root, and nodes whose message is null
        msg_id = f"{conv_id}:{key}" if conv_id else key
        when = try_time(message.get("inserted_at"))
        if "fragments" in message:
            turns.extend(_fragment_turns(message, msg_id, when))
        else:
            role = "user" if asked % 2 == 0 else "assistant"
            text = message.get("content")
            turns.append(Turn(role, text if isinstance(text, str) else "", None, when, msg_id))
        asked += 1
    return turns


def mapping_path(mapping: dict[str, Any], leaf: str | None) -> list[tuple[str, dict[str, Any]]]:
    """The (key, node) pairs from the root down to the leaf."""
    keys = {id(node): key for key, node in mapping.items()}
    path = branch(mapping, leaf, lambda n: _key(n.get("parent")))
    return [(keys[id(n)], n) for n in path if isinstance(n, dict)]


def _key(value: Any) -> str | None:
    """A node link: node ids are strings, though a link may be written as a number."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value if isinstance(value, str) else None


def _fragment_turns(message: dict[str, Any], msg_id: str, when: Any) -> list[Turn]:
    """One turn per role present in the message's fragments (a node usually holds one)."""
    texts: dict[str, list[str]] = {}
    for fragment in dicts(items(message.get("fragments"))):
        role = _ROLES.get(str(fragment.get("type") or "").upper())
        content = fragment.get("content")
        if role and isinstance(content, str):
            texts.setdefault(role, []).append(content)
    return [
        Turn(role, "\n\n".join(parts), None, when, msg_id if i == 0 else f"{msg_id}:{role}")
        for i, (role, parts) in enumerate(texts.items())
    ]


def _time(node: dict[str, Any]) -> float | None:
    when = try_time(obj(node.get("message")).get("inserted_at"))
    return when.timestamp() if when else None
