"""In a chat with an assistant, BM25 over a whole episode scores mostly the answers' words ("a
form called Modelo 3" for "What pets have I had, and what were they called?"), so the episode
list leaves those episodes to the turn list, unless the question asks what the assistant said."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_facts_offline import episode_of

from nemori_cli.models import Episode, Message
from nemori_cli.search.lexical_lists import lexical_episodes


def episode(eid: str, *roles: str) -> Episode:
    messages = [Message(id=f"{eid}:{i}", role=r, content="words") for i, r in enumerate(roles)]
    return replace(episode_of(*messages), id=eid)


EPISODES = {e.id: e for e in [
    episode("tax", "user", "assistant"),  # a chat with an assistant
    episode("hike", "user", "user", "user"),  # people talking (LoCoMo, a group chat export)
    episode("note", "user"),  # `nemori remember`
]}
FOUND = ["tax", "hike", "note", "gone"]  # "gone": no longer stored


@pytest.mark.parametrize("question", ["What pets have I had, and what were they called?",
                                      "Where did I go hiking in May?"])
def test_a_question_about_the_user_keeps_episodes_without_an_assistant(question: str) -> None:
    assert lexical_episodes(FOUND, EPISODES, question) == ["hike", "note"]


@pytest.mark.parametrize("question", ["What did you say the yearly tax form is called?",
                                      "Can you remind me which hotel you recommended?"])
def test_a_question_about_what_the_assistant_said_keeps_every_episode(question: str) -> None:
    assert lexical_episodes(FOUND, EPISODES, question) == FOUND
