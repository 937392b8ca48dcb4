"""llm's logs.db: both generations of its tables, read in place and read-only."""

from __future__ import annotations

import json
import sqlite3
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_runner import cli
from llm_logs_db import LEGACY, OLD_LEGACY, STORE, LogsDb, text, with_fragment

from nemori_cli.errors import ImportFormatError
from nemori_cli.importers import expand_paths, open_bytes, open_source, sqlite_file
from nemori_cli.models import Conversation

PELICAN = "01jm8ec74taftdgj2t4zra9z0j"  # conversation ids are ULIDs, like response ids
QUIZ = "01jm8fxxnef92n1663c6ays8xt"


def read(path: Path | str, **kwargs: str) -> dict[str, Conversation]:
    source = open_source(str(path), **kwargs)
    assert source.format == "llmdb"
    return {c.id: c for c in source.conversations()}


def said(conv: Conversation) -> list[tuple[str, str, str]]:
    return [(m.id, m.role, m.content) for m in conv.messages]


def legacy_log(path: Path) -> LogsDb:
    """Two conversations as llm 0.31 logs them, their calls not in time order."""
    db = LogsDb(path, LEGACY)
    db.response("01jm8ec74wxsdatyn5pq1fp0s5", PELICAN, "Name a pet pelican", "Percy.",
                "2025-02-16T22:34:30.374882+00:00", system="You name pets.")
    db.response("01jm8ed0000000000000000002", QUIZ, "What is 2+2?", "4",
                "2025-02-16T23:00:56+00:00", name="Quick sums")
    # two calls at the same time: their ids decide
    db.response("01jm8ec80000000000000000b3", PELICAN, "And a walrus?", "Wallace.",
                "2025-02-16T22:40:00+00:00")
    db.response("01jm8ec80000000000000000a3", PELICAN, "", "(no prompt, only -f)",
                "2025-02-16T22:40:00+00:00")
    db.response("01jm8ec70000000000000000a1", PELICAN, "Hello?", None,
                "2025-02-16T22:30:00+00:00")
    db.response("01jm8ec60000000000000000z9", PELICAN, "Thanks!", "You're welcome.",
                "2025-02-16T22:50:00+00:00")  # the smallest id, asked last: time decides
    return db


def test_legacy_log_is_one_conversation_per_llm_conversation_in_time_order(tmp_path) -> None:
    legacy_log(tmp_path / "logs.db").close()
    convs = read(tmp_path / "logs.db")  # detected from its content: no --format
    pelican = convs[PELICAN]
    assert pelican.title == "Name a pet pelican"  # conversations.name
    assert said(pelican) == [
        ("01jm8ec70000000000000000a1:prompt", "user", "Hello?"),  # no answer: the prompt alone
        ("01jm8ec74wxsdatyn5pq1fp0s5:prompt", "user", "Name a pet pelican"),
        ("01jm8ec74wxsdatyn5pq1fp0s5", "assistant", "Percy."),
        ("01jm8ec80000000000000000a3", "assistant", "(no prompt, only -f)"),
        ("01jm8ec80000000000000000b3:prompt", "user", "And a walrus?"),
        ("01jm8ec80000000000000000b3", "assistant", "Wallace."),
        ("01jm8ec60000000000000000z9:prompt", "user", "Thanks!"),
        ("01jm8ec60000000000000000z9", "assistant", "You're welcome."),
    ]
    assert "You name pets." not in json.dumps(said(pelican))  # system prompts are not chat
    assert pelican.messages[1].timestamp == datetime(2025, 2, 16, 22, 34, 30, 374882, UTC)
    assert pelican.created_at == datetime(2025, 2, 16, 22, 30, tzinfo=UTC)
    assert pelican.metadata == {"format": "llmdb", "model": "gpt-4o-mini"}
    assert convs[QUIZ].title == "Quick sums" and len(convs[QUIZ].messages) == 2


def test_a_log_from_llm_0_5_without_later_columns_reads_with_utc_times(tmp_path) -> None:
    db = LogsDb(tmp_path / "logs.db", OLD_LEGACY)
    db.response("01h82n0q9crqtnzmf13gkyxawg", "01h82n0q9crqtnzmf13gkyxawf", "Ten names for",
                "cheesecakes", "2023-08-17T20:53:58.123456")  # before 0.20: no offset, UTC
    db.close()
    [conv] = read(tmp_path / "logs.db").values()
    assert said(conv) == [
        ("01h82n0q9crqtnzmf13gkyxawg:prompt", "user", "Ten names for"),
        ("01h82n0q9crqtnzmf13gkyxawg", "assistant", "cheesecakes"),
    ]
    assert conv.messages[0].timestamp == datetime(2023, 8, 17, 20, 53, 58, 123456, UTC)


