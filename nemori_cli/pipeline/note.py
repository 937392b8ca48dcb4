"""A note someone chose to remember is a fact, whatever the extractor makes of its wording."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from nemori_cli.models import CATEGORIES, Conversation, Episode, Fact, Message, utcnow
from nemori_cli.pipeline.base import Extraction, Extractor
from nemori_cli.pipeline.facts import fact_id
from nemori_cli.pipeline.salience import categorize


class NoteExtractor:
    """The configured extractor, plus: a note it finds no fact in is stored as one fact."""

    def __init__(self, inner: Extractor, category: str | None = None) -> None:
        if category is not None and category not in CATEGORIES:
            raise ValueError(f"unknown category {category!r}")
        self.inner = inner
        self.name = inner.name
        self.category = category

    def segment(self, conversation: Conversation) -> list[tuple[Message, ...]]:
        return self.inner.segment(conversation)

    def episode(
        self, user_id: str, conversation: Conversation, messages: Sequence[Message]
    ) -> Episode:
        return self.inner.episode(user_id, conversation, messages)

    def extract(self, episode: Episode, related: Sequence[Fact]) -> Extraction:
        """The extractor's facts (in the given category), or the note itself as a fact."""
        result = self.inner.extract(episode, related)
        facts = result.facts or [note_fact(episode, self.name)]
        if self.category is not None:
            facts = [replace(f, category=self.category) for f in facts]
        return replace(result, facts=facts)


def note_fact(episode: Episode, extractor: str) -> Fact:
    """The note's text as a fact about the user, traced to its episode and message."""
    text = " ".join(m.content for m in episode.messages).strip()
    category, confidence = categorize(text)
    first = episode.messages[0] if episode.messages else None
    return Fact(
        id=fact_id(episode.user_id, text),
        user_id=episode.user_id,
        content=text,
        category=category,
        source_episode_ids=(episode.id,),
        source_message_ids=tuple(m.id for m in episode.messages),
        confidence=confidence,
        created_at=utcnow(),
        valid_from=(first.timestamp if first else None) or episode.timestamp,
        extractor=f"{extractor}:note",
    )
