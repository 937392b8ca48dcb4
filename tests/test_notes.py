"""A note is a fact: added through Memory (and so MCP), it is stored as an episode and a fact."""

from __future__ import annotations

import pytest

from nemori_cli.errors import UsageError
from nemori_cli.memory import Memory


def test_a_note_the_extractor_finds_no_fact_in_becomes_one(data_dir) -> None:
    memory = Memory.open(data_dir=data_dir)
    summary = memory.add_note("The user's favourite tea is genmaicha.")
    assert summary.episodes == 1 and summary.facts == 1
    (episode,) = memory.episodes()
    (fact,) = memory.facts()
    assert fact.content == "The user's favourite tea is genmaicha."
    assert fact.source_episode_ids == (episode.id,)
    assert fact.source_message_ids == tuple(m.id for m in episode.messages)
    assert fact.category in ("user_profile", "other")
    hits = memory.search("which tea does the user like", kind="fact", k=3)
    assert hits and hits[0].id == fact.id


def test_a_given_category_is_kept_and_a_bad_one_refused(data_dir) -> None:
    memory = Memory.open(data_dir=data_dir)
    memory.add_note("Dentist appointment on 3 March at 10:00.", category="experience")
    (fact,) = memory.facts()
    assert fact.category == "experience"
    with pytest.raises(UsageError, match="unknown category"):
        memory.add_note("Something.", category="gossip")
    with pytest.raises(UsageError, match="empty"):
        memory.add_note("   ")


def test_a_first_person_note_keeps_the_extractors_fact(data_dir) -> None:
    memory = Memory.open(data_dir=data_dir)
    memory.add_note("I am allergic to peanuts.")
    contents = [f.content for f in memory.facts()]
    assert len(contents) == 1 and "allergic to peanuts" in contents[0]
