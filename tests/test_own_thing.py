"""A work or thing the speaker named as theirs, then called "it", is what the sentence is about."""

from __future__ import annotations

import pytest
from test_facts_casual import facts_of

from nemori_cli.pipeline.own_thing import with_own_thing


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Can you help me with my thesis? It's on urban heat islands in Phoenix.",
         "The user's thesis is on urban heat islands in Phoenix."),
        ("I'm writing a fantasy novel. It's about a blind swordsman who guards a bridge.",
         "The user's fantasy novel is about a blind swordsman who guards a bridge."),
        ("We're planning our wedding. It's set in Sintra, in a vineyard.",
         "The user's wedding is set in Sintra, in a vineyard."),
    ],
)
def test_it_after_the_speakers_one_thing_is_that_thing(text: str, fact: str) -> None:
    assert fact in facts_of(text)


@pytest.mark.parametrize(
    "sentences",
    [
        ["My book and my paper are late.", "It's about cats."],  # two things: which one?
        ["I love my car.", "It's raining."],  # not what is said of a thing
        ["It's about time.", "My thesis is done."],  # nothing named before it
    ],
)
def test_it_stays_as_said_when_the_thing_is_not_one(sentences: list[str]) -> None:
    assert with_own_thing(sentences) == sentences
