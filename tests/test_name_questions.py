"""A question for a name ("What's my sister's name?") is answered by the memory that gives it,
and is told as a strong match though no text says "name"."""

from __future__ import annotations

import pytest
from chat_sessions import exchange, ingested

from nemori_cli.memory import Memory
from nemori_cli.search.people import names_of
from nemori_cli.search.questions import asked_name
from nemori_cli.search.relevance import STRONG


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("What's my sister's name?", "sister"),
        ("what is my sisters name", "sister"),
        ("What is the name of my dog?", "dog"),
        ("What did I call my new cat?", "cat"),
        ("What's my manager called?", "manager"),
        ("What are the names of my kids?", "kid"),
        ("Who is my dentist?", "dentist"),
        ("who's my favourite author", "author"),
        ("What's my job?", None),  # an attribute, not a name
        ("What is my favourite colour?", None),
        ("What is my name?", None),
    ],
)
def test_the_one_whose_name_is_asked(question: str, asked: str | None) -> None:
    found = asked_name(question)
    assert (found.rstrip("s") if found else None) == asked


@pytest.mark.parametrize(
    ("relation", "text", "names"),
    [
        ("sister", "The user's sister Anna lives in Lyon.", True),
        ("dog", "Biscuit is the user's dog.", True),
        ("cat", "The user has a cat, called Tofu, who is 13.", True),
        ("kids", "The user's kids Maya and Owen love the beach.", True),
        ("dog", "The user's dog's name is Biscuit.", True),
        ("sister", "The user's sister, who is called Anna, came too.", True),
        ("sister", "The user visited their sister. In the summer they swam.", False),
        ("sister", "The user's sister In the end came too.", False),  # no name after it
        ("sister", "The user's brother Tom lives in Leeds.", False),
    ],
)
def test_a_text_that_names_the_relation(relation: str, text: str, names: bool) -> None:
    assert bool(names_of(relation, text)) is names


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    """A user who asks about trips and food, and names their sister once in passing."""
    convs = [exchange(f"trip{n}", n * 2, f"what should I pack for a weekend in the hills {n}?",
                      "Layers, a rain jacket, good boots and snacks.") for n in range(6)]
    convs += [exchange(f"food{n}", n * 2 + 1, f"a quick dinner idea with lentils {n}?",
                       "A lentil dal with rice.") for n in range(6)]
    convs.append(exchange("lyon", 20, "My sister Anna lives in Lyon, what should we do there "
                          "for a day?", "Walk the old town and eat at a bouchon."))
    return ingested(tmp_path_factory.mktemp("names"), convs)


def test_a_question_for_a_name_finds_it_as_a_strong_match(mem: Memory) -> None:
    first = mem.search("What's my sister's name?", k=5)[0]
    assert "Anna" in first.content
    assert (first.relevance or 0) >= STRONG  # not "no strong match"


def test_a_name_never_told_stays_a_weak_match(mem: Memory) -> None:
    hits = mem.search("What's my brother's name?", k=5)
    assert all((h.relevance or 0) < STRONG for h in hits)
