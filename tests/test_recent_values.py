"""A question of how things are now ("How much do I pay for the allotment at the moment?") is
answered by the newest of the sessions that tell it, not by the older value's."""

from __future__ import annotations

from pathlib import Path

import pytest
from chat_sessions import exchange, ingested

from nemori_cli.search.questions import asks_now

CHORES = [
    ("How do I get tomato blight out of a greenhouse?", "Clear the old plants and wash the glass."),
    ("What's a good mulch for raspberries?", "Well-rotted manure or bark chips work well."),
    ("How deep should I plant garlic?", "About 5 cm, pointy end up, in autumn."),
    ("When do I sow broad beans?", "October to November, or February to April."),
]


def test_the_newest_telling_comes_first_for_a_question_of_now(tmp_path: Path) -> None:
    convs = [exchange(f"garden{n}", 3 * n + 10, ask, answer)
             for n, (ask, answer) in enumerate(CHORES * 3)]
    convs.append(exchange("old", 5, "thanks! the council charges £38 a year for my allotment. "
                          "What veg gives the most per square metre?",
                          "Salad leaves, courgettes and runner beans."))
    convs.append(exchange("new", 60, "I need to be thrifty this year, they've put the plot up "
                          "to £52. Which seed potatoes keep best?", "Try Desiree or Cara."))
    mem = ingested(tmp_path, convs)
    sessions = [h.conversation_id for h in mem.search(
        "How much do I pay for the allotment at the moment?", k=10, today="2024-06-01")]
    told = [s for s in sessions if s in {"old", "new"}]
    assert told and told[0] == "new"


@pytest.mark.parametrize(
    ("question", "now"),
    [("What car am I driving these days?", True), ("Where am I living now?", True),
     ("What was my latest A1C result?", True), ("How much do I charge at the moment?", True),
     ("How long have I lived here now?", False),  # how long: an older day tells it
     ("Any advice for getting to work now that the roads are icy?", False),
     ("When did I start my job?", False), ("What car did I buy?", False)],
)
def test_a_question_asks_how_things_are_now(question: str, now: bool) -> None:
    assert asks_now(question) is now
