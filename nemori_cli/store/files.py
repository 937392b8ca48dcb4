"""Private folders, the inter-process lock, and fsync of a folder."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from filelock import FileLock, Timeout

from nemori_cli.errors import LockTimeout, StoreError

DIR_MODE = 0o700
FILE_MODE = 0o600


def ensure_private_dir(path: Path) -> Path:
    """Create the folder (and missing parents) readable by the owner only; return it."""
    missing: list[Path] = []
    p = path
    while not p.exists():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=DIR_MODE)
        except FileExistsError:
            continue  # made by someone else meanwhile
        except OSError as exc:
            raise StoreError(f"{folder}: cannot create folder: {exc.strerror}") from None
        os.chmod(folder, DIR_MODE)
    return path


def tell_waiting(path: Path, timeout: float) -> None:
    print(
        f"nemori: {path} is in use by another nemori process; waiting up to {timeout:g}s...",
        file=sys.stderr,
        flush=True,
    )


class StoreLock:
    """A re-entrant inter-process lock on one file; says once when it has to wait."""

    def __init__(
        self,
        path: Path,
        *,
        timeout: float,
        label: Path | None = None,
        on_wait: Callable[[Path, float], None] = tell_waiting,
    ) -> None:
        self.path = path
        self.label = label or path  # what the messages name: the file or folder it guards
        self.timeout = timeout
        self.on_wait = on_wait
        # One FileLock per path in this process: two FileLocks on one file would block each other.
        self._lock = FileLock(str(path), mode=FILE_MODE, is_singleton=True)

    @property
    def is_locked(self) -> bool:
        """Whether this process (this thread) holds the lock."""
        return self._lock.is_locked

    def try_acquire(self) -> bool:
        """Take the lock if it is free right now; return whether it was taken."""
        ensure_private_dir(self.path.parent)
        try:
            self._lock.acquire(blocking=False)
        except Timeout:
            return False
        return True

    def acquire(self) -> None:
        """Take the lock, waiting up to the timeout; raise LockTimeout after that."""
        if self.try_acquire():
            return
        self.on_wait(self.label, self.timeout)
        try:
            self._lock.acquire(timeout=self.timeout)
        except Timeout:
            raise LockTimeout(
                f"{self.label} is locked by another nemori process; "
                f"gave up after {self.timeout:g}s"
            ) from None

    def release(self) -> None:
        """Release one level of the lock."""
        self._lock.release()

    def __enter__(self) -> StoreLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
