"""Offline episode titles of the hand-written user/assistant sessions, to read or to diff.

    python bench/offline_titles.py                 # every session of the six sets
    python bench/offline_titles.py > a.txt; ...; diff a.txt b.txt   # two codes compared

Each session of bench/assistant_chats*.json (read as bench/assistant_chats.py reads them) is
titled as one whole episode by pipeline/episodes.py (the offline extractor's titles; an ingest
may cut a session into several episodes) and printed as `session | title | the user's first
message`.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from assistant_chats import DATA, DATA_B, DATA_C, DATA_D, DATA_E, DATA_F, load  # noqa: E402

from nemori_cli.models import Conversation, Message  # noqa: E402
from nemori_cli.pipeline.episodes import episode_title  # noqa: E402


def main() -> None:
    for path in (DATA, DATA_B, DATA_C, DATA_D, DATA_E, DATA_F):
        users, _ = load(path)
        for s in (s for sessions in users.values() for s in sessions):
            messages = tuple(Message(id=t.id, role=t.role, content=t.text, timestamp=s.start)
                             for t in s.turns)
            title = episode_title(Conversation(id=s.id, messages=messages), messages)
            first = next(t.text for t in s.turns if t.role == "user")
            print(f"{s.id:8} | {title[:75]:75} | {' '.join(first.split())[:90]}")


if __name__ == "__main__":
    main()
