"""A user's turn in a chat with an assistant: a vector of its own, and counted over the
assistant's turns in the turn list (issue 17)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from nemori_cli.indexing import episode_texts, is_answer_turn, turn_docs, turn_episode
from nemori_cli.memory import Memory
from nemori_cli.models import Conversation, Message
from nemori_cli.pipeline.episodes import build_episode
from nemori_cli.search.focus import refine
from nemori_cli.search.fusion import to_hit
from nemori_cli.search.lexical_lists import weighted_turns

START = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
ANSWER = ("Here is a long answer about planning the week, with lists of chores, shopping, "
          "meals and reminders, and a few more paragraphs of general advice. ") * 6
STATEMENT = "By the way, I keep bees on my roof and harvest honey every August."


def chat(roles: list[str], special: dict[int, str], conv: str = "c1"):  # type: ignore[no-untyped-def]
    messages = [
        Message(id=f"{conv}:{i}", role=role,
                content=special.get(i, ANSWER if role == "assistant" else "What else?"),
                timestamp=START + timedelta(minutes=i))
        for i, role in enumerate(roles)
    ]
    return build_episode("u1", Conversation(id=conv, messages=tuple(messages)), messages)


def test_each_user_turn_of_a_chat_with_an_assistant_gets_its_own_vector_document() -> None:
    ep = chat(["user", "assistant"] * 3, {2: STATEMENT})
    laid = episode_texts([ep])
    own = {d: p for d, p in zip(laid.ids, laid.parts, strict=True) if "#u" in d}
    assert sorted(own) == [f"{ep.id}#u0", f"{ep.id}#u2", f"{ep.id}#u4"]
    assert own[f"{ep.id}#u2"] == [STATEMENT]  # the opening segmentation already embeds


def test_a_chat_between_people_gets_no_turn_documents() -> None:
    ep = chat(["user"] * 6, {2: STATEMENT})
    assert not [d for d in episode_texts([ep]).ids if "#u" in d]


def test_a_long_episode_is_focused_on_the_user_turn_its_vector_matches() -> None:
    roles = ["user", "assistant"] * 7
    ep = chat(roles, {10: STATEMENT})
    q = np.array([1.0, 0.0, 0.0, 0.0], dtype=np.float32)

    def vectors(kind: str, ids: object) -> dict[str, np.ndarray]:
        # the windows and passages point elsewhere; only the user turn's own vector matches
        out = {d: np.array([0.0, 1.0, 0.0, 0.0], dtype=np.float32) for d in ids}  # type: ignore[attr-defined]
        out[f"{ep.id}#u10"] = q
        return out

    hit = to_hit("episode", ep, 1.0, {ep.id: ep}.get)
    out = refine([hit], {ep.id: ep}, "apiary on the rooftop", q, vectors)
    assert "c1:10" in out[0].message_ids
    assert STATEMENT in out[0].content


def test_search_finds_a_users_statement_among_long_answers(tmp_path: Path) -> None:
    mem = Memory.open(data_dir=tmp_path / "data")
    roles = ["user", "assistant"] * 6
    mem.add_messages([
        {"id": f"m{i}", "role": r, "timestamp": (START + timedelta(minutes=i)).isoformat(),
         "content": STATEMENT if i == 6 else (
             ANSWER if r == "assistant" else "Thanks, what else should I plan?")}
        for i, r in enumerate(roles)
    ])
    ep = mem.episodes()[0]
    stored = mem.parts.vectors().embeddings("episode", [f"{ep.id}#u6"])
    expected = mem.embedder.embed([STATEMENT])[0]
    assert np.allclose(stored[f"{ep.id}#u6"], expected, atol=1e-5)
    hits = mem.search("beekeeping on the roof and honey", k=3, kind="episode")
    assert hits and "m6" in hits[0].message_ids


def test_the_turn_list_ranks_a_users_turn_above_an_answer_that_scores_a_little_more() -> None:
    ep = chat(["user", "assistant"], {})
    assert [d for d, _ in turn_docs(ep)] == [f"{ep.id}#t0", f"{ep.id}#t1a"]
    hits = [("answer#t1a", 2.0), ("statement#t0", 1.5), ("other#t3a", 1.0)]
    assert [turn_episode(d) for d, _ in weighted_turns(hits)] == ["statement", "answer", "other"]


def test_a_chat_between_people_keeps_its_turn_order() -> None:
    ep = chat(["user"] * 3, {})
    assert not any(is_answer_turn(d) for d, _ in turn_docs(ep))
    hits = [("a#t2", 2.0), ("b#t0", 1.5)]
    assert weighted_turns(hits) == hits
