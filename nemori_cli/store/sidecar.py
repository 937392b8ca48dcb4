"""A file derived from a JSONL file and saved beside it, valid while that file has only grown.

Its header names the JSONL file's inode, how many bytes the derived data covers, and the bytes
just before that end. Appends keep all three; every rewrite replaces the file (a new inode),
and any other change shows in the bytes checked, so a reader never trusts a stale sidecar: it
uses what the sidecar covers and reads only the lines appended since. Saving is best effort
(a read-only data dir only costs the next reader the full scan).
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

import orjson

from nemori_cli.store.files import FILE_MODE

CHECK_BYTES = 64  # bytes of the file just before the covered end, to recognise the same file


def sidecar_path(path: Path, suffix: str) -> Path:
    return path.with_name(f"{path.name}.{suffix}")


def load_sidecar(path: Path, suffix: str, magic: bytes, fd: int) -> tuple[dict[str, Any], bytes]:
    """(header, body) saved for the JSONL file open as fd; ({}, b"") when none fits it.

    The header holds at least "covered", the bytes of the file the body describes.
    """
    nothing: tuple[dict[str, Any], bytes] = ({}, b"")
    try:
        st = os.fstat(fd)
        raw = sidecar_path(path, suffix).read_bytes()
        if not raw.startswith(magic):
            return nothing
        end = raw.index(b"\n", len(magic))
        head = orjson.loads(raw[len(magic) : end])
        covered = int(head["covered"])
        if head["inode"] != st.st_ino or not 0 <= covered <= st.st_size:
            return nothing
        check = os.pread(fd, min(covered, CHECK_BYTES), max(0, covered - CHECK_BYTES))
        if check.hex() != head["check"]:
            return nothing
    except (OSError, ValueError, KeyError, TypeError):
        return nothing
    return head, raw[end + 1 :]


def save_sidecar(
    path: Path, suffix: str, magic: bytes, fd: int, covered: int, head: dict[str, Any],
    body: bytes,
) -> None:
    """Save what was derived from the first `covered` bytes of the file open as fd."""
    tmp = path.with_name(f"{path.name}.{suffix}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        check = os.pread(fd, min(covered, CHECK_BYTES), max(0, covered - CHECK_BYTES)).hex()
        full = {**head, "inode": os.fstat(fd).st_ino, "covered": covered, "check": check}
        tmp.write_bytes(magic + orjson.dumps(full) + b"\n" + body)
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, sidecar_path(path, suffix))
    except OSError:
        tmp.unlink(missing_ok=True)
