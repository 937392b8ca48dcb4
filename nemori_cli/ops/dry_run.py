"""`nemori ingest --dry-run`: describe each file without storing anything."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import replace
from typing import Any

from nemori_cli.errors import NemoriError
from nemori_cli.models import to_iso


def scan_paths(
    paths: Sequence[str],
    *,
    format: str | None = None,
    done_files: Set[str] = frozenset(),
    known: Mapping[str, Set[str]] | None = None,
) -> list[Any]:
    """Scan each file without storing anything; a file that cannot be read reports its error.

    With what the user imported (file hashes, message ids per conversation), each report says
    how many of its messages are new (0 for a file imported before).
    """
    from nemori_cli.importers import expand_paths, open_source, scan
    from nemori_cli.ops.export import is_export

    reports: list[Any] = []
    for path in paths:
        try:
            files = expand_paths([path])
        except NemoriError as exc:
            reports.append({"path": path, "error": str(exc)})
            continue
        for f in files:
            try:
                if is_export(f):
                    reports.append(_scan_export(f))
                    continue
                source = open_source(f, format=format)
                report = scan(source, None if source.sha256 in done_files else known)
                if source.sha256 in done_files:
                    report = replace(report, new_messages=0)
                reports.append(report)
            except NemoriError as exc:
                reports.append({"path": f, "error": str(exc)})
    return reports


def _scan_export(path: str) -> dict[str, Any]:
    """Describe a nemori export the way scan() describes a chat file."""
    from nemori_cli.ops.export import read_export

    _, episodes, facts = read_export(path)
    times = sorted(e.timestamp for e in episodes if e.timestamp is not None)
    return {
        "path": path,
        "format": "nemori-export",
        "conversations": len({e.conversation_id for e in episodes}),
        "messages": sum(len(e.message_ids) for e in episodes),
        "episodes": len(episodes),
        "facts": len(facts),
        "first": to_iso(times[0]) if times else None,
        "last": to_iso(times[-1]) if times else None,
        "skipped": [],
    }
