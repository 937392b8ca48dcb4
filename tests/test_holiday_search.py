"""A question naming a holiday ("What was I busy with around Easter?") finds what was said in
the days around it, though its words are not the question's."""

from __future__ import annotations

from datetime import date

import pytest
from chat_sessions import START, exchange, ingested

from nemori_cli.memory import Memory
from nemori_cli.pipeline.holidays import named_holiday
from nemori_cli.search.periods import only_a_time, query_period
from nemori_cli.search.relevance import STRONG

EASTER_WEEK = 26  # START is 1 March 2024: the 27th, four days before Easter Sunday (31 March)
HALLOWEEN = 244  # 31 October 2024
BEFORE_CHRISTMAS = 291  # Tuesday 17 December 2024


def sessions() -> list[dict[str, object]]:
    """A session every other day about being busy, none near the holidays but two that
    say what was done then in other words."""
    convs = []
    for day in range(0, 300, 2):
        if abs(day - EASTER_WEEK) < 12 or abs(day - HALLOWEEN) < 12:
            continue
        said = f"I was busy with chores and errands all day, nothing special, note {day}."
        convs.append(exchange(f"c{day}", day, said, "Sounds like a full day."))
    convs.append(exchange("easter", EASTER_WEEK + 1, "The final picture book pages are due on "
                          "the 15th, so I'm inking from dawn to dusk.", "Good luck with it!"))
    convs.append(exchange("costume", HALLOWEEN, "Made the kids dragon costumes from "
                          "cardboard, they trick-or-treated for hours.", "What fun!"))
    convs.append(exchange("flight", BEFORE_CHRISTMAS, "flying home to Chile on friday for three "
                          "weeks. any tips for the jet lag?", "Shift your sleep a little."))
    return convs


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    return ingested(tmp_path_factory.mktemp("holidays"), sessions())


def first_sessions(memory: Memory, question: str, today: date | None = None) -> list[str]:
    hits = memory.search(question, k=10, today=today)
    return list(dict.fromkeys(h.conversation_id or "" for h in hits))[:3]


def test_a_holiday_finds_the_sessions_around_it(memory: Memory) -> None:
    assert START.date() == date(2024, 3, 1)
    assert "easter" not in first_sessions(memory, "What was I busy with?")
    assert "easter" in first_sessions(memory, "What was I busy with around Easter?")
    assert "costume" in first_sessions(memory, "What was I up to at Halloween?")
    # a process that did not write reads the flat copy of the vectors, not Chroma
    reader = Memory.open(data_dir=memory.parts.data_dir)
    assert "costume" in first_sessions(reader, "What was I up to at Halloween?")


def test_a_plan_told_before_the_holiday_is_found_at_it(memory: Memory) -> None:
    """Said on 17 December, "flying home on Friday" is the 20th: within Christmas 2024."""
    asked = "Where was I over Christmas 2024?"
    assert first_sessions(memory, asked, today=date(2025, 6, 1))[0] == "flight"
    assert "flight" not in first_sessions(memory, "Where was I at Easter 2024?",
                                          today=date(2025, 6, 1))


def test_a_hit_of_the_time_asked_about_alone_is_a_strong_match(memory: Memory) -> None:
    """"Where was I over Christmas?" shares no word with "flying home to Chile": the time
    is the whole question, so the flight (told on the 17th, of the 20th) is relevant, as are
    the chores of the days around Christmas, and those of other days are not."""
    hits = memory.search("Where was I over Christmas 2024?", k=10, today=date(2025, 6, 1))
    flight = [h for h in hits if h.conversation_id == "flight"]
    assert flight and all((h.relevance or 0) >= STRONG for h in flight)
    chores = [h for h in hits if h.conversation_id != "flight" and h.timestamp]
    assert {(h.relevance or 0) >= STRONG for h in chores} == {True, False}
    for h in chores:
        assert ((h.relevance or 0) >= STRONG) is (h.timestamp.date() >= date(2024, 12, 20))
    # a question with more to it than the time is as relevant as its other words make it
    asked = memory.search("What did I cook over Christmas 2024?", k=5, today=date(2025, 6, 1))
    assert all((h.relevance or 0) < STRONG for h in asked)


@pytest.mark.parametrize(
    ("question", "only_time"),
    [("Where was I over Christmas 2024?", True), ("What did I do last weekend?", True),
     ("What was I up to in June?", True), ("What happened on 3 May 2023?", True),
     ("What did I cook at Christmas?", False), ("Who did I meet over Easter?", False),
     ("When did I go hiking?", False), ("What did Caroline do last week?", False)],
)
def test_a_question_asks_about_a_time_alone(question: str, only_time: bool) -> None:
    assert only_a_time(question) is only_time


def test_this_year_is_the_year_of_the_day_asked(memory: Memory) -> None:
    asked = "What was I busy with around Easter this year?"
    assert "easter" in first_sessions(memory, asked, today=date(2024, 12, 1))
    assert "easter" not in first_sessions(memory, asked, today=date(2026, 12, 1))


@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        ("What did I do around Easter this year?", date(2026, 3, 31), date(2026, 4, 9)),
        ("What did we eat at Christmas 2023?", date(2023, 12, 20), date(2023, 12, 29)),
        ("Where was I last Christmas?", date(2025, 12, 20), date(2025, 12, 29)),
        ("Who came on Thanksgiving last year?", date(2025, 11, 22), date(2025, 12, 1)),
        ("What did I do on New Year's Eve 2024?", date(2024, 12, 26), date(2025, 1, 4)),
        ("What did I plan for this Halloween?", date(2026, 10, 26), date(2026, 11, 4)),
        ("What did I do on Good Friday 2025?", date(2025, 4, 13), date(2025, 4, 22)),
    ],
)
def test_a_holiday_with_its_year_is_a_few_days(question: str, first: date, last: date) -> None:
    period = query_period(question, date(2026, 12, 3))
    assert period is not None and period.span == (first, last) and period.few_days


def test_a_holiday_without_a_year_is_that_holiday_in_any_year() -> None:
    period = query_period("What did I cook for Christmas?", date(2026, 12, 3))
    assert period is not None and period.span is None
    assert period.contains(date(2019, 12, 26)) and period.contains(date(2024, 12, 23))
    assert not period.contains(date(2024, 12, 10))
    new_year = query_period("Where was I on New Year's Day?")  # its days cross the year
    assert new_year is not None and new_year.contains(date(2023, 12, 30))


@pytest.mark.parametrize(
    "text",
    ["What are my goals for the new year?", "Where did I buy Easterbrook tiles?",
     "What did I say about patrick?"],
)
def test_words_that_are_not_a_holiday_name_none(text: str) -> None:
    assert named_holiday(text) is None


def test_this_year_alone_is_from_new_year_to_today() -> None:
    period = query_period("Which came first this year, the fair or the party?", date(2024, 9, 1))
    assert period is not None and period.span == (date(2024, 1, 1), date(2024, 9, 1))


@pytest.mark.parametrize(
    "question",
    ["What did I do on 31 December, 9999?", "What did I do on 1 January, 0001?",
     "Christmas 0000", "New Year's Day 0001", "Christmas 9999"],
)
def test_a_time_at_the_calendars_ends_is_no_error(memory: Memory, question: str) -> None:
    period = query_period(question, date(2024, 12, 1))
    assert period is None or not period.contains(date(9999, 12, 31))
    assert memory.search(question, k=3, today=date(2024, 12, 1))  # searched, not raised
