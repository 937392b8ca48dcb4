"""An episode's own vector (#0): its title and openings for an offline narrative, else title and
narrative."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from test_memory import write_chat

from nemori_cli.indexing import SHORT_NARRATIVE_CHARS, episode_texts
from nemori_cli.memory import Memory
from nemori_cli.models import Conversation, Message
from nemori_cli.pipeline.episodes import build_episode
from nemori_cli.pipeline.segment import embed_text

CHAT = [
    ("m1", "user", "I finally booked the pottery class for Saturday mornings."),
    ("m2", "user", "Nice! Is it the studio near the river you told me about?"),
    ("m3", "user", "Yes, and my sister Ana is coming along; she wants to make mugs."),
    ("m4", "user", "Mugs are a great first project. Send me photos of the first ones."),
    ("m5", "user", "Will do. The teacher said the kiln firing takes a whole week."),
]


class Recording:
    """An embedder that notes every text it is asked for, then asks the real one."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self.asked: list[str] = []

    def embed(self, texts: Any) -> Any:
        self.asked.extend(texts)
        return self.inner.embed(texts)


def episode(**extraction: Any):  # type: ignore[no-untyped-def]
    messages = tuple(Message(id=i, role=r, name=n, content=t)
                     for (i, r, t), n in zip(CHAT, ["Jo", "Sam"] * 3, strict=False))
    ep = build_episode("u", Conversation(id="c1", messages=messages), messages)
    return ep.with_extraction(**extraction)


def test_an_offline_narrative_is_not_embedded_its_title_and_openings_are() -> None:
    ep = episode(extractor="offline", status="done")
    laid = episode_texts([ep])
    own = laid.ids.index(f"{ep.id}#0")
    assert ep.title and 0 < len(ep.content) <= SHORT_NARRATIVE_CHARS  # a short narrative
    assert laid.documents[own] == f"{ep.title}\n{ep.content}"  # what doctor checks stays
    assert laid.parts[own] == [ep.title, *(embed_text(m) for m in ep.messages)]


def test_a_narrative_an_llm_wrote_is_embedded_with_its_title() -> None:
    ep = episode(extractor="llm:some-model", status="done", rewritten=True)
    laid = episode_texts([ep])
    own = laid.ids.index(f"{ep.id}#0")
    assert laid.parts[own] == [f"{ep.title}\n{ep.content}"]


def test_ingest_embeds_titles_and_openings_and_reindex_makes_the_same_vectors(
    data_dir: Path, tmp_path: Path
) -> None:
    recording = Recording(Memory.open(data_dir=data_dir).embedder)
    memory = Memory.open(data_dir=data_dir, embedder=recording)
    memory.ingest([str(write_chat(tmp_path / "chat.json", CHAT))])
    episodes = memory.episodes()
    assert episodes and all(0 < len(ep.content) <= SHORT_NARRATIVE_CHARS for ep in episodes)
    narratives = {f"{ep.title}\n{ep.content}" for ep in episodes}
    assert not narratives & set(recording.asked)  # the narratives cost no embedding
    own_ids = [f"{ep.id}#0" for ep in episodes]
    vectors = memory.parts.vectors(memory.user_id()).embeddings("episode", own_ids)
    for ep, doc_id in zip(episodes, own_ids, strict=True):
        parts = recording.inner.embed([ep.title, *(embed_text(m) for m in ep.messages)])
        mean = parts.mean(axis=0)
        mean /= np.linalg.norm(mean)
        assert float(np.dot(vectors[doc_id], mean)) > 0.999  # the episode as a whole
    memory.reindex()
    again = memory.parts.vectors(memory.user_id()).embeddings("episode", own_ids)
    for doc_id in own_ids:
        assert float(np.dot(vectors[doc_id], again[doc_id])) > 0.999
    found = [p for report in memory.doctor() for p in report.problems]
    assert not [p for p in found if p["check"] == "indexes"]  # doctor expects what is stored
