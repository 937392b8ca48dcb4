"""The SQLite database that Simon Willison's `llm` CLI logs to (logs.db), either generation."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from nemori_cli.errors import ImportFormatError
from nemori_cli.importers import llm_db_legacy, llm_db_store
from nemori_cli.importers.base import Sink, Turn
from nemori_cli.importers.llm_db_legacy import LegacyTables
from nemori_cli.importers.llm_db_rows import Exchange
from nemori_cli.importers.llm_db_store import MessageStore
from nemori_cli.importers.payload import Payload
from nemori_cli.importers.sqlite_file import column_names, connect, table_names
from nemori_cli.models import Conversation

NAME = "llmdb"
DESCRIPTION = "llm (llm.datasette.io) logs.db: the SQLite log of prompts and responses"
INPUT = "sqlite"

_NOT_SQLITE = (
    "not an llm logs.db (no SQLite header; for the markdown `llm logs` prints, use markdown)"
)
_NOT_LLM = "a SQLite database, but not llm's logs.db (no responses or turns table)"
_NEVER = datetime.min.replace(tzinfo=UTC)


class Generations:
    """The log tables a database holds: the legacy ones, the message store, or both."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        tables = table_names(conn)
        legacy = column_names(conn, "responses") if "responses" in tables else set()
        self.legacy = (
            LegacyTables(conn, legacy, "conversations" in tables)
            if legacy >= llm_db_legacy.NEEDED else None
        )
        store = column_names(conn, "turns") if tables >= llm_db_store.TABLES else set()
        self.store = (
            MessageStore(conn, "threads" in tables) if store >= llm_db_store.NEEDED else None
        )

    def __bool__(self) -> bool:
        return self.legacy is not None or self.store is not None


def check(payload: Payload) -> None:
    """Raise the payload's one-line error unless it is an llm log database that can be read."""
    if not payload.is_sqlite():
        raise payload.error(_NOT_SQLITE)
    if not holds_log(payload):
        raise payload.error(_NOT_LLM)


def holds_log(payload: Payload) -> bool:
    """Tell whether a SQLite database has llm's log tables (its one-line error if unreadable)."""
    with connect(payload) as conn:
        return bool(Generations(conn))


def may_be_log(path: str) -> bool:
    """Tell a directory walk whether a file may be llm's log: a SQLite database with its tables.

    A database that cannot be opened (locked, damaged) counts, so that its error is shown.
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
    except OSError:
        return False
    payload = Payload(path, head, path, disk=path)
    if not payload.is_sqlite():
        return False
    try:
        return holds_log(payload)
    except ImportFormatError:
        return True


def read(payload: Payload, sink: Sink) -> Iterator[Conversation]:
    """Yield one conversation per llm conversation, its calls in time order, each call once.

    Only the calls' ids are held for the whole file; a conversation's texts are read when it
    is reached, by short queries that leave the database free for llm in between.
    """
    with connect(payload) as conn:
        tables = Generations(conn)
        plan = _calls(tables)
        for conv_id in sorted(plan):
            exchanges = _exchanges(tables, plan.pop(conv_id))
            conv = _conversation(tables, conv_id, exchanges, sink)
            if conv is not None:
                yield conv


def _calls(tables: Generations) -> dict[str, dict[str, bool]]:
    """Each conversation's call ids, with whether the call is a turn of the message store.

    A call in both generations (logged while llm wrote both) is read from the turn, as
    `llm logs` does.
    """
    plan: dict[str, dict[str, bool]] = {}
    turns: set[str] = set()
    if tables.store is not None:
        for call_id, conv_id in tables.store.calls():
            plan.setdefault(conv_id, {})[call_id] = True
            turns.add(call_id)
    if tables.legacy is not None:
        for call_id, conv_id in tables.legacy.calls():
            if call_id not in turns:
                plan.setdefault(conv_id, {})[call_id] = False
    return plan


def _exchanges(tables: Generations, calls: dict[str, bool]) -> list[Exchange]:
    found: list[Exchange] = []
    if tables.store is not None:
        found += tables.store.exchanges([c for c, turn in calls.items() if turn])
    if tables.legacy is not None:
        found += tables.legacy.exchanges([c for c, turn in calls.items() if not turn])
    return sorted(found, key=lambda e: (e.time is None, e.time or _NEVER, e.id))


def _conversation(
    tables: Generations, conv_id: str, exchanges: list[Exchange], sink: Sink
) -> Conversation | None:
    turns = []
    for e in exchanges:
        turns.append(Turn("user", e.prompt, None, e.time, f"{e.id}:prompt"))
        turns.append(Turn("assistant", e.response, None, e.time, e.id))
    # The legacy name is the conversation's first prompt; a thread that continues an old
    # conversation is named after the prompt that continued it.
    title = tables.legacy.title(conv_id) if tables.legacy is not None else None
    if title is None and tables.store is not None:
        title = tables.store.title(conv_id)
    meta: dict[str, Any] = {"format": NAME}
    if models := sorted({e.model for e in exchanges if e.model}):
        meta["model"] = ", ".join(models)
    created = next((e.time for e in exchanges if e.time), None)
    return sink.build(conv_id, turns, title=title, created_at=created, metadata=meta)
