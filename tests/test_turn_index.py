"""The turn index: BM25 over single turns finds an episode by one turn's words (issue 17)."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_long_messages import ingest_chats

from nemori_cli.search.fusion import fuse


def test_the_turn_that_holds_a_rare_word_ranks_its_episode(tmp_path: Path, data_dir: Path) -> None:
    mem = ingest_chats(tmp_path, data_dir)
    trip = next(ep for ep in mem.episodes() if ep.conversation_id == "trip")
    turn = trip.messages.index(next(m for m in trip.messages if "Dophilus" in m.content))
    # the turn is the assistant's: its id says so (indexing.ANSWER_MARK)
    assert [d for d, _ in mem.parts.turns().query("Dophilus", 5)] == [f"{trip.id}#t{turn}a"]
    hits = mem.search("Pet Dophilus", k=2, kind="episode")
    assert hits[0].id == trip.id


def test_a_deleted_episode_leaves_the_turn_index(tmp_path: Path, data_dir: Path) -> None:
    mem = ingest_chats(tmp_path, data_dir)
    trip = next(ep for ep in mem.episodes() if ep.conversation_id == "trip")
    mem.delete_episodes([trip.id])
    assert mem.parts.turns().query("Dophilus", 5) == []
    assert all(h.id != trip.id for h in mem.search("Pet Dophilus", k=5))
    basil = mem.search("basil light", k=1, kind="episode")
    assert basil and "basil" in basil[0].content


def test_reindex_rebuilds_a_missing_turn_index(tmp_path: Path, data_dir: Path) -> None:
    mem = ingest_chats(tmp_path, data_dir)
    folder = mem.parts.turns().folder
    assert folder.is_dir()

    shutil.rmtree(folder)
    mem.reindex()
    assert [d for d, _ in mem.parts.turns().query("Dophilus", 5)]


def test_a_kind_with_a_third_list_does_not_outscore_the_other() -> None:
    fused = fuse({"episode": [["e1"], ["e1"], ["e1"]], "fact": [["f1"], ["f1"]]}, 10)
    scores = {rid: s for _, rid, s in fused}
    assert abs(scores["e1"] - scores["f1"]) < 1e-12
    # and the two-list case is RRF's plain sum
    assert abs(scores["f1"] - 2 / 61) < 1e-12
