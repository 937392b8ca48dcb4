"""What a user tells an assistant that is not their life: a world imagined, a joke, someone
else's family, and the question typed on after a statement without a stop."""

from __future__ import annotations

import pytest

from nemori_cli.models import Message
from nemori_cli.pipeline.facts import statements


def facts_of(text: str) -> list[str]:
    message = Message(id="m", role="user", content=text)
    return [s.content for s in statements(message, to_assistant=True)]


@pytest.mark.parametrize(
    "text",
    ["If I won the lottery I'd buy a vineyard in Tuscany and never answer an email again.",
     "If I ever moved to Canada I would get a husky.",
     "If we would move to Haarlem, my commute is only 15 min, but Ola's is 1h+.",
     "What if I quit my job and moved to Portugal on a digital nomad visa, how would taxes work?",
     "I thought conditional expressions were allowed in comprehensions.",
     "Suppose I'm a small business owner in Texas with 3 employees. How does payroll work?",
     "Let's say I'm a teacher with 30 kids, how would I split them into groups?",
     "oh great, another 'wake up at 5am' tip, because clearly I'm a monk living in a cave 🙄",
     "Yeah I'm totally a morning person /s"],
)
def test_a_world_imagined_or_said_in_jest_gives_no_fact(text: str) -> None:
    assert facts_of(text) == []


def test_a_plan_under_a_condition_stays_a_fact() -> None:
    assert facts_of("If we replace it we'd want something reliable and used, under $20,000.") == [
        "If the user replaces it the user would want something reliable and used, under $20,000."
    ]


def test_someone_elses_people_are_not_the_users_but_the_user_after_them_is() -> None:
    assert facts_of("My neighbour's teenage son wants to get into welding.") == []
    assert facts_of("My friend's holiday potluck is Saturday and I want to bring a main dish.") == [
        "The user's friend's holiday potluck is Saturday and the user wants to bring a main dish."
    ]
    assert facts_of("My sister's son just started school.") == [
        "The user's sister's son just started school."
    ]


@pytest.mark.parametrize(
    ("text", "fact"),
    [("my coworker Dan is vegan AND keto at the same time lol, what can he even eat",
      "The user's coworker Dan is vegan AND keto at the same time."),
     ("i keep botching crosswind landings in the cessna 172 do you have any mental tricks",
      "The user keeps botching crosswind landings in the cessna 172."),
     ("I'm terrified of flying, so trains please.", "The user is terrified of flying."),
     ("I'm terrified of flying, so trains please for the trip to Berlin.",
      "The user is terrified of flying."),
     ("I'm vegetarian so no meat please, eggs and dairy are fine.",  # it tells more after
      "The user is vegetarian so no meat please, eggs and dairy are fine."),
     ("I'm vegan so plant based options please!", "The user is vegan."),
     ("I'm terrible with heights so skip anything with viewpoints.",
      "The user is terrible with heights."),
     ("I run 3 times a week, is that enough?", "The user runs 3 times a week."),
     ("I am on Fedora 39 (I only use Linux, never liked Mac) and I think podman is also "
      "installed, maybe conflict?", "The user is on Fedora 39 (the user only uses Linux, never "
      "liked Mac) and the user thinks podman is also installed.")],
)
def test_a_question_or_request_typed_on_without_a_stop_is_cut_off(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]


def test_a_fear_is_a_fact_plans_must_steer_round() -> None:
    assert facts_of("We're both terrible with heights.") == ["The user is terrible with heights."]


def test_the_user_told_again_after_a_request_is_a_fact_of_its_own() -> None:
    assert facts_of("i don't drink so skip the mezcal bars, i'm really into architecture") == [
        "The user doesn't drink.", "The user is into architecture."
    ]


@pytest.mark.parametrize(
    ("text", "fact"),
    [("We got married in 1978.", "The user got married in 1978."),
     ("We just adopted a kitten!", "The user just adopted a kitten.")],
)
def test_a_households_event_told_with_we_is_the_users(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]


@pytest.mark.parametrize(
    "text",
    ["I need a 7-day dinner plan plus a shopping list, each dinner under 40 minutes.",
     "I need a Google Sheets formula that looks up the unit price of each item.",
     "I want to mention that I'm aware of the council's housing standards team.",
     "Mark any exercise where I should ask a trainer to check my form first.",
     "No paid apps please."],
)
def test_what_the_work_should_be_or_say_is_a_request_not_a_fact(text: str) -> None:
    assert facts_of(text) == []


def test_a_name_said_as_indian_english_says_it_and_kindly_as_please() -> None:
    assert facts_of("Myself Priya, I am doing job in IT company in Pune since 2019. I want to "
                    "prepare for GATE exam also, kindly suggest the timetable.") == [
        "The user's name is Priya.", "The user is doing job in IT company in Pune since 2019.",
        "The user wants to prepare for GATE exam also."]
    assert facts_of("I'm the only developer at a furniture startup, so mention an index if it "
                    "would help.") == ["The user is the only developer at a furniture startup."]
