"""A question naming a day ("What did I watch on 3 March, 2024?", "... yesterday?") finds
that day's episode, though its words are not the question's and many other episodes match the
question better."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from cli_runner import cli

from nemori_cli.errors import UsageError
from nemori_cli.memory import Memory
from nemori_cli.pipeline.named_dates import named_span
from nemori_cli.search.periods import query_period

START = datetime(2024, 1, 1, 20, 0, tzinfo=UTC)
GAP = 1  # days between sessions
THAT = 63  # the session of Monday 4 March 2024, the day after the one the question names
SAID_THAT_DAY = "Took your advice and went through the whole trilogy last night, all three!"
TOPICS = ["a movie I watched", "the film we saw", "watching a movie at home",
          "a movie night with friends", "which movie to watch next"]


def sessions() -> list[dict[str, object]]:
    """120 sessions; in all but one the user talks of movies in the question's words."""
    convs = []
    for n in range(120):
        when = START + timedelta(days=GAP * n)
        text = SAID_THAT_DAY if n == THAT else (
            f"Let me tell you about {TOPICS[n % len(TOPICS)]}: it was fine, nothing special "
            f"to watch, number {n}."
        )
        convs.append({"id": f"c{n}", "messages": [
            {"id": f"c{n}:0", "role": "user", "content": text, "timestamp": when.isoformat()},
            {"id": f"c{n}:1", "role": "user", "content": "Anyway, how was your day?",
             "timestamp": (when + timedelta(minutes=1)).isoformat()},
        ]})
    return convs


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    root: Path = tmp_path_factory.mktemp("named-day")
    path = root / "chats.json"
    path.write_text(json.dumps({"conversations": sessions()}))
    mem = Memory.open(data_dir=root / "data")
    mem.ingest([str(path)])
    return mem


def test_a_question_naming_a_day_finds_that_days_episode(memory: Memory) -> None:
    hits = memory.search("What movie did I watch on 3 March, 2024?", k=5)
    assert "c63" in [h.conversation_id for h in hits]


def test_a_day_relative_to_today_finds_that_days_episode(memory: Memory) -> None:
    asked = "What movie did I watch yesterday?"
    the_day_after = memory.search(asked, k=5, today=date(2024, 3, 5))
    assert "c63" in [h.conversation_id for h in the_day_after]
    a_year_later = memory.search(asked, k=5, today=date(2025, 3, 5))
    assert "c63" not in [h.conversation_id for h in a_year_later]


@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        ("what did I do yesterday", date(2026, 12, 2), date(2026, 12, 2)),
        ("what did I cook last Saturday", date(2026, 11, 28), date(2026, 11, 28)),
        ("what did I do last Thursday", date(2026, 11, 26), date(2026, 11, 26)),
        ("what did I cook last Sat", date(2026, 11, 28), date(2026, 11, 28)),
        ("who did I see last Tues", date(2026, 12, 1), date(2026, 12, 1)),
        ("who did I meet last week", date(2026, 11, 23), date(2026, 11, 29)),
        ("what happened last weekend", date(2026, 11, 28), date(2026, 11, 29)),
        ("what did I buy two days ago", date(2026, 11, 30), date(2026, 12, 2)),
        ("what did I read last month", date(2026, 11, 1), date(2026, 12, 3)),
        ("where was I on 1 May, 2022", date(2022, 4, 30), date(2022, 5, 2)),  # named first
        ("where was I between 3 and 5 June 2023", date(2023, 6, 3), date(2023, 6, 12)),
    ],
)
def test_times_relative_to_today_are_read_as_days(question: str, first: date, last: date) -> None:
    period = query_period(question, date(2026, 12, 3))  # a Thursday
    assert period is not None and period.span == (first, last)


def test_a_named_day_does_not_reach_past_the_filters(memory: Memory) -> None:
    hits = memory.search(
        "What movie did I watch on 3 March, 2024?", k=5,
        until=START + timedelta(days=GAP * THAT - 5),
    )
    assert hits and "c63" not in [h.conversation_id for h in hits]


def test_named_span_is_the_days_a_question_names() -> None:
    assert named_span("on 3 March, 2024") == (
        datetime(2024, 3, 2).date(), datetime(2024, 3, 4).date()
    )
    assert named_span("What did I do in March?") is None  # any year: no span of days


def test_a_naive_datetime_from_the_python_api_is_read_as_utc(memory: Memory) -> None:
    """A script passing datetime(2024, 3, 1) gets filtered hits, not a TypeError."""
    hits = memory.search("What movie did I watch on 3 March, 2024?", k=5,
                         since=datetime(2024, 3, 4), until=datetime(2024, 3, 4, 23, 59))
    assert [h.conversation_id for h in hits] == ["c63"]


def test_the_day_asked_may_be_given_as_text(memory: Memory) -> None:
    # a benchmark's question date as it is written ("2024/03/05 (Tue) 09:00")
    asked = "What movie did I watch yesterday?"
    for today in ("2024-03-05", "2024/03/05 (Tue) 09:00"):
        assert "c63" in [h.conversation_id for h in memory.search(asked, k=5, today=today)]
        assert "c63" in [h.conversation_id for h in memory.ask(asked, today=today).hits[:5]]
    with pytest.raises(UsageError, match="--today"):
        memory.search(asked, today="someday")


def test_ask_reads_a_relative_day_against_the_day_it_is_asked(memory: Memory) -> None:
    asked = "What movie did I watch yesterday?"
    shown = memory.ask(asked, today=datetime(2024, 3, 5, 9, 0, tzinfo=UTC)).hits
    assert "c63" in [h.conversation_id for h in shown[:5]]


def test_the_cli_asks_as_on_the_day_today_names(memory: Memory) -> None:
    data = str(memory.parts.data_dir)
    asked = ["--data-dir", data, "search", "What movie did I watch yesterday?", "--json"]
    code, out, _ = cli(*asked, "--today", "2024-03-05")
    assert code == 0 and "c63" in [h["conversation_id"] for h in json.loads(out)[:5]]
    code, out, _ = cli(*asked, "--today", "2025-03-05")
    assert code == 0 and "c63" not in [h["conversation_id"] for h in json.loads(out)[:5]]
    # --since "yesterday" is read against that day too
    code, out, _ = cli(*asked, "--today", "2024-03-05", "--since", "yesterday")
    assert code == 0 and {h["conversation_id"] for h in json.loads(out)} >= {"c63"}
    assert all(h["timestamp"] >= "2024-03-04" for h in json.loads(out))
    for command in ("search", "ask"):
        code, out, err = cli("--data-dir", data, command, "movies", "--today", "someday")
        assert code == 2 and not out and err.count("\n") == 1 and "--today" in err