def test_message_store_turns_give_what_was_typed_and_answered(tmp_path) -> None:
    db = LogsDb(tmp_path / "logs.db", STORE)
    db.turn("01kf2rw8jj3nfd5t7w9y1a3c5e", "T1",
            [("system", [text("Be brief.")]), ("user", [text("Suggest a name for a pelican")])],
            [("assistant", [("reasoning", "Pelicans are dignified", None), text("Percy.")])],
            "2026-01-10T09:00:00+00:00", name="Suggest a name for a pelican")
    db.turn("01kf2rw8jkq7h9k2m4n6p8r0t2", "T1",
            [("user", [with_fragment(1, "Summarise this file")])],
            [("assistant", [text("Let me count."),
                            ("tool_call", None, '{"name": "count", "arguments": {}}')])],
            "2026-01-10T09:01:00+00:00")
    db.turn("01kf2rw8jm0000000000000003", "T1",  # the tool's result goes back: no user words
            [("tool", [("tool_result", None, '{"name": "count", "output": "42"}')])],
            [("assistant", [text("It has 42 lines.")])], "2026-01-10T09:01:05+00:00")
    db.close()
    [conv] = read(tmp_path / "logs.db").values()
    assert conv.id == "T1" and conv.title == "Suggest a name for a pelican"  # threads.name
    assert said(conv) == [
        ("01kf2rw8jj3nfd5t7w9y1a3c5e:prompt", "user", "Suggest a name for a pelican"),
        ("01kf2rw8jj3nfd5t7w9y1a3c5e", "assistant", "Percy."),
        ("01kf2rw8jkq7h9k2m4n6p8r0t2:prompt", "user", "Summarise this file"),
        ("01kf2rw8jkq7h9k2m4n6p8r0t2", "assistant", "Let me count."),
        ("01kf2rw8jm0000000000000003", "assistant", "It has 42 lines."),
    ]
    assert conv.messages[-1].timestamp == datetime(2026, 1, 10, 9, 1, 5, tzinfo=UTC)
    assert conv.metadata["model"] == "gpt-5-mini"


def upgraded_log(path: Path) -> LogsDb:
    """A legacy log that llm 0.32 upgraded and went on writing to."""
    db = LogsDb(path, LEGACY, STORE)
    db.response("01jm8ec74wxsdatyn5pq1fp0s5", PELICAN, "Name a pet pelican", "Percy.",
                "2025-02-16T22:34:30+00:00")
    # the same call in both generations (llm wrote both for a while): read once, from the turn
    db.response("01kf2rw8jj3nfd5t7w9y1a3c5e", PELICAN, "And a walrus?", "Wallace (legacy copy)",
                "2026-01-10T09:00:00+00:00")
    db.chat("01kf2rw8jj3nfd5t7w9y1a3c5e", PELICAN, "And a walrus?", "Wallace.",
            "2026-01-10T09:00:00+00:00", name="And a walrus?")
    db.chat("01kf2rw8jkq7h9k2m4n6p8r0t2", PELICAN, "And a seagull?", "Steven.",
            "2026-01-10T09:05:00+00:00")
    db.chat("01kf2s00000000000000000001", "01kf2s00000000000000000000", "New chat", "Hi!",
            "2026-01-11T08:00:00+00:00", name="New chat")
    return db


def test_an_upgraded_log_joins_both_generations_and_reads_each_call_once(tmp_path) -> None:
    upgraded_log(tmp_path / "logs.db").close()
    convs = read(tmp_path / "logs.db")
    assert [m.content for m in convs[PELICAN].messages] == [
        "Name a pet pelican", "Percy.", "And a walrus?", "Wallace.", "And a seagull?", "Steven.",
    ]
    # the thread that continued it is named after the prompt that continued it
    assert convs[PELICAN].title == "Name a pet pelican"
    assert convs["01kf2s00000000000000000000"].title == "New chat"


def ingest(data: Path, *paths: Path) -> tuple[int, dict, str]:
    code, out, err = cli("--data-dir", str(data), "ingest", *map(str, paths), "--json")
    return code, json.loads(out), err


def test_ingesting_a_grown_log_again_adds_only_the_new_calls_and_leaves_it_as_it_was(
    tmp_path,
) -> None:
    folder = tmp_path / "io.datasette.llm"
    folder.mkdir()
    path = folder / "logs.db"
    db = upgraded_log(path)
    listing, before = sorted(p.name for p in folder.iterdir()), path.read_bytes()
    code, first, err = ingest(tmp_path / "data", path)
    assert code == 0, err
    assert (first["conversations"], first["messages"]) == (2, 8)
    assert sorted(p.name for p in folder.iterdir()) == listing and path.read_bytes() == before
    db.chat("01kf2t00000000000000000001", PELICAN, "And a puffin?", "Pippa.",
            "2026-01-12T10:00:00+00:00")
    db.close()
    code, again, err = ingest(tmp_path / "data", path)
    assert code == 0, err
    assert (again["conversations"], again["messages"]) == (1, 2)


