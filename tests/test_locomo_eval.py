"""bench/locomo_eval.py: how LoCoMo answers are counted in the text a search shows."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import locomo_eval as ev  # noqa: E402


def question(answer: str) -> ev.Question:
    return ev.Question(0, "u", 4, "What pets does Melanie have?", answer, frozenset({"D1:3"}))


def test_answer_words_in_other_forms_count_only_by_stem() -> None:
    said = "Melanie: we got another cat named Bailey, and Oliver the dog"
    shown = [ev.Doc(None, said, ("D1:3",))]
    scores = ev.score(question("Two cats and a dog"), shown)
    assert scores["ans@1000"] == 1 / 3  # "dog" only: "two" and "cats" are not said so
    assert scores["stem@1000"] == 2 / 3  # "cats" found as "cat"


def test_only_the_hits_within_the_budget_are_read() -> None:
    filler = ev.Doc(None, "word " * 1000, ("D2:1",))
    shown = [filler, ev.Doc(None, "two cats and a dog", ("D1:3",))]
    scores = ev.score(question("Two cats and a dog"), shown)
    assert scores["ans@1000"] == scores["stem@1000"] == 0.0
    assert scores["ans@2000"] == 1.0
