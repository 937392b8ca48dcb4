"""search/works_named.py: a question for the names of works favours the texts that name one."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from nemori_cli.models import Fact, utcnow
from nemori_cli.search.focus import refine
from nemori_cli.search.fusion import to_hit
from nemori_cli.search.works_named import asks_works, names_work


@pytest.mark.parametrize(
    "question",
    ["What books has Tim read?", "Which films did I watch with Sam?",
     "What is Nate's favorite video game?", "What bands have I seen live?"],
)
def test_a_question_for_books_films_games_or_bands_asks_for_works(question: str) -> None:
    assert asks_works(question)


@pytest.mark.parametrize(
    "question", ["What did Tim read about?", "Where did I buy the book?", "What pets do I have?"]
)
def test_other_questions_do_not(question: str) -> None:
    assert not asks_works(question)


@pytest.mark.parametrize(
    "text",
    ['Just finished "A Dance with Dragons", a really good story.',
     "I'm reading The Name of the Wind at the moment.",
     "Tim loved Dune."],
)
def test_a_quoted_title_or_capitalised_words_mid_sentence_name_a_work(text: str) -> None:
    assert names_work(text, people={"Tim", "John"})


@pytest.mark.parametrize(
    "text",
    ["Tim has been reading a bunch of fantasy books.",
     "On Friday, 8 December 2023, John and Tim talked about books.",
     "I finished it on Monday with John."],
)
def test_speakers_months_days_and_sentence_openings_are_no_titles(text: str) -> None:
    assert not names_work(text, people={"Tim", "John"})


def fact(content: str, n: int) -> Fact:
    return Fact(
        id=f"f{n}", user_id="u", content=content, category="experience",
        source_episode_ids=("ep",), source_message_ids=(f"m{n}",), confidence=1.0,
        created_at=utcnow(), valid_from=datetime(2023, 5, n, tzinfo=UTC), extractor="offline",
    )


def test_the_fact_naming_a_book_comes_before_one_that_names_none() -> None:
    facts = [fact("Tim is reading a fantasy book at the moment.", 1),
             fact('Tim is reading a fantasy book, "The Name of the Wind".', 2)]
    hits = [to_hit("fact", f, 1.0, lambda _: None) for f in facts]
    out = refine(hits, {}, "What books has Tim read?", np.zeros(4), None)
    assert [h.id for h in out] == ["f2", "f1"]
    out = refine(hits, {}, "What has Tim been up to?", np.zeros(4), None)
    assert [h.id for h in out] == ["f1", "f2"]  # the fused order, when no work is asked for
