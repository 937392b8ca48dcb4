"""A note is a fact: added through Memory (and so MCP and `nemori remember`), it is stored as an
episode and a fact."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from cli_runner import SAMPLE_CHATS, cli

from nemori_cli.errors import UsageError
from nemori_cli.memory import Memory
from nemori_cli.models import utcnow


def test_a_note_the_extractor_finds_no_fact_in_becomes_one(data_dir) -> None:
    memory = Memory.open(data_dir=data_dir)
    summary = memory.add_note("The user's favourite tea is genmaicha.")
    assert summary.episodes == 1 and summary.facts == 1
    (episode,) = memory.episodes()
    (fact,) = memory.facts()
    assert fact.content == "The user's favourite tea is genmaicha."
    assert fact.source_episode_ids == (episode.id,)
    assert fact.source_message_ids == tuple(m.id for m in episode.messages)
    assert fact.category in ("user_profile", "other")
    hits = memory.search("which tea does the user like", kind="fact", k=3)
    assert hits and hits[0].id == fact.id


def test_a_given_category_is_kept_and_a_bad_one_refused(data_dir) -> None:
    memory = Memory.open(data_dir=data_dir)
    memory.add_note("Dentist appointment on 3 March at 10:00.", category="experience")
    (fact,) = memory.facts()
    assert fact.category == "experience"
    with pytest.raises(UsageError, match="unknown category"):
        memory.add_note("Something.", category="gossip")
    with pytest.raises(UsageError, match="empty"):
        memory.add_note("   ")


def test_a_first_person_note_keeps_the_extractors_fact(data_dir) -> None:
    memory = Memory.open(data_dir=data_dir)
    memory.add_note("I am allergic to peanuts.")
    contents = [f.content for f in memory.facts()]
    assert len(contents) == 1 and "allergic to peanuts" in contents[0]


def test_remember_stores_a_note_and_shows_the_fact_it_became(data_dir) -> None:
    said = "Yesterday I ran my first half marathon."
    code, out, err = cli("--data-dir", str(data_dir), "remember", said)
    assert code == 0, err
    (fact,) = Memory.open(data_dir=data_dir).facts()
    assert out.startswith("Remembered 1 new fact:") and fact.id in out
    yesterday = utcnow() - timedelta(days=1)
    assert "half marathon" in fact.content and fact.when == f"{yesterday:%-d %B %Y}"
    code, out, _ = cli("--data-dir", str(data_dir), "remember", said, "--json")
    shown = json.loads(out)
    assert code == 0 and (shown["new"], shown["known"]) == (0, 1)
    assert [f["id"] for f in shown["facts"]] == [fact.id]
    (again,) = Memory.open(data_dir=data_dir).facts()
    assert len(again.source_episode_ids) == 2  # the second telling is one more source


def test_remember_reads_stdin_and_files_under_the_given_category(data_dir) -> None:
    args = ("--data-dir", str(data_dir), "remember", "-", "--category", "knowledge", "--json")
    code, out, err = cli(*args, stdin="The cabin's wifi password is pinecone42.\n")
    assert code == 0, err
    (fact,) = json.loads(out)["facts"]
    assert fact["category"] == "knowledge" and "pinecone42" in fact["content"]


@pytest.mark.parametrize(
    ("args", "stdin", "says"),
    [(("-",), "  \n", "the note is empty"), (("x", "--category", "gossip"), None, "gossip")],
)
def test_remember_refuses_bad_input_in_one_line_and_stores_nothing(
    data_dir, args: tuple[str, ...], stdin: str | None, says: str
) -> None:
    code, out, err = cli("--data-dir", str(data_dir), "remember", *args, stdin=stdin)
    assert code == 2 and out == "" and says in err and len(err.strip().splitlines()) == 1
    assert Memory.open(data_dir=data_dir).users() == []



def _live_ingest_with_pending_episodes(writer: Memory) -> set[str]:
    """Store episodes pending extraction, as an ingest running now does between batches;
    return their ids (the caller holds writer.parts.changing() as that ingest does)."""
    uid = writer.user_id()
    with writer.parts.writing(uid) as repo:
        theirs = [e.with_extraction(status="pending") for e in repo.episodes.all().values()]
        repo.episodes.upsert(theirs)
    return {e.id for e in theirs}


def _statuses(data_dir, ids: set[str]) -> set[str]:
    episodes = Memory.open(data_dir=data_dir).episodes()
    return {e.extraction["status"] for e in episodes if e.id in ids}


def test_a_note_reports_only_its_own_facts_while_another_ingest_is_extracting(
    data_dir,
) -> None:
    """Another process's ingest has stored episodes and not yet extracted them: a note added
    meanwhile extracts and reports its own fact only, and leaves theirs to that ingest."""
    writer, adder = Memory.open(data_dir=data_dir), Memory.open(data_dir=data_dir)
    writer.ingest([str(SAMPLE_CHATS / "food-preferences.json")], facts=False)
    with writer.parts.changing(writer.user_id()):
        theirs = _live_ingest_with_pending_episodes(writer)
        summary = adder.add_note("I bought a green kayak.")
        shown = [adder.fact(i).content for i in summary.fact_ids]
        assert (summary.facts, summary.merged) == (1, 0)
        assert shown == ["The user bought a green kayak."]
        assert _statuses(data_dir, theirs) == {"pending"}


def test_an_ingest_leaves_a_live_ingests_pending_episodes_to_it(data_dir) -> None:
    writer, other = Memory.open(data_dir=data_dir), Memory.open(data_dir=data_dir)
    writer.ingest([str(SAMPLE_CHATS / "food-preferences.json")], facts=False)
    with writer.parts.changing(writer.user_id()):
        theirs = _live_ingest_with_pending_episodes(writer)
        other.ingest([str(SAMPLE_CHATS / "alps-hiking-trip.json")])
        assert _statuses(data_dir, theirs) == {"pending"}
    other.ingest([str(SAMPLE_CHATS / "moving-to-lisbon.md")])  # nobody else live: resumed
    assert _statuses(data_dir, theirs) == {"done"}
