"""Offline episode titles of the hand-written user/assistant sessions, to read or to diff.

    python bench/offline_titles.py                 # every session of the four sets
    python bench/offline_titles.py > a.txt; ...; diff a.txt b.txt   # two codes compared

Each session of bench/assistant_chats*.json is titled as one whole episode by
pipeline/episodes.py (the offline extractor's titles; an ingest may cut a session into
several episodes) and printed as `session | title | the user's first message`.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from nemori_cli.models import Conversation, Message  # noqa: E402
from nemori_cli.pipeline.episodes import episode_title  # noqa: E402

SETS = ("assistant_chats.json", "assistant_chats_b.json", "assistant_chats_c.json",
        "assistant_chats_d.json")


def titled(path: Path) -> list[tuple[str, str, str]]:
    """(session id, offline title, first user message) of every session in a set."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for user in data["users"].values():
        for s in user["sessions"]:
            when = datetime.fromisoformat(s["date"].replace("Z", "+00:00"))
            messages = tuple(Message(id=t["id"], role=t["role"], content=t["text"],
                                     timestamp=when) for t in s["turns"])
            first = next(t["text"] for t in s["turns"] if t["role"] == "user")
            out.append((s["id"], episode_title(Conversation(id=s["id"], messages=messages),
                                               messages), first))
    return out


def main() -> None:
    for name in SETS:
        for session, title, first in titled(HERE / name):
            print(f"{session:8} | {title[:75]:75} | {' '.join(first.split())[:90]}")


if __name__ == "__main__":
    main()
