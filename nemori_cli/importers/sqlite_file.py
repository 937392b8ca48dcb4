"""Open a SQLite input read-only: a file where it lies, or bytes (stdin, a zip member) as a copy."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from nemori_cli.importers.payload import Payload

EXTENSIONS = (".db", ".sqlite", ".sqlite3")
BUSY_SECONDS = 3.0  # how long to wait for a writer (llm logging a response) to finish
_WAL = b"\x02\x02"  # header bytes 18-19 of a database in write-ahead-log mode
_ROLLBACK = b"\x01\x01"
_PROBLEMS = {
    "SQLITE_BUSY": "the database is locked (is llm writing to it? try again in a moment)",
    "SQLITE_LOCKED": "the database is locked (is llm writing to it? try again in a moment)",
    "SQLITE_NOTADB": "not a readable SQLite database (file is not a database)",
    "SQLITE_CORRUPT": "the SQLite database is damaged or truncated (disk image is malformed)",
}


def problem(exc: sqlite3.Error) -> str:
    """Say in one line what went wrong reading a database."""
    known = _PROBLEMS.get(getattr(exc, "sqlite_errorname", ""))
    return known or f"cannot read the SQLite database ({' '.join(str(exc).split())})"


@contextmanager
def connect(payload: Payload) -> Iterator[sqlite3.Connection]:
    """Open the payload's database read-only; SQLite errors become the payload's one-line error."""
    try:
        if payload.disk is not None:
            conn = open_file(payload.disk, bytes(payload.data[:100]))
        else:
            conn = open_copy(payload.data)
    except sqlite3.Error as exc:
        raise payload.error(problem(exc)) from None
    try:
        yield conn
    except sqlite3.Error as exc:
        raise payload.error(problem(exc)) from None
    finally:
        conn.close()


def open_file(path: str, head: bytes) -> sqlite3.Connection:
    """Open a database file read-only where it lies, writing nothing beside it.

    A read-only open of a database in WAL mode creates `-wal` and `-shm` files next to it and
    leaves them; with no `-wal` there (no writer has it open) everything is in the file, so it
    is opened immutable instead. With one there, its log is read (and is left as it was).
    """
    immutable = head[18:20] == _WAL and not os.path.exists(path + "-wal")
    uri = Path(path).resolve().as_uri() + ("?immutable=1" if immutable else "?mode=ro")
    return sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS)


def open_copy(data: Any) -> sqlite3.Connection:
    """Open a database held in memory as a private in-memory copy."""
    image = bytearray(data)
    if image[18:20] == _WAL:
        image[18:20] = _ROLLBACK  # an in-memory database cannot keep a write-ahead log
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(image)
    except BaseException:
        conn.close()
        raise
    return conn


def table_names(conn: sqlite3.Connection) -> set[str]:
    """The database's tables and views."""
    rows = conn.execute("select name from sqlite_master where type in ('table', 'view')")
    return {name for (name,) in rows}


def column_names(conn: sqlite3.Connection, table: str) -> set[str]:
    """The columns of a table."""
    return {row[1] for row in conn.execute("select * from pragma_table_info(?)", (table,))}
