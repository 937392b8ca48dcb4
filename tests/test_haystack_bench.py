"""bench/haystack_*.py: the user/assistant haystack and its first-person questions, on
made-up LoCoMo-shaped samples."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import haystack_data  # noqa: E402
import haystack_questions  # noqa: E402


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("What did Rosa research?", "What did I research?"),
        ("What is Rosa's favourite band?", "What is my favourite band?"),
        ("Who gave Rosa a bike?", "Who gave me a bike?"),
        ("What does Rosa like about her garden?", "What do I like about my garden?"),
        ("Is Rosa a teacher?", "Am I a teacher?"),
        ("When did Rosa say she moved?", "When did I say I moved?"),
        ("What challenges Rosa faced at work?", "What challenges I faced at work?"),
    ],
)
def test_a_question_about_the_user_is_asked_in_the_first_person(question: str, asked: str) -> None:
    assert haystack_questions.first_person(question, "Rosa") == asked


@pytest.mark.parametrize(
    "question",
    ["Which band Rosa loves most?", "Where did Rosa and her sister go?", "Did he give her a cake?"],
)
def test_a_question_that_cannot_be_rewritten_cleanly_is_dropped(question: str) -> None:
    assert haystack_questions.first_person(question, "Rosa") is None


def sample(n: int, a: str, b: str, sessions: int) -> dict[str, Any]:
    conv: dict[str, Any] = {"speaker_a": a, "speaker_b": b}
    for s in range(1, sessions + 1):
        conv[f"session_{s}_date_time"] = f"10:00 am on {s} May, 2023"
        conv[f"session_{s}"] = [
            {"speaker": a, "dia_id": f"D{s}:1", "text": f"Hi {b}! I planted tomatoes, day {s}."},
            {"speaker": b, "dia_id": f"D{s}:2", "text": f"Nice, {a}! How are {a}'s plants?"},
        ]
    qa = [
        {"category": 4, "question": f"What did {a} plant?", "answer": "tomatoes",
         "evidence": ["D1:1"]},
        {"category": 4, "question": f"What did {b} ask?", "answer": "plants",
         "evidence": ["D1:2"]},
    ]
    return {"sample_id": f"s{n}", "conversation": conv, "qa": qa}


def test_each_user_gets_a_dated_haystack_of_long_answers_without_names(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(haystack_data, "SESSIONS", 6)
    samples = [sample(0, "Rosa", "Ivo", 3), sample(1, "Tom", "Ada", 4), sample(2, "Li", "Max", 4)]
    sessions = haystack_data.build_user(samples, 0)
    assert len(sessions) == 6
    assert sessions == haystack_data.build_user(samples, 0)  # deterministic
    assert [s.start for s in sessions] == sorted(s.start for s in sessions)
    own = [s for s in sessions if s.id.startswith("s0.")]
    assert len(own) == 3 and {t.id for s in own for t in s.turns} >= {"D1:1", "D1:2"}
    others = [t.id for s in sessions if s not in own for t in s.turns]
    assert all(i.split(".")[0] in ("s1", "s2") for i in others)  # a session per prefix
    low, high = haystack_data.ANSWER_WORDS
    for s in sessions:
        for t in s.turns:
            assert not any(name in t.text for name in ("Rosa", "Ivo", "Tom", "Ada", "Li ", "Max"))
            if t.role == "assistant":
                assert low <= len(t.text.split()) <= high + 20
    user = next(t for t in own[0].turns if t.role == "user")
    assert user.text == "Hi! I planted tomatoes, day 1."


def test_only_questions_about_the_users_own_turns_are_kept() -> None:
    samples = [sample(0, "Rosa", "Ivo", 2)]
    kept, why = haystack_questions.user_questions(samples, [0])
    assert [(q.question, q.user, set(q.evidence)) for q in kept] == [
        ("What did I plant?", "haystack-s0", {"D1:1"})
    ]
    assert why["evidence not all the user's"] == 1


def test_the_preference_questions_cover_every_sample_and_name_their_evidence_turns() -> None:
    import json
    import re

    path = Path(__file__).resolve().parent.parent / "bench" / "preference_questions.json"
    items = json.loads(path.read_text())
    assert len(items) >= 60
    per_sample = {i: sum(q["sample"] == i for q in items) for i in range(10)}
    assert min(per_sample.values()) >= 5
    for q in items:
        assert q["evidence"] and all(re.fullmatch(r"D\d+:\d+", e) for e in q["evidence"])
        assert q["question"].strip() and q["note"]


def test_a_user_turn_said_as_a_request_keeps_its_id_and_whole_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(haystack_data, "SESSIONS", 6)
    samples = [sample(0, "Rosa", "Ivo", 3), sample(1, "Tom", "Ada", 4), sample(2, "Li", "Max", 4)]
    plain = haystack_data.build_user(samples, 0)
    asked = haystack_data.build_user(samples, 0, requests=True)
    assert asked == haystack_data.build_user(samples, 0, requests=True)  # deterministic
    assert [(s.id, s.start) for s in asked] == [(s.id, s.start) for s in plain]
    pool = haystack_data.request_pool()
    for before, after in zip(plain, asked, strict=True):
        for t, r in zip(before.turns, after.turns, strict=True):
            assert (r.id, r.role) == (t.id, t.role)
            if t.role == "assistant":
                assert r.text == t.text
                continue
            head, found, tail = r.text.partition(t.text)
            said = f"{head}{tail}".strip()
            assert found and said  # the text whole, something said round it
            assert any(x in said for x in pool["openings"] + pool["closings"])


def test_the_request_pool_is_large_and_names_no_one() -> None:
    pool = haystack_data.request_pool()
    assert len(pool["openings"]) + len(pool["closings"]) >= 150
    names = {"Rosa", "Ivo", "Caroline", "Melanie", "Jon", "Gina", "John", "Maria", "Joanna",
             "Nate", "Tim", "Audrey", "Andrew", "James", "Deborah", "Jolene", "Evan", "Sam",
             "Calvin", "Dave"}
    words = {w.strip("?,.!'") for x in pool["openings"] + pool["closings"] for w in x.split()}
    assert not words & names


@pytest.mark.parametrize(
    ("phrase", "said"),
    [("go to the gym", "going to the gym"), ("give a speech", "giving a speech"),
     ("run a charity race", "running a charity race"), ("tie the knot", "tying the knot"),
     ("see a play", "seeing a play")],
)
def test_an_event_is_said_as_a_gerund_between_two_events(phrase: str, said: str) -> None:
    import haystack_pairs

    assert haystack_pairs.gerund(phrase) == said


def test_two_event_questions_pair_one_session_questions_of_one_user() -> None:
    import haystack_pairs

    s = sample(0, "Rosa", "Ivo", 4)
    s["qa"] = [{"category": 2, "question": f"When did Rosa plant tomatoes on day {n}?",
                "answer": f"{n} May 2023", "evidence": [f"D{n}:1"]} for n in range(1, 5)]
    asked = [(q.question, set(q.evidence)) for q in haystack_pairs.pair_questions([s], [0])]
    assert asked[:4] == [
        ("Which did I do first, plant tomatoes on day 1 or plant tomatoes on day 3?",
         {"D1:1", "D3:1"}),
        ("How many days passed between planting tomatoes on day 1 and planting tomatoes on"
         " day 3?", {"D1:1", "D3:1"}),
        ("How many days before planting tomatoes on day 3 did I plant tomatoes on day 1?",
         {"D1:1", "D3:1"}),
        ("Did I plant tomatoes on day 1 before or after planting tomatoes on day 3?",
         {"D1:1", "D3:1"}),
    ]
    assert asked[-1] == (
        "In what order did I do these: plant tomatoes on day 1, plant tomatoes on day 2, and"
        " plant tomatoes on day 3?", {"D1:1", "D2:1", "D3:1"})
    assert len(asked) == 9  # two pairs asked four ways, one three


@pytest.mark.parametrize(("name", "users_n", "questions_n"),
                         [("DATA", 3, 60), ("DATA_B", 3, 60), ("DATA_C", 2, 50),
                          ("DATA_D", 2, 50), ("DATA_E", 2, 50), ("DATA_F", 2, 50)])
def test_the_hand_written_assistant_chats_name_real_user_turns_as_evidence(
    name: str, users_n: int, questions_n: int
) -> None:
    import assistant_chats

    users, questions = assistant_chats.load(getattr(assistant_chats, name))
    turns = {t.id: (s.id, t.role) for sessions in users.values() for s in sessions
             for t in s.turns}
    assert len(users) == users_n and len(questions) == questions_n
    assert len(turns) == sum(len(s.turns) for ss in users.values() for s in ss)  # ids unique
    for q in questions:
        assert q["type"] in assistant_chats.TYPES
        for e in q["evidence_turns"]:
            session, role = turns[e]
            assert role == "user" and session in q["evidence_sessions"]
