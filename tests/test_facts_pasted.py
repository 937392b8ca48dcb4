"""Someone else's words pasted or quoted into a user's message give no facts about the user."""

from __future__ import annotations

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
