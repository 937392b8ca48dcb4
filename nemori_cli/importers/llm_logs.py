"""The markdown that `llm logs` prints: `# <time>    conversation: <id> id: <id>` entries."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime

from nemori_cli.importers.base import Sink, Turn
from nemori_cli.importers.mdblocks import Fences
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation

_ENTRY = re.compile(
    r"^# (\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2})(?:\.\d+)?"
    r"(?:\s+conversation: (\S+)(?: id: (\S+))?)?\s*$"
)
_HEADING = re.compile(r"^#{2,3} (.+?)\s*$")
_MODEL = re.compile(r"^Model: \*\*(.+?)\*\*")
# Section headings that llm prints; any other heading is part of a prompt or response.
_SECTIONS = {
    "prompt", "prompt fragments", "options", "system", "system fragments", "schema", "tools",
    "tool results", "attachments", "reasoning", "response", "tool calls", "token usage",
}
_KEPT = {"prompt": "user", "response": "assistant"}
_NO_PROMPT = "-- none --"


class _Entry:
    """One prompt and response of an llm log."""

    def __init__(self, time: datetime | None, conv_id: str | None, response_id: str | None):
        self.time = time
        self.conv_id = conv_id
        self.response_id = response_id
        self.model: str | None = None
        self.sections: dict[str, list[str]] = {}


def matches(lines: list[str]) -> bool:
    """Recognise llm logs: an entry heading naming a conversation, and a Prompt section."""
    has_entry = any((m := _ENTRY.match(line)) and m.group(2) for line in lines)
    return has_entry and "## Prompt" in lines


def read(
    lines: list[str], sink: Sink, *, title: str | None = None
) -> Iterator[Conversation]:
    """Yield one conversation per conversation id, its entries in the order they appear."""
    groups: dict[str | None, list[_Entry]] = {}
    for entry in _entries(lines):
        groups.setdefault(entry.conv_id, []).append(entry)
    for conv_id, entries in groups.items():
        turns = []
        for entry in entries:
            rid = entry.response_id
            for section, role in _KEPT.items():
                text = "\n".join(entry.sections.get(section, [])).strip()
                if text == _NO_PROMPT:
                    text = ""
                turn_id = (rid if role == "assistant" else f"{rid}:prompt") if rid else None
                turns.append(Turn(role, text, None, entry.time, turn_id))
        models = sorted({e.model for e in entries if e.model})
        meta = {"format": "markdown", "dialect": "llm-logs"}
        if models:
            meta["model"] = ", ".join(models)
        conv = sink.build(
            conv_id, turns, title=title, created_at=entries[0].time, metadata=meta
        )
        if conv is not None:
            yield conv


def _entries(lines: list[str]) -> Iterator[_Entry]:
    entry: _Entry | None = None
    section: str | None = None
    fences = Fences()
    conv_id: str | None = None
    for index, line in enumerate(lines):
        head = _ENTRY.match(line)
        if head:  # entry headings are boundaries even after an unclosed fence
            if entry is not None:
                yield entry
            conv_id = head.group(2) or conv_id  # later entries of a --cid log omit it
            entry = _Entry(try_time(head.group(1)), conv_id, head.group(3))
            section = None
            fences.reset()
            continue
        if entry is None:
            continue
        if not fences.inside(line, index):
            heading = _HEADING.match(line)
            if heading and heading.group(1).lower() in _SECTIONS:
                section = heading.group(1).lower()
                continue
            if section == "tool calls" and line.strip() and not line.startswith((" ", "\t", "- ")):
                section = "response"  # the answer follows the list of tool calls
            if section is None and (model := _MODEL.match(line)):
                entry.model = model.group(1)
        if section is not None:
            entry.sections.setdefault(section, []).append(line)
    if entry is not None:
        yield entry
