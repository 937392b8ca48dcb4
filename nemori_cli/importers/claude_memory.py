"""What Claude keeps in its memory about the user: memories.json of a Claude.ai export.

Each record is one account's memory: `conversations_memory`, Claude's notes on the user in
markdown ("**Work context**" then "Arjun is a Senior Advisor at Acme. ..."), and
`project_memories`, its notes per project. The notes name the user; a sentence about them
is written as of "User" ("User is a Senior Advisor at Acme."), under "About me:", so that
offline extraction says it in the first person.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from nemori_cli.importers.base import Sink, Turn, first_str
from nemori_cli.importers.memory_names import as_of_user, most_named, pronouns_of_user
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation, stable_id

TITLE = "Claude memory"
PROJECT_TITLE = "Claude project memory"
_HEADING = re.compile(r"^\s*(?:#+\s.*|\*{1,2}[^*]+\*{1,2}:?|_{1,2}[^_]+_{1,2}:?)\s*$")
# "*Recent months* - Started a new role ...": a sub-heading that opens its paragraph
_LABEL = re.compile(r"^\s*(?:\*{1,2}[^*]+\*{1,2}|_{1,2}[^_]+_{1,2})\s*(?:[-–—:]\s*)?")
_EMPHASIS = re.compile(r"\*{1,2}([^*]+)\*{1,2}")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")
# the export's own name tells when it was made: "data-2025-10-06-00-55-16-batch-0000.zip"
_EXPORTED = re.compile(r"\bdata-(?P<day>\d{4}-\d{2}-\d{2})"
                       r"(?:-(?P<h>\d{2})-(?P<m>\d{2})-(?P<s>\d{2}))?")


def is_memory(record: Any) -> bool:
    """Whether a record of a Claude export is an account's memory, not a conversation."""
    return isinstance(record, dict) and "conversations_memory" in record


def memory_conversations(record: dict[str, Any], sink: Sink, source: str = ""
                         ) -> Iterator[Conversation]:
    """The account's memory of the user, and each project's, as conversations (dated when the
    export was made, if its file name says)."""
    account = first_str(record, "account_uuid") or ""
    notes = record.get("conversations_memory")
    when = exported_at(source)
    if isinstance(notes, str) and (about := about_user(notes)):
        turns = [Turn("user", f"About me:\n- {sentence}", None, when,
                      stable_id("memory", "claude", sentence)) for sentence in about]
        conv = sink.build(stable_id("memory", "claude", account), turns, title=TITLE,
                          created_at=when, metadata={"format": "claude", "source": "memory"})
        if conv is not None:
            yield conv
    projects = record.get("project_memories")
    for project, text in projects.items() if isinstance(projects, dict) else ():
        if isinstance(text, str) and text.strip():
            key = stable_id("memory", "claude", str(project))
            conv = sink.build(key, [Turn("assistant", text.strip(), None, when, key)],
                              title=PROJECT_TITLE, created_at=when,
                              metadata={"format": "claude", "source": "project memory",
                                        "project": str(project)})
            if conv is not None:
                yield conv


def exported_at(source: str) -> datetime | None:
    """When the export was made, from its file or folder name ("data-2025-10-06-00-55-16")."""
    m = _EXPORTED.search(source)
    if m is None:
        return None
    clock = f"T{m['h']}:{m['m']}:{m['s']}Z" if m["h"] else "T00:00:00Z"
    return try_time(m["day"] + clock)


def about_user(notes: str) -> list[str]:
    """The sentences of Claude's notes, headings left out, the user's name as "User" where a
    sentence opens on it, and the name itself said first ("User's name is Arjun.")."""
    lines = (_EMPHASIS.sub(r"\1", _LABEL.sub("", _BULLET.sub("", line)))
             for line in notes.splitlines() if line.strip() and not _HEADING.match(line))
    sentences = [s.strip() for line in lines for s in _SENTENCE_END.split(line) if s.strip()]
    name = most_named(sentences)
    if name is None:
        return sentences
    return [f"User's name is {name}.", *pronouns_of_user([as_of_user(s, name) for s in sentences])]
