"""A record line torn so early that its source cannot be read: doctor says what was lost."""

from __future__ import annotations

import shutil
from pathlib import Path

from faults import USER, run

from nemori_cli.ops.doctor_torn import read_torn


def test_a_torn_line_tells_what_it_still_holds() -> None:
    line = b'{"id":"fact_1","user_id":"me","content":"x","source_episode_ids":["ep_aa","ep_bbbb'
    torn = read_torn(line)
    assert torn.id == "fact_1"
    assert torn.source_parts == (("ep_aa", True), ("ep_bbbb", False))
    assert read_torn(b'{"id":"fa').id is None


def test_a_fact_torn_before_its_sources_is_named_lost(sample_store: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(sample_store, data)
    facts = data / "users" / USER / "facts.jsonl"
    lines = facts.read_bytes().splitlines(keepends=True)
    lost_id = lines[1].split(b'"')[3].decode()
    lines[1] = lines[1][:60] + b"\n"  # inside the content: no source left
    facts.write_bytes(b"".join(lines))

    repaired = run("--data-dir", str(data), "doctor", "--repair")
    assert repaired.code == 0, repaired.err_lines
    assert f"fact {lost_id!r} lost: its source episodes cannot be read" in repaired.out
    episodes = (data / "users" / USER / "episodes.jsonl").read_text()
    assert '"status":"pending"' not in episodes  # nothing to extract again: nothing reopened
    assert run("--data-dir", str(data), "doctor").code == 0


def test_an_episode_torn_names_the_file_to_ingest_again(sample_store: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(sample_store, data)
    episodes = data / "users" / USER / "episodes.jsonl"
    lines = episodes.read_bytes().splitlines(keepends=True)
    lines[0] = lines[0][:200] + b"\n"
    episodes.write_bytes(b"".join(lines))

    repaired = run("--data-dir", str(data), "doctor", "--repair")
    assert repaired.code == 0, repaired.err_lines
    assert "lost: re-run `nemori ingest " in repaired.out
    assert "alps-hiking-trip.json` to restore it" in repaired.out
    ingested = (data / "users" / USER / "ingested.jsonl").read_text()
    assert "alps-hiking-trip.json" not in ingested and "food-preferences.json" in ingested


def test_a_fact_line_torn_anywhere_past_its_sources_still_names_them() -> None:
    import orjson

    from nemori_cli.models import Fact, utcnow

    fact = Fact(id="fact_1", user_id=USER, content="The user " + "hikes in the Alps " * 30,
                category="experience", source_episode_ids=("ep_a", "ep_b"),
                source_message_ids=("m1",), confidence=0.8, created_at=utcnow(),
                valid_from=None, extractor="offline")
    line = orjson.dumps(fact.to_dict())
    for cut in (len(line) // 4, len(line) // 2, len(line) - 2):  # a long content, cut early
        torn = read_torn(line[:cut])
        assert torn.id == "fact_1" and [p for p, _ in torn.source_parts] == ["ep_a", "ep_b"]
