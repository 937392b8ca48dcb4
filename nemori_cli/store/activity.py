"""Dirty markers: which writers may have left a user's indexes behind the JSONL.

Each process that writes a user's store creates its own marker, users/<id>/.index-dirty.<pid>.<n>,
and holds an exclusive lock on it until its indexes are consistent again; then it deletes it.
The OS drops the lock when the process dies, even on SIGKILL, so a marker nobody holds is a
crash's leftover, which the next reader repairs; a held one belongs to a live writer (another
ingest running now), which finishes its own indexes.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # no flock (Windows): every marker but our own counts as a leftover
    fcntl = None  # type: ignore[assignment]

PREFIX = ".index-dirty"
_serial = itertools.count()


def _held_elsewhere(path: Path) -> bool:
    """Whether a live process holds the marker's lock."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # drops the probe's lock too
    return False


class DirtyMarker:
    """This process's dirty marker for one user's folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.path: Path | None = None
        self._fd: int | None = None

    def mark(self) -> None:
        """Say that this process is changing the store (idempotent)."""
        if self.path is not None:
            return
        path = self.folder / f"{PREFIX}.{os.getpid()}.{next(_serial)}"
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: nobody else has it
        self.path, self._fd = path, fd

    def clear(self) -> None:
        """Say that this process left the indexes consistent with the JSONL."""
        if self.path is not None:
            self.path.unlink(missing_ok=True)
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
        self.path, self._fd = None, None

    def abandon(self) -> None:
        """Leave the marker for the next reader to repair: a write failed half-way."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
        self.path, self._fd = None, None

    def leftovers(self) -> list[Path]:
        """Markers of writers that are gone: their indexes may lag behind the JSONL."""
        if not self.folder.is_dir():
            return []
        return [
            p
            for p in sorted(self.folder.glob(PREFIX + "*"))
            if p != self.path and not _held_elsewhere(p)
        ]

    def active(self) -> list[Path]:
        """Markers of other writers that are running now."""
        if not self.folder.is_dir():
            return []
        return [
            p
            for p in sorted(self.folder.glob(PREFIX + "*"))
            if p != self.path and _held_elsewhere(p)
        ]
