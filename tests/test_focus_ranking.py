"""What search returns for a query: second passages of long episodes, named times, fusion."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import numpy as np

from nemori_cli.models import Conversation, Fact, Message, utcnow
from nemori_cli.pipeline.episodes import build_episode
from nemori_cli.pipeline.named_dates import named_period
from nemori_cli.search.focus import refine
from nemori_cli.search.fusion import to_hit
from nemori_cli.search.periods import query_period
from nemori_cli.search.questions import asks_when, says_when

START = datetime(2023, 6, 3, 10, 0, tzinfo=UTC)
FILLER = [
    "How was your week, anything fun going on lately?",
    "Work has been busy but fine, the usual meetings and emails.",
    "The weather turned nice, finally some sun after all that rain.",
    "I watched a documentary about octopuses, they are so clever.",
]


def episode(special: dict[int, str], n: int = 20, conv: str = "s1"):  # type: ignore[no-untyped-def]
    messages = [
        Message(
            id=f"{conv}:{i + 1}",
            role="user",
            content=special.get(i, FILLER[i % 4]),
            name=("Caroline", "Melanie")[i % 2],
            timestamp=START + timedelta(minutes=i),
        )
        for i in range(n)
    ]
    return build_episode("u1", Conversation(id=conv, messages=tuple(messages)), messages)


def fact(content: str, when: datetime, n: int) -> Fact:
    return Fact(
        id=f"f{n}",
        user_id="u1",
        content=content,
        category="experience",
        source_episode_ids=("ep",),
        source_message_ids=(f"m{n}",),
        confidence=1.0,
        created_at=utcnow(),
        valid_from=when,
        extractor="offline",
    )


def no_vectors(kind: str, ids: object) -> dict[str, np.ndarray]:
    return {}


def test_two_passages_of_one_long_episode_come_back_as_two_honest_hits() -> None:
    ep = episode(
        {
            2: "We went camping at the lake with the kids.",
            15: "The camping trip at the lake was the best part of our summer.",
        }
    )
    hits = [to_hit("episode", ep, 1.0, {ep.id: ep}.get)]
    out = refine(hits, {ep.id: ep}, "camping at the lake", np.zeros(4), no_vectors)
    assert [h.id for h in out] == [ep.id, ep.id]
    first, second = (set(h.message_ids) for h in out)
    assert {"s1:3", "s1:16"} <= first | second
    assert not first & second  # the passages do not repeat each other's turns
    for h in out:
        assert len(h.message_ids) <= 4
        assert set(h.message_ids) <= set(ep.message_ids)
        shown = [m for m in ep.messages if m.id in h.message_ids]
        assert all(m.content in h.content for m in shown)


def test_a_long_episode_with_one_matching_passage_gives_one_hit() -> None:
    ep = episode({9: "I went to a pottery workshop and made a bowl!"})
    hits = [to_hit("episode", ep, 1.0, {ep.id: ep}.get)]
    out = refine(hits, {ep.id: ep}, "pottery workshop", np.zeros(4), no_vectors)
    assert len(out) == 1 and "s1:10" in out[0].message_ids


def test_a_question_naming_a_month_prefers_what_happened_then() -> None:
    may, june = datetime(2023, 5, 20, tzinfo=UTC), datetime(2023, 6, 20, tzinfo=UTC)
    facts = [
        fact("Melanie went camping with her family.", may, 1),
        fact("Melanie went camping with her family.", june, 2),
    ]
    hits = [to_hit("fact", f, 1.0, lambda _: None) for f in facts]
    for query, first in [("When did Melanie go camping in June?", "f2"),
                         ("When did Melanie go camping in May 2023?", "f1")]:
        out = refine(hits, {}, query, np.zeros(4), no_vectors, period=query_period(query, None))
        assert out[0].id == first


def test_named_period_reads_days_and_months_a_question_names() -> None:
    on_day = named_period("What did Maria share on 16 June, 2023?")
    assert on_day and on_day(date(2023, 6, 16)) and not on_day(date(2023, 6, 20))
    us_style = named_period("What painting did Melanie show on October 13, 2023?")
    assert us_style and us_style(date(2023, 10, 13))
    month = named_period("What did Maria donate in December 2023?")
    assert month and month(date(2023, 12, 24)) and month(date(2024, 1, 3))  # told a week after
    assert not month(date(2023, 11, 30)) and not month(date(2024, 1, 20))
    any_year = named_period("When did Melanie go camping in June?")
    assert any_year and any_year(date(2022, 6, 1)) and not any_year(date(2022, 8, 1))
    assert named_period("May I ask what Melanie paints?") is None
    assert named_period("this may be about her trip") is None  # the verb, not the month
    in_may = named_period("what happened in May?")
    assert in_may and in_may(date(2023, 5, 20))
    no_such_day = named_period("Did she go on 31 February, 2023?")  # the month still counts
    assert no_such_day and no_such_day(date(2023, 2, 10))


def test_named_period_reads_a_range_with_the_week_after_it() -> None:
    days = named_period("Where was I between August 11 and August 15 2023?")
    assert days and days(date(2023, 8, 11)) and days(date(2023, 8, 17))  # told two days later
    assert not days(date(2023, 8, 10)) and not days(date(2023, 8, 23))
    months = named_period("What did I cook from March to May, 2023?")
    assert months and months(date(2023, 3, 1)) and months(date(2023, 5, 31))
    assert not months(date(2023, 2, 28)) and not months(date(2023, 6, 8))
    backwards = named_period("between 20 June and 3 June, 2023")  # no range: the named day
    assert backwards and backwards(date(2023, 6, 3)) and not backwards(date(2023, 6, 10))

def test_a_when_question_prefers_the_turn_that_names_a_time() -> None:
    ep = episode(
        {
            3: "I really love going camping with my kids at the lake.",
            14: "We went camping at the lake last weekend, the kids loved it.",
        }
    )
    hits = [to_hit("episode", ep, 1.0, {ep.id: ep}.get)]
    eps = {ep.id: ep}
    out = refine(hits, eps, "When did Melanie go camping at the lake?", np.zeros(4), no_vectors)
    assert "s1:15" in out[0].message_ids  # the dated telling comes first
    out = refine(hits, eps, "Where does Melanie go camping at the lake?", np.zeros(4), no_vectors)
    assert "s1:4" in out[0].message_ids  # not a "when" question: the better word match leads


def test_asks_when_and_says_when() -> None:
    for q in ("When did Caroline move?", "In which year did he start?", "What month was it?",
              "How many weeks passed between adopting Coco and Shadow?",
              "How many days ago did I buy my bike?"):
        assert asks_when(q), q
    for q in ("Where did Caroline move?", "Who said when it was?", "What did she paint?",
              "How many days did James plan to spend in Canada?"):
        assert not asks_when(q), q
    for text in ("We moved in 2019.", "I went there last Saturday", "two weeks ago", "in March"):
        assert says_when(text), text
    assert not says_when("We may go hiking with the dog.")


def test_the_first_hits_follow_the_lead_ranking_and_nothing_repeats() -> None:
    facts = [fact(f"Melanie went camping near the river number {n}.", START, n) for n in range(4)]
    hits = [to_hit("fact", f, 1.0, lambda _: None) for f in facts]
    lead = list(reversed(hits))
    query = "camping near the river"
    plain = refine(hits, {}, query, np.zeros(4), no_vectors)
    assert [h.id for h in plain] == ["f0", "f1", "f2", "f3"]
    led = refine(hits, {}, query, np.zeros(4), no_vectors, lead=lead, head=2)
    assert [h.id for h in led] == ["f3", "f2", "f0", "f1"]  # each fact once
    only_lead = [to_hit("fact", fact("Melanie likes the river.", START, 9), 1.0, lambda _: None)]
    led = refine(hits[:1], {}, "river", np.zeros(4), no_vectors, lead=only_lead, head=1)
    assert [h.id for h in led] == ["f9", "f0"]  # a lead hit outside the pool still leads
