"""Passages of long messages, so every word of a message is in some index document.

A message stands in the topic signal and in its episode's vector windows by its opening
(segment.EMBED_CHARS), and in the narrative by its first few hundred words. The rest of a
long message (an assistant answer that names a product deep down) gets its own passages:
embedded one by one, and appended to the episode's lexical text.
"""

from __future__ import annotations

from collections.abc import Sequence

from nemori_cli.models import Message
from nemori_cli.pipeline.facts import between_people, is_human
from nemori_cli.pipeline.segment import EMBED_CHARS

PASSAGE_CHARS = 900  # fits the local embedder's 256 tokens with room to spare
OVERLAP_CHARS = 100  # a phrase cut by a passage border is whole in one of the two


def flat_text(message: Message) -> str:
    """The message text on one line, as the indexes see it."""
    return " ".join(message.content.split())


def tail_passages(text: str) -> list[str]:
    """The passages that cover a message's text after its embedded opening, in order."""
    if len(text) <= EMBED_CHARS:
        return []
    out: list[str] = []
    start = _word_start(text, EMBED_CHARS - OVERLAP_CHARS)
    while start < len(text):
        end = len(text)
        if end - start > PASSAGE_CHARS:
            end = _word_end(text, start, start + PASSAGE_CHARS)
        out.append(text[start:end].strip())
        if end >= len(text):
            break
        start = _word_start(text, end - OVERLAP_CHARS)
    return [p for p in out if p]


def passage_id(record_id: str, message_index: int, passage: int) -> str:
    """The vector document id of a passage of the message_index-th spoken message."""
    return f"{record_id}#m{message_index}.{passage}"


def passage_ids(record_id: str, spoken: Sequence[Message]) -> dict[int, list[str]]:
    """Spoken-message index -> ids of its tail passages, for messages that have any."""
    out: dict[int, list[str]] = {}
    for i, m in enumerate(spoken):
        n = len(tail_passages(flat_text(m)))
        if n:
            out[i] = [passage_id(record_id, i, j) for j in range(n)]
    return out


def user_turn_ids(record_id: str, spoken: Sequence[Message]) -> dict[int, str]:
    """Spoken-message index -> the vector document of each user turn, in a chat with an
    assistant: a user's statement among long answers is matched alone, not as a quarter of
    its window. A chat between people (every turn a person's) has none."""
    if between_people(spoken):
        return {}
    return {i: f"{record_id}#u{i}" for i, m in enumerate(spoken) if is_human(m)}


def _word_start(text: str, at: int) -> int:
    """The start of the word at or after position at."""
    at = max(0, at)
    if at == 0 or text[at - 1] == " ":
        return at
    space = text.find(" ", at)
    return at if space < 0 or space - at > OVERLAP_CHARS else space + 1


def _word_end(text: str, start: int, at: int) -> int:
    """The end of the last whole word before position at (or at, inside one long word)."""
    space = text.rfind(" ", start + OVERLAP_CHARS + 1, at + 1)
    return at if space < 0 else space
