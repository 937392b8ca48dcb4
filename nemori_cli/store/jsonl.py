"""Per-user JSONL files: the source of truth, with locking, repair and atomic rewrites."""

from __future__ import annotations

import contextlib
import gc
import os
import re
import sys
import tempfile
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

import orjson

from nemori_cli.errors import StoreError
from nemori_cli.store.files import FILE_MODE, StoreLock, ensure_private_dir, fsync_dir, tell_waiting

_ID_PREFIX = b'{"id":"'
_ID_FIRST = re.compile(rb'\{"id":"([^"\\]*)"')  # an id without escapes, first in its line


def _line_id(line: bytes) -> str | None:
    """Read the "id" of a record line cheaply when it comes first; None when it does not."""
    if line.startswith(_ID_PREFIX):
        end = line.find(b'"', len(_ID_PREFIX))
        if end > 0:
            raw = line[len(_ID_PREFIX) : end]
            if b"\\" not in raw:
                return raw.decode("utf-8")
    try:
        record = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    value = record.get("id") if isinstance(record, dict) else None
    return None if value is None else str(value)


def _dump(record: dict[str, Any]) -> bytes:
    try:
        return orjson.dumps(record) + b"\n"
    except TypeError as exc:
        raise StoreError(f"record {record.get('id')!r} cannot be stored: {exc}") from None


