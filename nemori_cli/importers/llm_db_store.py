"""llm's content-addressed message store (0.32+): threads, turns, messages and their parts.

A turn is one model call. Its `parent_message_hash` is the last message it was given and its
`tip_message_hash` the last one it added; messages link to their parent, so the prompt is the
run of user messages that ends at the parent, and the response what lies between parent and tip.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence

from nemori_cli.importers.llm_db_rows import Exchange, fetch, text, when

TABLES = frozenset({"turns", "messages", "parts"})
NEEDED = frozenset({"id", "thread_id", "parent_message_hash", "tip_message_hash"})
_LONGEST_CHAIN = 100_000  # a guard against a damaged chain that loops
_TURNS = (
    "select id, parent_message_hash, tip_message_hash, datetime_utc, model from turns"
    " where id in ({ids})"
)


class MessageStore:
    """Read the prompt and response of each turn from the message chains."""

    def __init__(self, conn: sqlite3.Connection, threads: bool) -> None:
        self.conn = conn
        self.threads = threads  # the database has the `threads` table (titles)

    def calls(self) -> Iterator[tuple[str, str]]:
        """Every turn's id and thread id (the conversation id llm shows)."""
        sql = "select id, coalesce(thread_id, id) from turns where id is not null"
        for turn_id, thread_id in self.conn.execute(sql):
            yield str(turn_id), str(thread_id)

    def exchanges(self, ids: Sequence[str]) -> list[Exchange]:
        """The turns with these ids."""
        return [
            Exchange(
                str(tid), when(at), self._prompt(parent), self._response(parent, tip),
                text(model) or None,
            )
            for tid, parent, tip, at, model in fetch(self.conn, _TURNS, ids)
        ]

    def title(self, thread_id: str) -> str | None:
        """The thread's name (llm names it after its first prompt)."""
        if not self.threads:
            return None
        row = self.conn.execute("select name from threads where id = ?", (thread_id,)).fetchone()
        return text(row[0]) or None if row else None

    def _prompt(self, parent: str | None) -> str:
        """What the user typed for the call: the user messages after the last answer.

        Tool results can sit in that run too; the history before it (earlier turns, the system
        prompt) belongs to other calls or is not chat.
        """
        texts = []
        for message, role in self._chain(parent):
            if role not in ("user", "tool"):
                break
            if role == "user":
                texts.append(self._text(message))
        return "\n\n".join(t for t in reversed(texts) if t)

    def _response(self, parent: str | None, tip: str | None) -> str:
        """What the model answered: the assistant messages from the tip back to the parent."""
        texts = []
        for message, role in self._chain(tip):
            if message == parent or role == "user":
                break
            if role == "assistant":
                texts.append(self._text(message))
        return "\n\n".join(t for t in reversed(texts) if t)

    def _chain(self, start: str | None) -> Iterator[tuple[str, str | None]]:
        """Each message's hash and role, from start back towards the first message."""
        seen: set[str] = set()
        current = start
        while isinstance(current, str) and current not in seen and len(seen) < _LONGEST_CHAIN:
            seen.add(current)
            row = self.conn.execute(
                "select parent_hash, role from messages where hash = ?", (current,)
            ).fetchone()
            if row is None:
                return
            yield current, row[1]
            current = row[0]

    def _text(self, message: str) -> str:
        """The message's text parts, joined; reasoning, tool calls and attachments are not text."""
        rows = self.conn.execute(
            "select text, payload from parts where message_hash = ? and type = 'text'"
            " order by position",
            (message,),
        ).fetchall()
        return "".join(t if isinstance(t, str) else typed_literals(payload) for t, payload in rows)


def typed_literals(payload: object) -> str:
    """The typed words of a text part stored by reference: its literals, without fragments.

    Such a part's payload is `{"text_ref": [{"fragment": 1}, {"literal": "..."}]}`; fragment
    content (a file or URL given with -f) is not what the person wrote, as in `llm logs -q`.
    """
    try:
        doc = json.loads(payload) if isinstance(payload, str) else None
    except ValueError:
        return ""
    refs = doc.get("text_ref") if isinstance(doc, dict) else None
    if not isinstance(refs, list):
        return ""
    return "".join(
        r["literal"] for r in refs if isinstance(r, dict) and isinstance(r.get("literal"), str)
    )
