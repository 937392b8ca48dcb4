"""Chats with an assistant for search tests: sessions a few days apart, ingested as
`nemori ingest` would."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from nemori_cli.memory import Memory

START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)


def session(conv: str, day: int, turns: list[tuple[str, str]]) -> dict[str, object]:
    """One conversation `day` days after START, its turns a minute apart."""
    when = START + timedelta(days=day)
    return {"id": conv, "messages": [
        {"id": f"{conv}:{i}", "role": role, "content": text,
         "timestamp": (when + timedelta(minutes=i)).isoformat()}
        for i, (role, text) in enumerate(turns)
    ]}


def exchange(conv: str, day: int, said: str, reply: str) -> dict[str, object]:
    """A conversation of one user message and the assistant's reply."""
    return session(conv, day, [("user", said), ("assistant", reply)])


def ingested(tmp_path: Path, convs: list[dict[str, object]]) -> Memory:
    """A store holding these conversations, ingested as `nemori ingest` would."""
    path = tmp_path / "chats.json"
    path.write_text(json.dumps({"conversations": convs}))
    mem = Memory.open(data_dir=tmp_path / "data")
    mem.ingest([str(path)])
    return mem