class JsonlFile:
    """One JSONL file of records (dicts with an "id"), safe against crashes and other processes."""

    def __init__(
        self,
        path: Path,
        *,
        lock_timeout: float,
        on_wait: Callable[[Path, float], None] = tell_waiting,
    ) -> None:
        self.path = Path(path)
        self.lock = StoreLock(
            self.path.with_name(self.path.name + ".lock"),
            timeout=lock_timeout,
            label=self.path,
            on_wait=on_wait,
        )

    def _read_bytes(self) -> bytes:
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return b""
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot read: {exc.strerror}") from None

    def _split(self, data: bytes) -> tuple[list[bytes], int | None]:
        """Split into complete lines; also return where a torn last line starts (or None)."""
        lines = data.split(b"\n")
        tail = lines.pop()  # b"" when the data ends with a newline
        torn_at: int | None = None
        if tail.strip():
            if _loads_object(tail) is not None:
                lines.append(tail)  # a whole record that only lacks its newline
            else:
                torn_at = len(data) - len(tail)
        elif tail:
            torn_at = len(data) - len(tail)
        if torn_at is None and lines and lines[-1].strip() and _loads_object(lines[-1]) is None:
            torn_at = len(data) - len(tail) - len(lines[-1]) - 1
            lines.pop()
        return lines, torn_at

    def _parse(self, lines: list[bytes]) -> list[dict[str, Any]]:
        records: list[dict[str, Any]] = []
        # The cyclic GC adds little here but triples the parse time of a large file.
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                record = _loads_object(line)
                if record is None:
                    raise StoreError(
                        f"{self.path}: line {number} is not a valid JSON record: "
                        "run `nemori doctor --repair`"
                    )
                records.append(record)
        finally:
            if gc_was_enabled:
                gc.enable()
        return records

    def read(self) -> list[dict[str, Any]]:
        """Return every record; cut off a torn last line left by an interrupted write."""
        return self._parse(self.read_lines())

    def read_lines(self) -> list[bytes]:
        """Return every complete line, unparsed (read() without the JSON decoding)."""
        lines, torn_at = self._split(self._read_bytes())
        # A torn line is either a crash's leftover or another process's write in progress:
        # repair it only when the lock is free (writers hold it), never wait for it here.
        if torn_at is not None and self.lock.try_acquire():
            try:
                lines = self._repair()
            finally:
                self.lock.release()
        return lines

    def index_lines(self) -> dict[str, bytes]:
        """Return record id -> raw line for every record (later lines win), parsing none."""
        out: dict[str, bytes] = {}
        match = _ID_FIRST.match
        for number, line in enumerate(self.read_lines(), start=1):
            found = match(line)  # the id comes first in every line nemori writes
            if found is not None:
                out[found.group(1).decode("utf-8")] = line
                continue
            if not line.strip():
                continue
            record_id = _line_id(line)
            if record_id is None:
                raise StoreError(
                        f"{self.path}: line {number} is not a valid JSON record: "
                        "run `nemori doctor --repair`"
                    )
            out[record_id] = line
        return out

    def _repair(self) -> list[bytes]:
        """Under the lock, drop a torn last line (a write cut short) and return the lines."""
        with self.lock:
            data = self._read_bytes()
            lines, torn_at = self._split(data)
            if torn_at is not None:
                with self.path.open("r+b") as fh:
                    fh.truncate(torn_at)
                    fh.flush()
                    os.fsync(fh.fileno())
                print(
                    f"nemori: {self.path}: removed an incomplete last line "
                    f"({len(data) - torn_at} bytes) left by an interrupted write",
                    file=sys.stderr,
                )
            elif data and not data.endswith(b"\n"):
                self._write_at_end(b"\n")
            return lines

    def _write_at_end(self, payload: bytes) -> None:
        ensure_private_dir(self.path.parent)
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE)
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot write: {exc.strerror}") from None
        try:
            start = os.fstat(fd).st_size
            view = memoryview(payload)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        except OSError as exc:
            with contextlib.suppress(OSError):  # a full disk: leave no torn line behind
                os.ftruncate(fd, start)
            raise StoreError(f"{self.path}: cannot write: {exc.strerror}") from None
        finally:
            os.close(fd)

    def append(self, records: Sequence[dict[str, Any]]) -> None:
        """Append the records in one write, flushed to disk."""
        if not records:
            return
        payload = b"".join(_dump(r) for r in records)
        with self.lock:
            self._repair_tail()
            self._write_at_end(payload)

    def _repair_tail(self) -> None:
        """Make sure the file ends with a newline, so an append cannot glue onto a torn line."""
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return
        if size == 0:
            return
        with self.path.open("rb") as fh:
            fh.seek(size - 1)
            last = fh.read(1)
        if last != b"\n":
            self._repair()

    def rewrite(self, records: Iterable[dict[str, Any]]) -> None:
        """Replace the file's content with these records, atomically."""
        with self.lock:
            self._replace_with(_dump(r) for r in records)

    def _replace_with(self, chunks: Iterable[bytes]) -> None:
        folder = ensure_private_dir(self.path.parent)
        try:
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=self.path.name + ".", suffix=".tmp")
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot write: {exc.strerror}") from None
        try:
            with os.fdopen(fd, "wb") as fh:
                for chunk in chunks:
                    fh.write(chunk)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, FILE_MODE)
            os.replace(tmp, self.path)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            raise StoreError(f"{self.path}: cannot write: {exc.strerror}") from None
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        fsync_dir(folder)

    def _current_lines(self) -> list[bytes]:
        data = self._read_bytes()
        lines, torn_at = self._split(data)
        if torn_at is not None:
            lines = self._repair()
        return [ln for ln in lines if ln.strip()]

    def delete_ids(self, ids: Collection[str]) -> int:
        """Remove the records with these ids; return how many lines were removed."""
        wanted = set(ids)
        if not wanted:
            return 0
        with self.lock:
            lines = self._current_lines()
            kept = [ln for ln in lines if _line_id(ln) not in wanted]
            removed = len(lines) - len(kept)
            if removed:
                self._replace_with(ln + b"\n" for ln in kept)
            return removed

    def upsert(self, records: Sequence[dict[str, Any]]) -> None:
        """Replace the records whose id is already stored (in place) and append the others."""
        if not records:
            return
        new: dict[str, bytes] = {}
        for r in records:
            if "id" not in r:
                raise StoreError(f"{self.path}: cannot upsert a record without an id")
            new[str(r["id"])] = _dump(r)
        with self.lock:
            lines = self._current_lines()
            ids = [_line_id(ln) for ln in lines]
            if not any(i in new for i in ids):
                self._repair_tail()
                self._write_at_end(b"".join(new.values()))
                return
            out: list[bytes] = []
            for line, line_id in zip(lines, ids, strict=True):
                if line_id is not None and line_id in new:
                    out.append(new.pop(line_id))
                else:
                    out.append(line + b"\n")
            out.extend(new.values())
            self._replace_with(out)


def _loads_object(line: bytes) -> dict[str, Any] | None:
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


