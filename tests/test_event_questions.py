"""A question spanning two events ("How many days passed between X and Y?", "Which did I do
first, X or Y?", "Did I X before or after Y?") finds both sessions, though the question as
a whole matches one best (bench/haystack_pairs.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from chat_sessions import exchange, ingested

from nemori_cli.memory import Memory
from nemori_cli.search import hybrid, periods
from nemori_cli.search.periods import event_episode
from nemori_cli.search.questions import question_parts

QUESTION = "How many days passed between my pottery workshop and running my first 10k race?"
POTTERY_TIPS = (
    "Pottery glazes behave differently in every kiln: test tiles help, and so does a slow "
    "cool-down. Wedge the clay well, keep the walls even, and let pieces dry slowly under "
    "plastic so they do not crack. Many pottery studios run weekend workshops for beginners. "
) * 2


RUNNING_TIPS = (
    "A 10k training plan for a first race builds up over eight weeks: three easy runs a week, "
    "one of them longer each weekend, a few strides after the easy days and a rest day after "
    "the long run. Race day: start slower than feels right and run your own pace. "
) * 2


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (QUESTION, ["my pottery workshop", "running my first 10k race"]),
        ("Did I adopt the cat before or after moving to Leeds?",
         ["adopt the cat", "moving to Leeds"]),
        ("Was my trip to Rome before the wedding?", ["my trip to Rome", "the wedding"]),
        ("How many weeks had passed since I recovered from the flu when I ran my first 5k?",
         ["I recovered from the flu", "I ran my first 5k"]),
        ("How long had I been using my new binoculars when I saw the goldfinches?",
         ["using my new binoculars", "I saw the goldfinches"]),
        ("How many weeks have I been taking pottery classes when I bought my own wheel?",
         ["taking pottery classes", "I bought my own wheel"]),
        ("Which did I do first, adopt the cat or move to Leeds?",
         ["adopt the cat", "move to Leeds"]),
        ("Which event did I attend first: the jazz night or the book fair?",
         ["the jazz night", "the book fair"]),
        ("How many days before the team meeting did I attend the writing workshop?",
         ["the team meeting", "attend the writing workshop"]),
        ("In what order did I do these: adopt the cat, move to Leeds, and start the job?",
         ["adopt the cat", "move to Leeds", "start the job"]),
        # one thing asked about, or two things that are no events of the asker's
        ("What is the difference between a tax credit and a tax deduction?", []),
        ("Would that be my kind of thing, or what could I suggest instead?", []),
        ("Did I go to Rome or Paris?", []),
        ("Did I go to the gym after work?", []),
        ("Have I been to Spain before?", []),
        ("How long have I been learning Spanish?", []),
        ("How many days since I moved to Leeds?", []),
        ("Which of my pets, the cat or the dog, is older?", []),
    ],
)
def test_the_two_events_of_a_question(question: str, parts: list[str]) -> None:
    assert question_parts(question) == parts


def store(tmp_path: Path) -> Memory:
    """Pottery and running talk in most sessions, the workshop in one, the race in another."""
    convs = [exchange(f"tips{n}", n * 3, f"How do I stop my pottery cracking, try {n}?",
                      POTTERY_TIPS) for n in range(7)]
    convs += [exchange(f"plan{n}", n * 3 + 1, f"What's a good 10k training plan, {n}?",
                       RUNNING_TIPS) for n in range(5)]
    convs.append(exchange("workshop", 4,
                          "I went to a pottery workshop on Saturday and made my first bowl.",
                          "That sounds lovely. What glaze did you pick for the bowl?"))
    convs.append(exchange("race", 30, "Did my first 10k today, finished in 58 minutes!",
                          "Congratulations on the race! How are your legs feeling?"))
    convs.append(exchange("bike", 12, "My bike chain keeps slipping on hills.",
                          "Check the chain stretch and the rear derailleur's indexing first."))
    return ingested(tmp_path, convs)


def first_conversations(mem: Memory, n: int, question: str = QUESTION) -> list[str]:
    hits = mem.search(question, k=10, kind="episode")
    return list(dict.fromkeys(h.message_ids[0].split(":")[0] for h in hits))[:n]


def test_both_events_are_among_the_first_hits(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    mem = store(tmp_path)
    assert {"workshop", "race"} <= set(first_conversations(mem, 3))
    # each event's session reads as relevant as it is to its event, though it matches half
    # the question (to the question whole, the workshop's is about 0.5)
    shown = {h.message_ids[0].split(":")[0]: h.relevance or 0.0
             for h in reversed(mem.search(QUESTION, k=10, kind="episode"))}
    assert min(shown["workshop"], shown["race"]) >= 0.8
    # the question whole: talk round one event crowds the other out
    monkeypatch.setattr(hybrid, "PART_LISTS", False)
    assert not {"workshop", "race"} <= set(first_conversations(mem, 3))


def test_an_event_told_as_the_first_of_its_kind_is_the_earlier_of_its_best_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    convs = [
        exchange("left", 5, "Had my left cataract done yesterday, the eye drops are confusing.",
                 "Here is a simple chart for the drops, four times a day at first."),
        exchange("car", 20, "We picked up a secondhand electric car on Wednesday!",
                 "Congratulations! Charging from a normal socket overnight is fine."),
        exchange("right", 40, "My second eye operation went fine, they did the right eye.",
                 "Glad it went well. New glasses usually wait four to six weeks."),
        *(exchange(f"tips{n}", 50 + n, f"Any tips for my allotment in week {n}?",
                   "Weed little and often, and mulch the beds.") for n in range(4)),
    ]
    mem = ingested(tmp_path, convs)
    question = "Which came first: my first eye operation or getting the electric car?"
    assert set(first_conversations(mem, 2, question)) == {"left", "car"}
    monkeypatch.setattr(periods, "FIRST_OF", 1)  # the event's best alone: the second operation
    assert "left" not in first_conversations(mem, 2, question)


def test_the_episode_of_an_event() -> None:
    class Ep:
        def __init__(self, day: int | None) -> None:
            self.timestamp = datetime(2024, 1, day, tzinfo=UTC) if day else None

    episodes = {"late": Ep(20), "early": Ep(2), "undated": Ep(None)}
    assert event_episode("my eye operation", ["late", "early"], episodes) == "late"
    assert event_episode("my first eye operation", ["late", "early"], episodes) == "early"
    assert event_episode("my first eye operation", ["late", "undated"], episodes) == "late"
