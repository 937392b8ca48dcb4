"""Words the stemmer keeps apart ("allergies", "allergic") are one word to a search."""

from __future__ import annotations

from pathlib import Path

import pytest
from chat_sessions import exchange, ingested, session

from nemori_cli.search.turns import terms
from nemori_cli.search.word_families import with_family


@pytest.mark.parametrize(
    ("query", "added"),
    [("allergies", "allergic"), ("Am I allergic to anything?", "allergy"),
     ("Is Melanie a painter?", "paint"), ("Italian food", "italy"),
     ("Who plays the guitar?", "guitarist")],
)
def test_a_query_word_brings_its_family(query: str, added: str) -> None:
    worded = with_family(query)
    assert worded.startswith(query) and terms(added) <= terms(worded) - terms(query)


@pytest.mark.parametrize("query", ["my mother-in-law", "Can you write a function?", "birthday"])
def test_a_word_without_a_family_adds_nothing(query: str) -> None:
    assert with_family(query) == query


TOPICS = [  # food talk in which no allergy is named
    ("What can I cook with leftover rice?",
     "Fried rice is the classic: day-old rice, a hot wok, soy, spring onions and an egg. "),
    ("How do I keep basil alive on a windowsill?",
     "Water when the top of the soil is dry, pinch out the flower buds and turn the pot. "),
    ("Which knife should I buy first?",
     "A 20 cm chef's knife does most jobs; add a paring knife and a bread knife later. "),
    ("How long does fresh pasta keep?",
     "Two days in the fridge, well floured and covered, or a month in the freezer. "),
]


def test_a_search_for_allergies_shows_what_the_user_is_allergic_to(tmp_path: Path) -> None:
    dinner = session("dinner", 30, [
        ("user", "I'm planning a birthday dinner for eight friends next month."),
        ("assistant", "Lovely: a sharing menu keeps the host out of the kitchen. " * 3),
        ("user", "Which wine goes with a slow-roast lamb shoulder?"),
        ("assistant", "A Rioja Reserva or a Cotes du Rhone stands up to the lamb. " * 3),
        ("user", "Good. The starter can't be the prawns I wanted, I'm allergic to shellfish."),
        ("assistant", "Then a beetroot and goat's cheese tart works as a starter. " * 3),
        ("user", "And a pudding that can be made the day before?"),
        ("assistant", "A lemon posset sets overnight and takes ten minutes to make. " * 3),
    ])
    convs = [dinner]
    for n in range(16):
        ask, answer = TOPICS[n % len(TOPICS)]
        convs.append(exchange(f"s{n}", 2 * n, ask, answer * 3))
    mem = ingested(tmp_path, convs)
    facts = mem.search("allergies", k=3, kind="fact")
    assert "allergic to shellfish" in facts[0].content
    episodes = mem.search("allergies", k=3, kind="episode")
    # what a person reads beside the hit is the line that answers, not the chat's first
    assert episodes[0].conversation_id == "dinner" and "allergic" in episodes[0].snippet
