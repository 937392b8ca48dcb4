"""The extractor interface that Memory drives: offline heuristics or an LLM."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from nemori_cli.models import Conversation, Episode, Fact, Message


@dataclass(frozen=True)
class Usage:
    """LLM calls and tokens spent (all zero offline)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.calls + other.calls,
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.cost + other.cost,
        )


@dataclass(frozen=True)
class Extraction:
    """What extracting one episode produced."""

    episode: Episode  # possibly re-titled/re-narrated, with extraction status set
    facts: list[Fact]
    superseded: dict[str, str] = field(default_factory=dict)  # old fact id -> new fact id
    usage: Usage = Usage()


class Extractor(Protocol):
    """Turns conversations into episodes, and episodes into facts."""

    name: str  # "offline" or "llm:<model>"

    def segment(self, conversation: Conversation) -> list[tuple[Message, ...]]:
        """Split a conversation into contiguous episodes covering every message once."""
        ...

    def episode(
        self, user_id: str, conversation: Conversation, messages: Sequence[Message]
    ) -> Episode:
        """Build the episode (title, narrative, time) for one segment."""
        ...

    def extract(self, episode: Episode, related: Sequence[Fact]) -> Extraction:
        """Extract the facts of one episode, given the user's stored facts related to it."""
        ...
