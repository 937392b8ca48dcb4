"""What ChatGPT saved about the user in its memory, gathered across one export.

Two traces of it are in conversations.json: the memory list each chat was given (a
`model_editable_context` message, "1. [2024-05-01]. Lives in Lisbon.") and each memory write
(an assistant message to `bio`, "User is vegetarian."). The newest list is what ChatGPT still
remembered; a write older than it that it lacks was deleted or reworded since, and stays out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from nemori_cli.importers.base import Sink, Turn, earliest, obj
from nemori_cli.importers.memory_names import as_of_user, stated_name
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation, stable_id

TITLE = "ChatGPT memory"
# "1. [2024-05-01]. Lives in Lisbon." (older lists have no date)
_LIST_ITEM = re.compile(r"^\s*\d{1,4}[.)]\s*(?:\[(?P<date>\d{4}-\d{2}-\d{2})\]\.?\s*)?"
                        r"(?P<text>\S.*?)\s*$")
# a write that asks to forget rather than to remember
_FORGET = re.compile(r"^(?:forget|remove|delete|erase|disregard|clear|unsave)\b", re.IGNORECASE)


@dataclass
class MemoryNotes:
    """The memory lists and memory writes of every chat read so far."""

    lists: list[tuple[datetime | None, list[tuple[str, datetime | None]]]] = field(
        default_factory=list)
    writes: list[tuple[str, datetime | None]] = field(default_factory=list)

    def add(self, record: dict[str, Any]) -> None:
        """Take the memory list and memory writes of one conversation record."""
        began = try_time(record.get("create_time"))
        mapping = record.get("mapping")
        for node in mapping.values() if isinstance(mapping, dict) else ():
            message = obj(obj(node).get("message"))
            content = obj(message.get("content"))
            if content.get("content_type") == "model_editable_context":
                items = list_items(content.get("model_set_context"))
                if items:
                    self.lists.append((began, items))
            elif message.get("recipient") == "bio" and obj(message.get("author")).get(
                    "role") == "assistant":
                when = try_time(message.get("create_time")) or began
                self.writes.extend((text, when) for text in written(content))

    def remembered(self) -> list[tuple[str, datetime | None]]:
        """Each memory ChatGPT still held, once, with when it was first seen, oldest first."""
        first: dict[str, datetime | None] = {}
        texts: dict[str, str] = {}  # a memory's wording: the last one seen
        for text, when in self._held():
            key = text.casefold()
            first[key], texts[key] = earliest(first.get(key), when), text
        return sorted(((texts[k], when) for k, when in first.items()),
                      key=lambda item: item[1] or datetime.max.replace(tzinfo=UTC))

    def _held(self) -> Iterable[tuple[str, datetime | None]]:
        dated = [(when, items) for when, items in self.lists if when is not None]
        if not dated:  # no list to check against (or none dated): every write stands
            yield from ((text, when) for text, when in self.writes)
            yield from (item for _, items in self.lists for item in items)
            return
        newest, kept = max(dated, key=lambda entry: entry[0])
        held = {text.casefold() for text, _ in kept}
        for when, items in self.lists:  # an item is as old as the first list holding it
            yield from ((text, stamp or when) for text, stamp in items
                        if text.casefold() in held)
        yield from ((text, when) for text, when in self.writes
                    if text.casefold() in held or (when is not None and when > newest))

    def conversation(self, sink: Sink) -> Conversation | None:
        """One conversation of the memories, each a message of the user's, or None."""
        memories = self.remembered()
        if not memories:
            return None
        key = stable_id("memory", "chatgpt")
        name = stated_name([text for text, _ in memories])  # "User's name is Sam." -> "Sam ..."
        turns = [Turn("user", f"About me:\n- {as_of_user(text, name)}", None, when,
                      stable_id("memory", text)) for text, when in memories]
        return sink.build(key, turns, title=TITLE, created_at=memories[0][1],
                          metadata={"format": "chatgpt", "source": "memory"})


def list_items(raw: Any) -> list[tuple[str, datetime | None]]:
    """The numbered items of a memory list with the date each was saved, if it says."""
    if not isinstance(raw, str):
        return []
    items = []
    for line in raw.splitlines():
        if m := _LIST_ITEM.match(line):
            day = try_time(m["date"]) if m["date"] else None
            items.append((m["text"], day))
    return items


def written(content: dict[str, Any]) -> list[str]:
    """The memories one write to `bio` saves: each line of its text, not a request to forget."""
    parts = content.get("parts")
    raw = "\n".join(p for p in parts if isinstance(p, str)) if isinstance(parts, list) \
        else content.get("text")
    lines = (line.strip().lstrip("-*• ").strip() for line in str(raw or "").splitlines())
    # a one-word write is the tool's control word ("ignore"), not a memory
    return [line for line in lines if len(line.split()) > 1 and not _FORGET.match(line)
            and line[0] not in "{["]
