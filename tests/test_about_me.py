"""What a user lists under "About me:" is stated whole: each item is a fact of its own."""

from __future__ import annotations

import pytest
from test_facts_casual import facts_of

from nemori_cli.pipeline.about_me import as_said


@pytest.mark.parametrize(
    ("item", "said"),
    [
        ("live in Austin", "I live in Austin."),
        ("vegetarian", "I'm vegetarian."),
        ("training for a half marathon", "I'm training for a half marathon."),
        ("a nurse", "I'm a nurse."),
        ("two kids (8 and 11)", "I have two kids (8 and 11)."),
        ("a dog named Rex", "I have a dog named Rex."),
        ("Diet: vegetarian", "My diet is vegetarian."),
        ("I work nights", "I work nights."),
    ],
)
def test_a_listed_item_is_said_with_its_i(item: str, said: str) -> None:
    assert as_said(item) == said


def test_every_item_of_an_about_me_list_is_a_fact_before_the_request() -> None:
    assert facts_of(
        "Some background about me:\n- 29, software dev\n- live in Austin\n- vegetarian\n"
        "- training for a half marathon\nCan you make me a weekly meal plan?"
    ) == [
        "The user is 29, software dev.",
        "The user lives in Austin.",
        "The user is vegetarian.",
        "The user is training for a half marathon.",
    ]


def test_a_numbered_list_about_me_is_read_too() -> None:
    assert facts_of("A bit about me:\n1. I am 29\n2) work in finance\n3. love hiking") == [
        "The user is 29.",
        "The user works in finance.",
        "The user loves hiking.",
    ]


def test_a_list_under_another_heading_is_not_about_the_user() -> None:
    assert facts_of("Ingredients:\n- two eggs\n- vegetarian stock\n- live yoghurt") == []


def test_an_empty_item_is_passed_over() -> None:
    assert facts_of("About me:\n- .\n- vegetarian\n-  \n- live in Austin") == [
        "The user is vegetarian.",
        "The user lives in Austin.",
    ]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Me: 35M, 180cm, 90kg. Goal: lose fat", "The user is 35M, 180cm, 90kg."),
        ("About me - vegan, two kids", "The user is vegan, two kids."),
        ("About me: I'm 41, a nurse in Leeds.", "The user is 41, a nurse in Leeds."),
    ],
)
def test_a_heading_with_its_item_on_one_line_is_said_whole(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]


@pytest.mark.parametrize(
    ("item", "said"),
    [
        ("Lives in Lisbon.", "I live in Lisbon."),
        ("User is vegetarian.", "I am vegetarian."),
        ("Is a software engineer at Spotify", "I am a software engineer at Spotify."),
        ("The user's sister lives in Lyon.", "My sister lives in Lyon."),
        ("User also enjoys bouldering", "I also enjoy bouldering."),
        ("Studies law at UCL", "I study law at UCL."),
        ("Watches anime on Fridays", "I watch anime on Fridays."),
        ("User moved to Berlin in 2023.", "I moved to Berlin in 2023."),
        ("User doesn't drink alcohol.", "I don't drink alcohol."),
        ("User is citing page ranges in their bibliography", "I am citing page ranges in my "
         "bibliography."),
    ],
)
def test_an_item_written_of_the_user_is_said_by_them(item: str, said: str) -> None:
    assert as_said(item) == said


@pytest.mark.parametrize(
    "item", ["User directive for future drafts: no musical terms", "Sam is a nurse in Leeds",
             "He leads a team of six", "His daughter Leela is 7"],
)
def test_an_item_of_someone_or_something_else_stays_as_written(item: str) -> None:
    assert as_said(item) == f"{item}."


def test_an_item_of_someone_the_user_knows_says_whose_they_are() -> None:
    assert as_said("Priya is the user's manager") == "Priya is my manager."
    assert facts_of("About me:\n- Priya is the user's manager.") == [
        "The user's manager is called Priya."
    ]


def test_a_third_person_profile_gives_the_users_facts() -> None:
    assert facts_of("About me:\n- User's wife is named Ana.\n- Has a dog named Bolt.\n"
                    "- Works as a nurse and likes hiking.") == [
        "The user's wife is named Ana.", "The user has a dog named Bolt.",
        "The user works as a nurse and likes hiking.",
    ]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("My budget: around 2000 euros.", "The user's budget is around 2000 euros."),
        ("My goal: run a sub-4 marathon this year.",
         "The user's goal is to run a sub-4 marathon this year."),
        ("Plan a trip for us. My kids: Tom (8) and Ana (5).",
         "The user's kids are Tom (8) and Ana (5)."),
        # after a request to write something, the user's own field is still theirs
        ("Write a cover letter for this job: Senior Analyst at Monzo. My experience: 6 years "
         "at Deloitte as a consultant.",
         "The user's experience is 6 years at Deloitte as a consultant."),
        ("Write a cover letter for this job: Senior Analyst at Monzo. My background: 6 years "
         "at Deloitte.", "The user has 6 years at Deloitte."),
    ],
)
def test_a_field_of_the_users_own_typed_into_a_request_is_a_fact(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]


@pytest.mark.parametrize("text", ["My question: how do I fix this?", "My code: print(x)"])
def test_a_field_that_is_not_about_the_user_gives_no_fact(text: str) -> None:
    assert facts_of(text) == []
