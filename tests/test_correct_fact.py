"""Correcting a fact: new wording supersedes the old fact (kept as history) in every store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import cli

from nemori_cli.errors import NotFound, UsageError
from nemori_cli.memory import Memory


@pytest.fixture
def memory(data_dir: Path) -> Memory:
    memory = Memory.open(data_dir=data_dir)
    memory.add_note("I live in Lisbon and I work as a nurse.")
    memory.add_note("I play the cello in an amateur orchestra.")
    return memory


def fact_about(memory: Memory, word: str) -> str:
    (fid,) = [f.id for f in memory.facts() if word in f.content and not f.superseded_by]
    return fid


def test_new_wording_supersedes_the_old_fact_in_search_and_listing(memory: Memory) -> None:
    old_id = fact_about(memory, "nurse")
    old = memory.fact(old_id)
    new = memory.correct_fact(old_id, "The user lives in Porto and works as a midwife.")
    assert new.id != old_id and new.extractor == "user" and new.confidence == 1.0
    assert (new.source_message_ids, new.valid_from) == (old.source_message_ids, old.valid_from)
    assert memory.fact(old_id).superseded_by == new.id
    hits = memory.search("midwife in Porto", kind="fact", k=3)
    assert hits[0].id == new.id  # the vectors and BM25 both know the new wording
    assert old_id not in {h.id for h in memory.search("nurse in Lisbon", kind="fact", k=10)}
    shown = memory.search("nurse in Lisbon", kind="fact", k=10, include_superseded=True)
    assert old_id in {h.id for h in shown}
    assert all(not r.problems for r in memory.doctor() if r.user != "*")  # indexes match files
    reopened = Memory.open(data_dir=memory.data_dir)
    assert [f.id for f in reopened.facts(include_superseded=False) if "Porto" in f.content] == [
        new.id
    ]


def test_a_fact_shows_the_facts_it_replaced_newest_first(memory: Memory) -> None:
    first = fact_about(memory, "nurse")
    second = memory.correct_fact(first, "The user lives in Porto and works as a midwife.")
    third = memory.correct_fact(second.id, "The user lives in Porto and works as a doula.")
    assert [f.id for f in memory.replaced_facts(third.id)] == [second.id, first]
    assert memory.replaced_facts(first) == []
    code, out, err = cli("--data-dir", str(memory.data_dir), "facts", "show", third.id)
    assert code == 0, err
    assert f"replaces {second.id}: The user lives in Porto and works as a midwife." in out
    code, out, _ = cli("--data-dir", str(memory.data_dir), "facts", "show", third.id, "--json")
    assert [f["id"] for f in json.loads(out)["replaces"]] == [second.id, first]


def test_a_correction_in_the_first_person_is_stored_of_the_user(memory: Memory) -> None:
    fact = memory.correct_fact(fact_about(memory, "cello"), "I play the viola in my orchestra.")
    assert fact.content == "The user plays the viola in their orchestra."


def test_a_category_alone_changes_in_place(memory: Memory) -> None:
    fid = fact_about(memory, "cello")
    fact = memory.correct_fact(fid, category="experience")
    assert fact.id == fid and fact.category == "experience"
    assert memory.fact(fid).category == "experience" and not memory.fact(fid).superseded_by


def test_wording_that_is_already_a_fact_folds_into_it(memory: Memory) -> None:
    cello, nurse = fact_about(memory, "cello"), fact_about(memory, "nurse")
    target = memory.fact(cello)
    merged = memory.correct_fact(nurse, target.content)
    assert merged.id == cello
    assert set(merged.source_message_ids) == {
        *target.source_message_ids, *memory.fact(nurse).source_message_ids
    }
    assert memory.fact(nurse).superseded_by == cello


def test_bad_corrections_are_refused_and_change_nothing(memory: Memory) -> None:
    before = {f.id: f for f in memory.facts()}
    fid = fact_about(memory, "nurse")
    with pytest.raises(NotFound, match="fact_nope"):
        memory.correct_fact("fact_nope", "x")
    with pytest.raises(UsageError, match="empty"):
        memory.correct_fact(fid, "   ")
    with pytest.raises(UsageError, match="unknown category"):
        memory.correct_fact(fid, category="gossip")
    new = memory.correct_fact(fid, "The user lives in Porto.")
    with pytest.raises(UsageError, match=f"superseded by {new.id}"):
        memory.correct_fact(fid, "The user lives in Faro.")
    after = {f.id: f for f in memory.facts()}
    assert set(after) == {*before, new.id}
    assert memory.parts.marker().leftovers() == []  # a refusal leaves no index repair behind


def test_facts_correct_from_the_shell(memory: Memory) -> None:
    fid = fact_about(memory, "nurse")
    args = ("--data-dir", str(memory.data_dir), "facts", "correct", fid)
    code, out, err = cli(*args, "-", "--json", stdin="The user works as a midwife.\n")
    assert code == 0, err
    new = json.loads(out)
    assert new["content"] == "The user works as a midwife." and new["id"] != fid
    code, out, err = cli(*args)
    assert code == 2 and "superseded" not in err and "wording" in err  # nothing to correct
    code, out, err = cli(*args, "The user works as a surgeon.")
    assert code == 2 and f"superseded by {new['id']}" in err and len(err.splitlines()) == 1
