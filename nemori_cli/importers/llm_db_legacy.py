"""llm's first log tables (0.5 to 0.31): `conversations`, and one `responses` row per call."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence

from nemori_cli.importers.llm_db_rows import Exchange, fetch, text, when

TABLE = "responses"
# In every version since the table was made (migration m010, llm 0.5); later versions added
# usage, schema, resolved_model and reasoning columns, which nemori does not read.
NEEDED = frozenset({"id", "conversation_id", "prompt", "response"})
OPTIONAL = ("datetime_utc", "model")


class LegacyTables:
    """Read the `responses` table, whichever of its columns an old database has."""

    def __init__(self, conn: sqlite3.Connection, columns: set[str], names: bool) -> None:
        self.conn = conn
        self.names = names  # the database has the `conversations` table (titles)
        picked = [c if c in columns else f"null as {c}" for c in OPTIONAL]
        self.select = f"select id, prompt, response, {', '.join(picked)} from responses"

    def calls(self) -> Iterator[tuple[str, str]]:
        """Every call's id and conversation id (a call without a conversation is its own)."""
        sql = "select id, coalesce(conversation_id, id) from responses where id is not null"
        for call_id, conv_id in self.conn.execute(sql):
            yield str(call_id), str(conv_id)

    def exchanges(self, ids: Sequence[str]) -> list[Exchange]:
        """The calls with these ids."""
        rows = fetch(self.conn, self.select + " where id in ({ids})", ids)
        return [
            Exchange(str(rid), when(at), text(prompt), text(response), text(model) or None)
            for rid, prompt, response, at, model in rows
        ]

    def title(self, conversation_id: str) -> str | None:
        """The conversation's name (llm names it after its first prompt)."""
        if not self.names:
            return None
        row = self.conn.execute(
            "select name from conversations where id = ?", (conversation_id,)
        ).fetchone()
        return text(row[0]) or None if row else None