def test_a_log_in_wal_mode_is_read_in_place_with_what_its_writer_has_not_checkpointed(
    tmp_path,
) -> None:
    db = legacy_log(tmp_path / "logs.db")
    db.conn.execute("pragma journal_mode=wal")
    db.close()  # the last connection checkpoints and removes -wal and -shm
    before = (tmp_path / "logs.db").read_bytes()
    assert len(read(tmp_path / "logs.db")) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["logs.db"]
    assert (tmp_path / "logs.db").read_bytes() == before

    writer = sqlite3.connect(tmp_path / "logs.db")  # llm running: its rows are in the -wal
    writer.execute("pragma wal_autocheckpoint=0")
    writer.execute("update conversations set name = 'Renamed' where id = ?", (QUIZ,))
    writer.commit()
    try:
        assert read(tmp_path / "logs.db")[QUIZ].title == "Renamed"
        assert (tmp_path / "logs.db").read_bytes() == before
    finally:
        writer.close()


def test_calls_still_in_the_write_ahead_log_are_imported_by_the_next_ingest(tmp_path) -> None:
    db = legacy_log(tmp_path / "logs.db")
    db.conn.execute("pragma journal_mode=wal")
    db.conn.execute("pragma wal_autocheckpoint=0")  # llm running: new rows stay in the -wal
    try:
        code, first, err = ingest(tmp_path / "data", tmp_path / "logs.db")
        assert code == 0 and first["messages"] == 10, err
        before = (tmp_path / "logs.db").read_bytes()
        db.response("01jm8ee0000000000000000009", QUIZ, "And 3+3?", "6",
                    "2025-02-17T08:00:00+00:00")
        db.conn.commit()
        assert (tmp_path / "logs.db").read_bytes() == before  # the new call is in the -wal only
        code, again, err = ingest(tmp_path / "data", tmp_path / "logs.db")
        assert code == 0 and again["messages"] == 2, err
    finally:
        db.close()


def test_bytes_from_stdin_or_a_zip_are_read_from_a_copy_in_wal_mode_too(tmp_path) -> None:
    db = legacy_log(tmp_path / "logs.db")
    db.conn.execute("pragma journal_mode=wal")
    db.close()
    data = (tmp_path / "logs.db").read_bytes()
    source = open_bytes(data, label="<stdin>")
    assert source.format == "llmdb" and len(list(source.conversations())) == 2
    with zipfile.ZipFile(tmp_path / "backup.zip", "w") as zf:
        zf.writestr("llm/logs.db", data)
    assert len(read(tmp_path / "backup.zip")) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.zip", "logs.db"]


def other_database(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("create table collections (id integer primary key, name text)")  # embeddings.db
    conn.commit()
    conn.close()
    return path


def test_other_sqlite_files_and_damaged_or_forced_inputs_are_one_line_errors(tmp_path) -> None:
    legacy_log(tmp_path / "logs.db").close()
    data = (tmp_path / "logs.db").read_bytes()
    (tmp_path / "cut.db").write_bytes(data[: len(data) // 3])
    (tmp_path / "chat.md").write_text("## User\n\nhi\n\n## Assistant\n\nhello\n")
    cases = [
        (other_database(tmp_path / "embeddings.db"), {}, "not llm's logs.db"),
        (tmp_path / "cut.db", {}, "damaged or truncated"),
        (tmp_path / "chat.md", {"format": "llm-db"}, "no SQLite header"),
        (tmp_path / "logs.db", {"format": "markdown"}, "a SQLite database, not markdown"),
    ]
    for path, kwargs, problem in cases:
        with pytest.raises(ImportFormatError) as err:
            list(open_source(str(path), **kwargs).conversations())
        assert str(err.value).startswith(f"{path}: ") and problem in str(err.value)
        assert "\n" not in str(err.value)


def test_a_locked_log_fails_alone_and_the_other_files_still_import(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_file, "BUSY_SECONDS", 0.05)
    legacy_log(tmp_path / "logs.db").close()
    other = tmp_path / "other" / "logs.db"
    other.parent.mkdir()
    db = LogsDb(other, STORE)
    db.chat("01kf2s00000000000000000001", "T9", "Hi", "Hello", "2026-01-11T08:00:00+00:00")
    db.close()
    writer = sqlite3.connect(tmp_path / "logs.db", isolation_level=None)
    writer.execute("begin exclusive")  # llm in the middle of logging a response
    try:
        code, summary, err = ingest(tmp_path / "data", tmp_path / "logs.db", other)
    finally:
        writer.close()
    assert code == 1 and "Traceback" not in err
    assert summary["conversations"] == 1
    [failed] = summary["failed"]
    assert failed["what"] == str(tmp_path / "logs.db") and "is llm writing to it?" in failed["why"]


def test_a_folder_walk_reads_llm_logs_and_passes_over_other_databases(tmp_path) -> None:
    legacy_log(tmp_path / "logs.db").close()
    other_database(tmp_path / "embeddings.db")
    (tmp_path / "notes.db").write_bytes(b"not sqlite at all")
    (tmp_path / "cut.sqlite").write_bytes((tmp_path / "logs.db").read_bytes()[:200])
    found = [Path(p).name for p in expand_paths([str(tmp_path)])]
    assert found == ["cut.sqlite", "logs.db"]  # a damaged one is read, to say why it failed


def test_formats_lists_it() -> None:
    code, out, _ = cli("formats", "--json")
    assert code == 0 and "logs.db" in json.loads(out)["llmdb"]
