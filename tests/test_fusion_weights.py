"""Facts weigh more than episodes in the balanced fusion, not in the lead one (which chats
with an assistant skip unless the question asks what it said); its RRF k."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from chat_sessions import ingested, session
from test_long_messages import ingest_chats

from nemori_cli.memory import Memory
from nemori_cli.search import hybrid
from nemori_cli.search.fusion import RRF_K, fuse
from nemori_cli.search.hybrid import BALANCED_K, FACT_WEIGHT


def test_a_fact_just_below_an_episode_comes_first_below_the_lead() -> None:
    # the episode first in both its lists, the fact second in both of its own
    candidates = {"episode": [["e1"], ["e1"]], "fact": [["f0", "f1"], ["f0", "f1"]]}
    plain = [rid for _, rid, _ in fuse(candidates, 10)]
    assert plain.index("e1") < plain.index("f1")
    weighted = [rid for _, rid, _ in fuse(candidates, 10, weights={"fact": FACT_WEIGHT})]
    assert weighted.index("f1") < weighted.index("e1")
    # the lead fusion (unscaled, unweighted) still puts the episode first
    lead = [rid for _, rid, _ in fuse(candidates, 10, scaled=False)]
    assert lead.index("e1") < lead.index("f1")


def test_a_weight_multiplies_its_kinds_scores_only() -> None:
    candidates = {"episode": [["e1"], ["e1"]], "fact": [["f1"], ["f1"]]}
    scores = {rid: s for _, rid, s in fuse(candidates, 10, weights={"fact": 1.5})}
    assert abs(scores["e1"] - 2 / 61) < 1e-12
    assert abs(scores["f1"] - 1.5 * 2 / 61) < 1e-12


def fusions_of(mem: Memory, query: str, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The (scaled, weights, k) of every fusion one search makes."""
    calls: list[tuple[bool, Any, int]] = []

    def recorded(
        candidates: Any, limit: int, scaled: bool = True, weights: Any = None, k: int = RRF_K
    ) -> Any:
        calls.append((scaled, weights, k))
        return fuse(candidates, limit, scaled, weights, k)

    monkeypatch.setattr(hybrid, "fuse", recorded)
    assert mem.search(query, k=5)
    monkeypatch.undo()
    return calls


def test_search_weights_facts_below_the_lead_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = ingested(tmp_path, [
        session("trip", 0, [("Caroline", "Any tips for a road trip with my dog, Mel?"),
                            ("Melanie", "Pack his water bowl, and stop every two hours.")]),
        session("cake", 3, [("Melanie", "I baked a lemon cake for the kids."),
                            ("Caroline", "Lucky kids! Save me a slice.")]),
    ])
    calls = fusions_of(mem, "road trip with my dog", monkeypatch)
    assert (True, {"fact": FACT_WEIGHT}, BALANCED_K) in calls  # the balanced fusion
    lead = [(weights, k) for scaled, weights, k in calls if not scaled]
    assert lead and all(c == (None, RRF_K) for c in lead)  # the lead: unweighted, k 60


def test_in_chats_with_an_assistant_the_lead_serves_questions_about_its_answers(
    tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = ingest_chats(tmp_path, data_dir)
    about_user = fusions_of(mem, "road trip with my dog", monkeypatch)
    assert about_user and all(scaled for scaled, _, _ in about_user)  # no lead fusion
    about_answer = fusions_of(mem, "What did you suggest for my road trip?", monkeypatch)
    assert any(not scaled for scaled, _, _ in about_answer)


def test_the_balanced_fusion_puts_one_rankers_first_place_above_two_middling_ones() -> None:
    # "top" is first for one ranker and 15th for the other; "mid" 7th for both
    filler = [f"x{n}" for n in range(20)]
    first = ["top", *filler[:5], "mid", *filler[5:]]
    second = [*filler[:6], "mid", *filler[6:13], "top"]
    candidates = {"fact": [first, second]}
    default = [rid for _, rid, _ in fuse(candidates, 30)]
    assert default.index("mid") < default.index("top")
    balanced = [rid for _, rid, _ in fuse(candidates, 30, k=BALANCED_K)]
    assert balanced.index("top") < balanced.index("mid")
