"""Someone else's words pasted or quoted into a user's message give no facts about the user."""

from __future__ import annotations

import pytest

from nemori_cli.models import Message
from nemori_cli.pipeline.facts import statements


def facts_of(text: str) -> list[str]:
    message = Message(id="m", role="user", content=text)
    return [s.content for s in statements(message, to_assistant=True)]


def test_a_letter_pasted_after_saying_whose_it_is_is_not_the_users() -> None:
    assert facts_of(
        "I got this email from my landlord, what should I reply?\n\nDear Mr Nowak,\nI am "
        "writing to inform you that I will increase the rent by 5% from March. I have owned "
        "this building since 2010.\nKind regards,\nPieter"
    ) == []


def test_someone_elses_cv_pasted_after_a_colon_is_not_the_users() -> None:
    facts = facts_of(
        "Can you check the English of Ola's CV summary? She is applying at a design agency. "
        'She wrote it herself:\n\n"UX designer with 6 years of experience in healthcare. I am '
        'specialise in user research. In free time I am running marathons."'
    )
    assert not any("marathons" in f or "research" in f for f in facts)


def test_the_users_own_draft_pasted_stays_theirs() -> None:
    assert facts_of(
        "Can you proofread my cover letter?\n\nDear Hiring Manager,\nI have 6 years of "
        "experience as a nurse in Leeds."
    ) == ["The user has 6 years of experience as a nurse in Leeds."]


def test_what_someone_else_said_in_the_first_person_is_not_the_user() -> None:
    assert facts_of('My boss said "I am leaving the company in May" and I am worried.') == [
        "The user's boss said \"…\" and the user is worried."
    ]


def test_the_users_own_words_quoted_stay_theirs() -> None:
    assert facts_of('I told her "I am vegan now" and she laughed.') == [
        'The user told her "the user is vegan now" and she laughed.'
    ]


@pytest.mark.parametrize(
    "text",
    ["Write me a Hinge bio in first person, something like 'I'm a 34-year-old architect who "
     "spends weekends sailing'. Make up all the details.",
     "Draft a LinkedIn About section for a fictional candidate: 'I have 15 years in supply "
     "chain leadership and I speak Mandarin and Portuguese.' It's an example.",
     "My friend sent me this and I don't know how to reply: 'Hey, I got the job in Berlin!! "
     "I'm moving in March and I'm terrified.' What should I say?",
     "Fill in this template so I can reuse it: 'Hi, I am [age] years old, I work as a [job] in "
     "[city].' Give me three versions."],
)
def test_a_sample_template_or_message_quoted_after_a_colon_or_like_is_not_the_users(
    text: str,
) -> None:
    assert facts_of(text) == []


def test_the_users_own_speech_quoted_after_a_colon_stays_theirs() -> None:
    facts = facts_of(
        "here's my rough speech for my sister layla, can you tighten it:\n\n'hi everyone, I'm "
        "omar, layla's older brother. I've seen how he looks after her.'"
    )
    assert any("older brother" in f for f in facts)
