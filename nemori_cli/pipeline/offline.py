"""The offline extractor: topic segmentation, extractive episodes and heuristic facts."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from nemori_cli.config import Settings
from nemori_cli.models import Conversation, Episode, Fact, Message
from nemori_cli.pipeline.base import Extraction, Usage
from nemori_cli.pipeline.episodes import build_episode
from nemori_cli.pipeline.facts import between_people, episode_facts, superseded_by
from nemori_cli.pipeline.segment import (
    LEXICAL_DEPTH_SCALE,
    embed_text,
    lexical_vectors,
    needs_vectors,
    segment_spans,
)

if TYPE_CHECKING:
    import numpy as np

Embed = Callable[[Sequence[str]], "np.ndarray"]
# "auto": embeddings for chats with an assistant (substantive turns, where they separate topics
# far better than words), word overlap for chats between people (free, and on LoCoMo it finds
# session boundaries better than MiniLM does: chit-chat embeds alike whatever the topic).
TOPIC_SIGNALS = ("auto", "embedding", "lexical")


class OfflineExtractor:
    """Segment, title, narrate and extract facts with heuristics and the local embedder."""

    name = "offline"

    def __init__(self, settings: Settings, embed: Embed, topic_signal: str = "auto") -> None:
        if topic_signal not in TOPIC_SIGNALS:
            raise ValueError(f"topic_signal must be one of {', '.join(TOPIC_SIGNALS)}")
        self.settings = settings
        self.embed = embed
        self.topic_signal = topic_signal
        self._lock = threading.Lock()
        # message vectors of the conversation segmented last, reused to pick episode titles
        self._vectors: dict[str, np.ndarray] = {}

    def message_vectors(self, messages: Sequence[Message]) -> np.ndarray:
        """Embed each message once (its opening); empty messages get a zero vector."""
        import numpy as np

        texts = [embed_text(m) for m in messages]
        filled = [i for i, t in enumerate(texts) if t]
        out = np.zeros((len(messages), 0), dtype=np.float32)
        if filled:
            vecs = np.asarray(self.embed([texts[i] for i in filled]), dtype=np.float32)
            out = np.zeros((len(messages), vecs.shape[1]), dtype=np.float32)
            out[filled] = vecs
        return out

    def _lexical(self, messages: Sequence[Message]) -> bool:
        if self.topic_signal != "auto":
            return self.topic_signal == "lexical"
        return between_people(messages)

    def segment(self, conversation: Conversation) -> list[tuple[Message, ...]]:
        """Split a conversation into contiguous episodes covering every message once."""
        messages = conversation.messages
        s = self.settings
        vectors, scale = None, 1.0
        if needs_vectors(messages, s.gap_minutes, s.max_episode_messages):
            if self._lexical(messages):
                vectors, scale = lexical_vectors(messages), LEXICAL_DEPTH_SCALE
            else:
                vectors = self.message_vectors(messages)
        with self._lock:
            self._vectors = {} if vectors is None else {
                m.id: vectors[i] for i, m in enumerate(messages) if vectors.shape[1]
            }
        spans = segment_spans(
            messages,
            vectors if vectors is not None and vectors.shape[1] else None,
            gap_minutes=s.gap_minutes,
            max_messages=s.max_episode_messages,
            shift_threshold=s.topic_shift_threshold,
            depth_scale=scale,
        )
        return [tuple(messages[a:b]) for a, b in spans]

    def episode(
        self, user_id: str, conversation: Conversation, messages: Sequence[Message]
    ) -> Episode:
        """Build the episode (title, narrative, time) for one segment."""
        import numpy as np

        with self._lock:
            known = [self._vectors.get(m.id) for m in messages]
        vectors = None
        if known and all(v is not None for v in known):
            vectors = np.stack(known)  # type: ignore[arg-type]
        return build_episode(user_id, conversation, messages, vectors, extractor=self.name)

    def extract(self, episode: Episode, related: Sequence[Fact]) -> Extraction:
        """Extract the facts of one episode; related facts whose value changed are superseded."""
        facts = episode_facts(episode, extractor=self.name)
        mine = [f for f in related if f.user_id == episode.user_id]
        done = episode.with_extraction(extractor=self.name, status="done")
        return Extraction(done, facts, superseded_by(facts, mine), Usage())
