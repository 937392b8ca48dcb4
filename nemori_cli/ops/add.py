"""Add conversations held in memory (message dicts, a chat document) as ingest adds files."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from nemori_cli.errors import UsageError
from nemori_cli.importers import open_bytes
from nemori_cli.models import check_category, to_iso, utcnow
from nemori_cli.ops.ingest import IngestRun
from nemori_cli.ops.run_summary import IngestSummary
from nemori_cli.parts import Parts
from nemori_cli.pipeline.note import NoteExtractor


def add_messages(
    parts: Parts,
    messages: Sequence[Mapping[str, Any]],
    *,
    user: str | None = None,
    conversation_id: str | None = None,
    title: str | None = None,
) -> IngestSummary:
    """Add one conversation of OpenAI-style message dicts; messages stored before add nothing.

    The messages are read by the nemori JSON importer, so ids and validation are those of
    `nemori ingest` on the same messages in a file.
    """
    if isinstance(messages, str | bytes | Mapping) or not isinstance(messages, Sequence):
        raise UsageError("messages: give a list of message dicts ({role, content, ...})")
    doc: dict[str, Any] = {"messages": list(messages)}
    if conversation_id:
        doc["id"] = conversation_id
    if title:
        doc["title"] = title
    try:
        data = orjson.dumps(doc)
    except TypeError as exc:
        raise UsageError(f"messages: {exc}") from None
    return add_document(parts, data, user=user, format="nemori")


def add_document(
    parts: Parts,
    data: str | bytes,
    *,
    user: str | None = None,
    format: str | None = None,
    strict: bool = False,
) -> IngestSummary:
    """Add the conversations of a chat document held in memory, in any format ingest reads."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    source = open_bytes(raw, format=format, strict=strict)
    return IngestRun(parts, parts.user_id(user), facts=True).add(source)


def add_note(
    parts: Parts, text: str, *, user: str | None = None, category: str | None = None
) -> IngestSummary:
    """Remember a note from the user, dated now: an episode, and a fact (in category if given).

    The extractor's facts are kept when it finds some in the note; otherwise the note itself
    becomes the fact (its category guessed when none is given), traced to the note's episode.
    """
    if not text.strip():
        raise UsageError("the note is empty")
    check_category(category)
    message = {"role": "user", "content": text.strip(), "timestamp": to_iso(utcnow())}
    data = orjson.dumps({"messages": [message]})
    source = open_bytes(data, format="nemori", strict=False)
    extractor = NoteExtractor(parts.extractor, category)
    return IngestRun(parts, parts.user_id(user), facts=True, extractor=extractor).add(source)
