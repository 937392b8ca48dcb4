"""Derived stores that cannot be read: moved aside under a dated name, never deleted."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

BROKEN = ".broken-"


def broken_name(path: Path, now: datetime | None = None) -> Path:
    """The name a broken store is kept under: `<name>.broken-<UTC time>` beside it."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    candidate = path.with_name(f"{path.name}{BROKEN}{stamp}")
    n = 1
    while candidate.exists():  # two in the same second: keep both
        n += 1
        candidate = path.with_name(f"{path.name}{BROKEN}{stamp}-{n}")
    return candidate


def move_aside(path: Path, now: datetime | None = None) -> Path | None:
    """Rename a broken file or folder out of the way; return where it went (None: nothing)."""
    if not path.exists():
        return None
    target = broken_name(path, now)
    os.replace(path, target)
    return target


def kept_aside(root: Path) -> list[Path]:
    """Broken stores kept under a data dir (for doctor to mention), oldest name first."""
    if not root.is_dir():
        return []
    found = []
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            if BROKEN in name:
                found.append(Path(folder) / name)
        dirs[:] = [d for d in dirs if BROKEN not in d]
    return sorted(found)
