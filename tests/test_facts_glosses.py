"""A name the user glosses as theirs ("Biscuit (our border terrier)") is a fact of its own."""

from __future__ import annotations

import pytest

from nemori_cli.models import Message
from nemori_cli.pipeline.facts import statements


def facts_of(text: str) -> list[str]:
    message = Message(id="m", role="user", content=text)
    return [s.content for s in statements(message, to_assistant=True)]


def test_a_gloss_in_brackets_says_who_the_name_is() -> None:
    facts = facts_of(
        "I want a column for losses, Biscuit (our border terrier, a complete menace) dug up "
        "an entire row of carrots last summer"
    )
    assert "The user's border terrier is called Biscuit." in facts


def test_what_is_said_of_the_users_family_stays_a_fact_with_the_gloss() -> None:
    assert facts_of("Marcus, my youngest, is allergic to peanuts.") == [
        "The user's youngest Marcus is allergic to peanuts.",
        "The user's youngest is called Marcus.",
    ]


def test_a_gloss_comes_on_top_of_the_users_own_facts() -> None:
    facts = facts_of(
        "I work nights on a cardiac ward in Leeds. I usually sleep from 9am until noon. I have "
        "two kids and a dog. Lorraine, our charge nurse, swears by melatonin."
    )
    assert facts == [  # three a message at most, and nothing of what Lorraine swears by
        "The user works nights on a cardiac ward in Leeds.",
        "The user usually sleeps from 9am until noon.",
        "The user has two kids and a dog.",
        "The user's charge nurse is called Lorraine.",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, my friend, you always know what to say about my garden.",
        "Last Tuesday, my gf, Toby, and I played board games all night.",
        "Oh, my goodness, I finally finished the marathon in Berlin.",
    ],
)
def test_a_greeting_a_date_or_an_exclamation_is_no_name(text: str) -> None:
    assert not [f for f in facts_of(text) if "is called" in f]


@pytest.mark.parametrize(
    ("text", "gloss"),
    [
        ("I emailed my boss, Karen, about Friday", "The user's boss is called Karen."),
        ("Rewrite this email to my boss, Karen, asking for Friday off.",
         "The user's boss is called Karen."),
        ("We adopted our dog, Rex.", "The user's dog is called Rex."),
        ("my starter, Gaston, has been sluggish", "The user's starter is called Gaston."),
    ],
)
def test_a_name_after_its_gloss_says_who_the_name_is(text: str, gloss: str) -> None:
    assert gloss in facts_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "my sister, Tom and Anna came over",
        "I invited my sister, Tom, and Anna",
        "I've had some tough times with my business, Jon.",  # said to Jon
        "One of my students, Mia, has ADHD and struggles to focus",
    ],
)
def test_a_list_or_an_addressee_after_a_relation_is_not_its_name(text: str) -> None:
    assert not [f for f in facts_of(text) if "is called" in f]


@pytest.mark.parametrize(
    ("text", "fact"),
    [("Priya is my manager, can you help me word an email to her?",
      "The user's manager is called Priya."),
     ("Biscuit's our dog and he keeps barking at the postman.",
      "The user's dog is called Biscuit."),
     ("Mark is my brother-in-law.", "The user's brother-in-law is called Mark.")],
)
def test_a_sentence_saying_whose_a_name_is_says_who_they_are(text: str, fact: str) -> None:
    assert fact in facts_of(text)


@pytest.mark.parametrize(
    "text", ["Attached is my CV, can you tweak it?", "Today is my birthday!",
             "Python is my favourite language.", "Friday is my day off."],
)
def test_a_word_opening_a_sentence_before_is_my_is_no_ones_name(text: str) -> None:
    assert not any("is called" in fact for fact in facts_of(text))
