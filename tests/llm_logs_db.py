"""Build small llm logs.db files with sqlite3, following the schemas in llm's docs/logging.md."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

# llm 0.5's tables (migration m010): later versions added columns to `responses`.
OLD_LEGACY = """
CREATE TABLE [conversations] ([id] TEXT PRIMARY KEY, [name] TEXT, [model] TEXT);
CREATE TABLE [responses] (
  [id] TEXT PRIMARY KEY, [model] TEXT, [prompt] TEXT, [system] TEXT, [prompt_json] TEXT,
  [options_json] TEXT, [response] TEXT, [response_json] TEXT,
  [conversation_id] TEXT REFERENCES [conversations]([id]), [duration_ms] INTEGER,
  [datetime_utc] TEXT
);
"""
# As llm 0.31 leaves them ("SQL schema" in docs/logging.md).
LEGACY = """
CREATE TABLE "conversations" ("id" TEXT PRIMARY KEY, "name" TEXT, "model" TEXT);
CREATE TABLE "schemas" ("id" TEXT PRIMARY KEY, "content" TEXT);
CREATE TABLE "responses" (
  "id" TEXT PRIMARY KEY, "model" TEXT, "prompt" TEXT, "system" TEXT, "prompt_json" TEXT,
  "options_json" TEXT, "response" TEXT, "response_json" TEXT,
  "conversation_id" TEXT REFERENCES "conversations"("id"), "duration_ms" INTEGER,
  "datetime_utc" TEXT, "input_tokens" INTEGER, "output_tokens" INTEGER, "token_details" TEXT,
  "schema_id" TEXT REFERENCES "schemas"("id"), "resolved_model" TEXT, "reasoning" TEXT
);
CREATE VIRTUAL TABLE "responses_fts" USING FTS5 ("prompt", "response", content="responses");
"""
# The content-addressed message store that llm 0.32 added (migration m023).
STORE = """
CREATE TABLE "messages" (
  "hash" TEXT PRIMARY KEY, "parent_hash" TEXT REFERENCES "messages"("hash"), "role" TEXT,
  "provider_metadata" TEXT
);
CREATE TABLE "parts" (
  "id" INTEGER PRIMARY KEY, "message_hash" TEXT REFERENCES "messages"("hash"),
  "position" INTEGER, "type" TEXT, "tool_name" TEXT, "text" TEXT, "payload" TEXT
);
CREATE UNIQUE INDEX "idx_parts_message_hash_position" ON "parts" ("message_hash", "position");
CREATE TABLE "threads" (
  "id" TEXT PRIMARY KEY, "name" TEXT, "tip_message_hash" TEXT REFERENCES "messages"("hash"),
  "forked_from" TEXT REFERENCES "threads"("id"), "datetime_utc" TEXT
);
CREATE TABLE "turns" (
  "id" TEXT PRIMARY KEY, "thread_id" TEXT REFERENCES "threads"("id"),
  "parent_message_hash" TEXT REFERENCES "messages"("hash"),
  "tip_message_hash" TEXT REFERENCES "messages"("hash"), "model" TEXT, "resolved_model" TEXT,
  "options_json" TEXT, "schema_id" TEXT, "input_tokens" INTEGER, "output_tokens" INTEGER,
  "token_details" TEXT, "duration_ms" INTEGER, "datetime_utc" TEXT, "response_json" TEXT
);
CREATE INDEX "idx_turns_thread_id" ON "turns" ("thread_id");
"""

Part = tuple[str, str | None, str | None]  # type, text, payload


class LogsDb:
    """A logs.db being written the way llm writes it."""

    def __init__(self, path: Path, *schemas: str) -> None:
        self.path = path
        self.conn = sqlite3.connect(path)
        for schema in schemas:
            self.conn.executescript(schema)
        self.conn.commit()

    def close(self) -> None:
        self.conn.close()

    def response(
        self, rid: str, conv: str, prompt: str | None, answer: str | None, at: str, *,
        name: str | None = None, system: str | None = None, model: str = "gpt-4o-mini",
    ) -> None:
        """Log one call in the legacy tables (its conversation made on first use)."""
        self.conn.execute(
            "insert or ignore into conversations (id, name, model) values (?, ?, ?)",
            (conv, name if name is not None else prompt, model),
        )
        self.conn.execute(
            "insert into responses (id, model, prompt, system, response, conversation_id,"
            " datetime_utc) values (?, ?, ?, ?, ?, ?, ?)",
            (rid, model, prompt, system, answer, conv, at),
        )
        self.conn.commit()

    def message(self, parent: str | None, role: str, *parts: Part) -> str:
        """Store a message under its parent; return its content address."""
        body = json.dumps({"parent": parent, "role": role, "parts": parts}, sort_keys=True)
        address = "b2:" + hashlib.blake2b(body.encode(), digest_size=16).hexdigest()
        self.conn.execute(
            "insert or ignore into messages (hash, parent_hash, role) values (?, ?, ?)",
            (address, parent, role),
        )
        for position, (kind, text, payload) in enumerate(parts):
            self.conn.execute(
                "insert or ignore into parts (message_hash, position, type, text, payload)"
                " values (?, ?, ?, ?, ?)",
                (address, position, kind, text, payload),
            )
        return address

    def turn(
        self, tid: str, thread: str, inputs: list[tuple[str, list[Part]]],
        outputs: list[tuple[str, list[Part]]], at: str, *, name: str | None = None,
        model: str = "gpt-5-mini",
    ) -> None:
        """Log one call in the message store: its new input after the thread's tip, then its
        output; the thread is made on first use and follows the tip."""
        row = self.conn.execute(
            "select tip_message_hash from threads where id = ?", (thread,)
        ).fetchone()
        if row is None:
            self.conn.execute(
                "insert into threads (id, name, datetime_utc) values (?, ?, ?)",
                (thread, name, at.replace("T", " ")),
            )
        tip = row[0] if row else None
        for role, parts in inputs:
            tip = self.message(tip, role, *parts)
        parent = tip
        for role, parts in outputs:
            tip = self.message(tip, role, *parts)
        self.conn.execute(
            "insert into turns (id, thread_id, parent_message_hash, tip_message_hash, model,"
            " datetime_utc) values (?, ?, ?, ?, ?, ?)",
            (tid, thread, parent, tip, model, at),
        )
        self.conn.execute("update threads set tip_message_hash = ? where id = ?", (tip, thread))
        self.conn.commit()

    def chat(
        self, tid: str, thread: str, prompt: str, answer: str, at: str, **kwargs: str
    ) -> None:
        """Log a plain text call in the message store."""
        self.turn(
            tid, thread, [("user", [text(prompt)])], [("assistant", [text(answer)])], at, **kwargs
        )


def text(value: str) -> Part:
    """A text part stored inline."""
    return ("text", value, None)


def with_fragment(fragment_id: int, typed: str) -> Part:
    """A text part that borrows a fragment (a file given with -f) before what was typed."""
    refs = [{"fragment": fragment_id}, {"literal": "\n" + typed}]
    return ("text", None, json.dumps({"text_ref": refs}))
