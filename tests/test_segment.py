"""Episode boundaries: time gaps, maximum length, topic shifts, and full ordered coverage."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nemori_cli.config import Settings
from nemori_cli.embed import LocalEmbedder
from nemori_cli.models import Conversation, Message
from nemori_cli.pipeline.offline import OfflineExtractor
from nemori_cli.pipeline.segment import (
    depth_scores,
    gap_spans,
    segment_spans,
    window_similarities,
)

T0 = datetime(2025, 6, 14, 9, 0, tzinfo=UTC)

HIKING = [
    "I'm planning a hut-to-hut hike in the Swiss Alps this September.",
    "The Walker's Haute Route from Chamonix to Zermatt takes about twelve days on foot.",
    "My sister wants to join me for the first few stages of the trek.",
    "Book the mountain huts early, the popular ones on the route fill up by July.",
    "Should I bring trekking poles for the steep descents from the passes?",
    "Yes, poles help a lot on the rocky descents and save your knees.",
]
PYTHON = [
    "How do I run three HTTP requests concurrently with Python asyncio?",
    "Use asyncio.gather or a TaskGroup to await the coroutines together.",
    "What happens to the other tasks when one coroutine raises an exception?",
    "A TaskGroup cancels the remaining tasks and raises an ExceptionGroup.",
    "And how do I put a timeout around the whole group of tasks?",
    "Wrap the block in async with asyncio.timeout(2.0) to cancel it after two seconds.",
]


def conv(texts: Sequence[str], minutes: Sequence[float] | None = None) -> Conversation:
    minutes = minutes if minutes is not None else [i for i in range(len(texts))]
    msgs = tuple(
        Message(
            id=f"m{i}",
            role="user" if i % 2 == 0 else "assistant",
            content=t,
            timestamp=T0 + timedelta(minutes=m),
        )
        for i, (t, m) in enumerate(zip(texts, minutes, strict=True))
    )
    return Conversation(id="c1", messages=msgs)


def fake_embed(texts: Sequence[str]) -> np.ndarray:
    """One fixed random direction per distinct first word: a topic per word."""
    rows = []
    for t in texts:
        seed = sum(ord(c) for c in t.split()[0]) if t.split() else 0
        v = np.random.default_rng(seed).normal(size=16).astype(np.float32)
        rows.append(v / np.linalg.norm(v))
    return np.stack(rows)


def extractor(embed=fake_embed, **changes) -> OfflineExtractor:  # type: ignore[no-untyped-def]
    return OfflineExtractor(Settings(data_dir=Path("unused"), **changes), embed)


def sizes(segments: Sequence[Sequence[Message]]) -> list[int]:
    return [len(s) for s in segments]


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    return LocalEmbedder()


def test_time_gap_over_threshold_starts_a_new_episode() -> None:
    texts = ["same topic here"] * 6
    segments = extractor().segment(conv(texts, [0, 1, 2, 40, 41, 42]))
    assert sizes(segments) == [3, 3]
    assert segments[1][0].id == "m3"


def test_only_gaps_longer_than_the_setting_split() -> None:
    same = ["same"] * 4
    assert sizes(extractor().segment(conv(same, [0, 1, 31, 32]))) == [4]  # exactly 30 minutes
    assert sizes(extractor().segment(conv(same, [0, 1, 32, 33]))) == [2, 2]
    assert sizes(extractor(gap_minutes=60).segment(conv(same, [0, 1, 32, 33]))) == [4]


def test_messages_without_timestamps_are_never_split_by_time() -> None:
    msgs = tuple(Message(id=f"m{i}", role="user", content="same words") for i in range(5))
    assert sizes(extractor().segment(Conversation(id="c", messages=msgs))) == [5]


def test_long_conversation_is_cut_at_max_length_into_balanced_pieces() -> None:
    segments = extractor(max_episode_messages=10).segment(conv(["same topic"] * 25))
    assert all(len(s) <= 10 for s in segments)
    assert len(segments) == 3  # no more pieces than needed
    assert min(sizes(segments)) >= 4


def test_length_cut_prefers_the_topic_dip() -> None:
    texts = ["alpha words"] * 7 + ["omega words"] * 5
    segments = extractor(max_episode_messages=10, topic_shift_threshold=5.0).segment(conv(texts))
    assert sizes(segments) == [7, 5]


def test_topic_shift_is_cut_with_the_fake_embedder() -> None:
    texts = ["alpha one"] * 6 + ["omega two"] * 6
    assert sizes(extractor().segment(conv(texts))) == [6, 6]


def test_no_topic_cut_leaves_an_episode_below_four_messages() -> None:
    texts = ["alpha"] * 2 + ["omega"] * 8
    assert min(sizes(extractor().segment(conv(texts)))) >= 4


def test_topic_shift_with_the_real_embedder(local: LocalEmbedder) -> None:
    segments = extractor(local.embed).segment(conv(HIKING + PYTHON))
    assert sizes(segments) == [6, 6]


def test_one_topic_stays_one_episode_with_the_real_embedder(local: LocalEmbedder) -> None:
    assert sizes(extractor(local.embed).segment(conv(HIKING + HIKING[:3]))) == [9]


def test_each_message_is_embedded_at_most_once() -> None:
    calls: list[str] = []

    def counting(texts: Sequence[str]) -> np.ndarray:
        calls.extend(texts)
        return fake_embed(texts)

    ex = extractor(counting)
    c = conv(["alpha one"] * 6 + ["omega two"] * 6)
    for seg in ex.segment(c):
        ex.episode("me", c, seg)
    assert len(calls) == 12


def test_short_conversations_need_no_embedding() -> None:
    def failing(texts: Sequence[str]) -> np.ndarray:
        raise AssertionError("embedded a conversation too short to cut")

    assert sizes(extractor(failing).segment(conv(["hi", "hello", "how are you"]))) == [3]


def test_depth_scores_peak_at_the_dip() -> None:
    depths = depth_scores([0.9, 0.8, 0.2, 0.85, 0.9])
    assert max(range(5), key=lambda i: depths[i]) == 2
    assert depths[2] == pytest.approx(((0.9 - 0.2) + (0.9 - 0.2)) / 2)


def test_window_similarities_ignore_empty_message_vectors() -> None:
    v = np.array([[1, 0], [0, 0], [1, 0], [0, 1]], dtype=np.float32)
    sims = window_similarities(v, window=1)
    assert sims[0] == 1.0 and sims[2] == 0.0  # the zero vector is neither similar nor not


@settings(max_examples=150, deadline=None)
@given(
    gaps=st.lists(st.integers(0, 90), min_size=0, max_size=60),
    topics=st.lists(st.integers(0, 3), min_size=60, max_size=60),
    max_len=st.integers(1, 30),
    threshold=st.floats(0.0, 1.0),
)
def test_segments_cover_every_message_once_in_order(
    gaps: list[int], topics: list[int], max_len: int, threshold: float
) -> None:
    minutes = np.cumsum([0, *gaps]).tolist()
    msgs = [
        Message(id=f"m{i}", role="user", content="x", timestamp=T0 + timedelta(minutes=m))
        for i, m in enumerate(minutes)
    ]
    basis = np.eye(4, dtype=np.float32)
    vectors = basis[topics[: len(msgs)]]
    spans = segment_spans(
        msgs, vectors, gap_minutes=30, max_messages=max_len, shift_threshold=threshold
    )
    flat = [i for a, b in spans for i in range(a, b)]
    assert flat == list(range(len(msgs)))
    assert all(b - a <= max_len for a, b in spans)
    assert all(b > a for a, b in spans)
    # cuts inside a stretch without a long pause never leave a piece under four messages
    blocks = gap_spans(msgs, 30)
    for a, b in spans:
        if max_len >= 8 and (a, b) not in blocks:
            assert b - a >= 4

# Two people chatting: each topic comes back to the same words, as real chats do.
TRAIL = [
    "We finally did the ridge trail hike on Saturday, the mountain views were unreal.",
    "That ridge trail is tough! How long did the hike take you to the summit?",
    "About five hours up the mountain trail, my legs still hurt from the hike.",
    "Next time take the lake trail down, it is easier on the legs after a long hike.",
    "Good tip, the lake trail sounds nicer. Want to hike the mountain together in June?",
    "Yes! A June hike on the mountain trail with you would be great.",
]
GARDEN = [
    "By the way, my tomato plants in the garden finally have flowers.",
    "Nice, tomato flowers already? What garden soil do you use for the plants?",
    "Just compost from our garden bin, the tomato plants love it.",
    "I should start compost for my garden too, my plants look sad.",
    "Compost really helps the plants. I can bring you tomato seedlings for your garden.",
    "Please do! Tomato seedlings would make my garden so happy.",
]


def people(texts: Sequence[str]) -> Conversation:
    msgs = tuple(
        Message(id=f"p{i}", role="user", name=("Ana", "Ben")[i % 2], content=t,
                timestamp=T0 + timedelta(minutes=i))
        for i, t in enumerate(texts)
    )
    return Conversation(id="c2", messages=msgs)


def test_chats_between_people_use_word_overlap_without_embedding() -> None:
    def failing(texts: Sequence[str]) -> np.ndarray:
        raise AssertionError("a chat between people should not be embedded")

    assert sizes(extractor(failing).segment(people(TRAIL + GARDEN))) == [6, 6]
    assert sizes(extractor(failing).segment(people(TRAIL + TRAIL[:4]))) == [10]


def test_topic_signal_can_be_forced(local: LocalEmbedder) -> None:
    forced = OfflineExtractor(Settings(data_dir=Path("x")), local.embed, topic_signal="embedding")
    assert sizes(forced.segment(people(HIKING + PYTHON))) == [6, 6]
    with pytest.raises(ValueError, match="topic_signal"):
        OfflineExtractor(Settings(data_dir=Path("x")), local.embed, topic_signal="magic")
