"""Offline facts read as prose: chat shorthand in plain words, no fillers, no wrong subject."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from nemori_cli.models import Message, with_time
from nemori_cli.pipeline.facts import statements

MAY8 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def said(content: str, name: str | None = None) -> list[str]:
    """The fact texts one message yields."""
    message = Message(id="m1", role="user", content=content, name=name, timestamp=MAY8)
    return [with_time(s.content, s.when) for s in statements(message)]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        # the speaker's second verb after "and" agrees with "the user" too
        ("We moved to Leeds in March and still don't know the area at all.",
         "The user moved to Leeds in March and still doesn't know the area at all."),
        ("I use a Fujifilm X-T30 and want to get into street photography.",
         "The user uses a Fujifilm X-T30 and wants to get into street photography."),
        ("I'm saving for a condo, my goal is $40k and I have about $18k so far.",
         "The user is saving for a condo, their goal is $40k and the user has about $18k so far."),
        ("I believe in health and love.", "The user believes in health and love."),
        ("My dog and I love the beach.", "The user and their dog love the beach."),
        # a possessive before "and I" is no one beside the speaker
        ("It's my coworker's birthday on Friday and I want to bake a cake for the unit.",
         "It's the user's coworker's birthday on Friday and the user wants to bake a cake for the"
         " unit."),
        ("My kid asked and I fumbled the answer.",
         "The user's kid asked and the user fumbled the answer."),
        ("ha I like the mood and personality thing.", "The user likes the mood and personality"
         " thing."),
    ],
)
def test_every_verb_of_the_user_agrees_with_the_user(content: str, expected: str) -> None:
    assert said(content) == [expected]


@pytest.mark.parametrize(
    ("content", "name", "expected"),
    [
        ("I took my fam camping in the mountains.", "Melanie",
         "Melanie took Melanie's family camping in the mountains."),
        ("I'm gonna continue my edu in Boston and check out career options.", "Caroline",
         "Caroline is going to continue Caroline's education in Boston and check out career"
         " options."),
        ("Blue is my fave color, it makes me feel relaxed.", "Caroline",
         "Blue is Caroline's favorite color, it makes Caroline feel relaxed."),
        ("I wanna frame this pic of my bday party lol", "Jon",
         "Jon wants to frame this picture of Jon's birthday party."),
        ("I started my own biz 'cause I love fashion, tbh.", None,
         "The user started their own business because the user loves fashion."),
        # "though" at the end answers something the fact does not carry
        ("My knees have been really sore on the stairs tho.", None,
         "The user's knees have been sore on the stairs."),
        ("I moved to Leeds in the end anyway.", None, "The user moved to Leeds in the end."),
        # "no" before a noun is no filler; a pictograph is no prose
        ("no coentro anywhere, I hate it, it tastes like soap to me", None,
         "No coentro anywhere, the user hates it, it tastes like soap to the user."),
        ("I created the index concurrently, the query is now 4ms 🙏", None,
         "The user created the index concurrently, the query is now 4ms."),
        # an assent or a "forgot to say" before the statement, and "bc"
        ("ah wait i should have said, my right knee is hurting since my long run", None,
         "The user's right knee is hurting since their long run."),
        ("context — we adopted a puppy from the shelter, her name is Farofa", None,
         "The user adopted a puppy from the shelter, her name is Farofa."),
        ("I moved to Lisbon bc my partner got a job there", None,
         "The user moved to Lisbon because their partner got a job there."),
        # days and months typed in lower case get their capitals
        ("we moved to leeds in february and I start on monday", None,
         "The user moved to Leeds in February and the user starts on Monday."),
        ("I have video calls all day on mondays and fridays", None,
         "The user has video calls all day on Mondays and Fridays."),
    ],
)
def test_chat_shorthand_is_said_in_plain_words(content: str, name: str | None,
                                               expected: str) -> None:
    assert said(content, name) == [expected]


@pytest.mark.parametrize(
    ("content", "name", "expected"),
    [
        ("Actually, I just took my kids to the science museum.", "Melanie",
         "Melanie just took Melanie's kids to the science museum."),
        ("Woah, I won an international gaming tournament yesterday!", "Nate",
         "Nate won an international gaming tournament (7 May 2023)."),
        # a kept clause after the one said to the listener does not open on "so"
        ("Your story inspired me, so I joined a fire-fighting brigade.", "John",
         "John joined a fire-fighting brigade."),
        # "no" of "no one" is no filler; "no idea," is one
        ("No one in my family cooks, so I learned in Lisbon.", "Ana",
         "No one in Ana's family cooks, so Ana learned in Lisbon."),
        ("Ha, no idea, I moved to Leeds in May.", "Ana", "Ana moved to Leeds in May."),
    ],
)
def test_a_filler_does_not_open_a_fact(content: str, name: str, expected: str) -> None:
    assert said(content, name) == [expected]


@pytest.mark.parametrize(
    ("content", "wrong"),
    [
        # "It's gonna be a great night": the night, not the speaker
        ("Gonna be a great night featuring LGBTQ artists and their talents.",
         "Caroline is"),
        # "It made me think": the speaker is the object, not the subject
        ("I ran a charity race last Saturday. Really made me think about taking care of my mind.",
         "Caroline made Caroline think"),
    ],
)
def test_an_elided_subject_is_not_replaced_by_the_speaker(content: str, wrong: str) -> None:
    assert not any(fact.startswith(wrong) for fact in said(content, "Caroline"))


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("I need to find a new dentist in Leeds, mine just retired.",
         "The user needs to find a new dentist in Leeds, the user's one just retired."),
        # plural, or not the subject: "mine" stays the owner's
        ("My brother's kids are tiny, mine are grown up now and both live in Leeds.",
         "The user's brother's kids are tiny, the user's are grown up now and both live in "
         "Leeds."),
    ],
)
def test_mine_as_a_subject_is_not_read_as_the_user_having_done(content: str,
                                                                expected: str) -> None:
    """"the user's just retired" says the user has retired."""
    assert said(content) == [expected]
