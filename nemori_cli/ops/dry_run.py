"""`nemori ingest --dry-run`: describe each file without storing anything."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from nemori_cli.errors import NemoriError
from nemori_cli.importers import ScanReport, expand_paths, open_source, scan
from nemori_cli.models import to_iso
from nemori_cli.ops.export import is_export, read_export


@dataclass(frozen=True)
class ExportScan:
    """What a nemori export holds."""

    path: str
    conversations: int
    messages: int
    episodes: int
    facts: int
    first: datetime | None
    last: datetime | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "format": "nemori-export",
            "conversations": self.conversations,
            "messages": self.messages,
            "episodes": self.episodes,
            "facts": self.facts,
            "first": to_iso(self.first),
            "last": to_iso(self.last),
            "skipped": [],
        }


@dataclass(frozen=True)
class ScanError:
    """A file (or path) that cannot be read, and why."""

    path: str
    error: str

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "error": self.error}


DryRunReport = ScanReport | ExportScan | ScanError


def scan_paths(
    paths: Sequence[str],
    *,
    format: str | None = None,
    done_files: Set[str] = frozenset(),
    known: Mapping[str, Set[str]] | None = None,
) -> list[DryRunReport]:
    """Scan each file without storing anything; a file that cannot be read reports its error.

    With what the user imported (file hashes, message ids per conversation), each report says
    how many of its messages are new (0 for a file imported before).
    """
    reports: list[DryRunReport] = []
    for path in paths:
        try:
            files = expand_paths([path])
        except NemoriError as exc:
            reports.append(ScanError(path, str(exc)))
            continue
        for f in files:
            try:
                if is_export(f):
                    reports.append(scan_export(f))
                    continue
                source = open_source(f, format=format)
                report = scan(source, None if source.sha256 in done_files else known)
                if report.empty:  # the import fails on it: say so, never "already imported"
                    reports.append(ScanError(f, report.empty))
                    continue
                if source.sha256 in done_files:
                    report = replace(report, new_messages=0)
                reports.append(report)
            except NemoriError as exc:
                reports.append(ScanError(f, str(exc)))
    return reports


def scan_export(path: str) -> ExportScan:
    """Describe a nemori export the way scan() describes a chat file."""
    _, episodes, facts = read_export(path)
    times = sorted(e.timestamp for e in episodes if e.timestamp is not None)
    return ExportScan(
        path=path,
        conversations=len({e.conversation_id for e in episodes}),
        messages=sum(len(e.message_ids) for e in episodes),
        episodes=len(episodes),
        facts=len(facts),
        first=times[0] if times else None,
        last=times[-1] if times else None,
    )
