"""Look through a source without importing it: what `ingest --dry-run` shows."""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from nemori_cli.importers.base import EmptySource, Skipped
from nemori_cli.importers.source import Source
from nemori_cli.models import to_iso


@dataclass(frozen=True)
class ScanReport:
    """What a source holds: format, counts, date range, and what would be skipped."""

    path: str
    format: str
    conversations: int
    messages: int
    first: datetime | None
    last: datetime | None
    skipped: tuple[Skipped, ...]
    sha256: str
    new_messages: int | None = None  # messages not imported yet (None: not compared)
    empty: str | None = None  # why importing it would fail: no conversation (EmptySource's words)

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "format": self.format,
            "conversations": self.conversations,
            "messages": self.messages,
            "first": to_iso(self.first),
            "last": to_iso(self.last),
            "skipped": [
                {"conversation_id": s.conversation_id, "reason": s.reason} for s in self.skipped
            ],
            "sha256": self.sha256,
            "new_messages": self.new_messages,
        }


def scan(source: Source, known: Mapping[str, Set[str]] | None = None) -> ScanReport:
    """Read every conversation of a source and count; writes nothing.

    With `known` (conversation id -> message ids already imported), also count the new messages.

    A file whose conversations are all skipped gives a report with none (not an error), so a
    dry run can show why, and `empty` says what importing it would fail with; in strict mode the
    first skip raises.
    """
    conversations = messages = new = 0
    first: datetime | None = None
    last: datetime | None = None
    empty: str | None = None
    try:
        for conv in source.conversations():
            conversations += 1
            messages += len(conv.messages)
            if known is not None:
                seen = known.get(conv.id, set())
                new += sum(m.id not in seen for m in conv.messages)
            dated = [m.timestamp for m in conv.messages if m.timestamp is not None]
            for when in dated or ([conv.created_at] if conv.created_at else []):
                first = when if first is None or when < first else first
                last = when if last is None or when > last else last
    except EmptySource as exc:
        empty = str(exc)
    return ScanReport(
        source.path, source.format, conversations, messages, first, last,
        tuple(source.skipped), source.sha256, None if known is None else new, empty,
    )
