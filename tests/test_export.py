"""`nemori export` and its round trip: an export ingested into an empty data dir is the store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import cli, ingest_sample_chats

from nemori_cli.errors import ImportFormatError
from nemori_cli.memory import Memory
from nemori_cli.ops.export import is_export, restore_file

SAMPLE_CHATS = Path(__file__).resolve().parent.parent / "sample_chats"




def records(data: Path, user: str = "me") -> tuple[list[dict], list[dict]]:
    """Every stored episode and fact of a user, as dicts without the user id."""
    mem = Memory.open(data_dir=data)
    eps = [{**e.to_dict(), "user_id": None} for e in mem.episodes(user=user)]
    facts = [{**f.to_dict(), "user_id": None} for f in mem.facts(user=user)]
    return eps, facts


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir with sample_chats/ ingested (episodes and facts)."""
    data = tmp_path_factory.mktemp("source") / "data"
    ingest_sample_chats(data)
    return data


@pytest.mark.parametrize(("fmt", "user"), [("jsonl", "me"), ("json", "bob")])
def test_ingesting_an_export_restores_the_same_store(
    fmt: str, user: str, source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = tmp_path / f"export.{fmt}"
    code, _, err = cli("--data-dir", str(source), "export", "--format", fmt,
                          "--output", str(dump))
    assert code == 0, err
    assert is_export(dump)
    target = ("--data-dir", str(tmp_path / "empty"), "--user", user)
    code, out, err = cli(*target, "ingest", str(dump), "--json")
    assert code == 0, err
    summary = json.loads(out)
    episodes, facts = records(source)
    assert summary["episodes"] == len(episodes) and summary["facts"] == len(facts)
    assert records(tmp_path / "empty", user) == (episodes, facts)
    restored = Memory.open(data_dir=tmp_path / "empty")
    assert restored.users() == [user]
    assert {f.user_id for f in restored.facts(user=user)} == {user}

    # and the restored store is searchable like the original one
    _, out, _ = cli(*target, "search", "hiking", "--json")
    _, original, _ = cli("--data-dir", str(source), "search", "hiking", "--json")
    assert {h["id"] for h in json.loads(out)} == {h["id"] for h in json.loads(original)}

    # the original chats were logged as imported: ingesting them again adds nothing,
    # and neither does the export itself
    for again in (str(SAMPLE_CHATS), str(dump)):
        code, out, err = cli(*target, "ingest", again, "--json")
        assert code == 0, err
        summary = json.loads(out)
        assert (summary["conversations"], summary["episodes"], summary["facts"]) == (0, 0, 0)
    assert summary["skipped"] == [{"what": str(dump), "why": "already imported"}]
    assert records(tmp_path / "empty", user) == (episodes, facts)


def test_jsonl_export_is_a_header_then_one_record_a_line(
    source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = cli("--data-dir", str(source), "export")
    assert code == 0
    lines = [json.loads(x) for x in out.splitlines()]
    header = lines[0]
    assert header["nemori_export"] == 2 and header["user"] == "me"
    assert header["embed_model"] and header["exported_at"]
    episodes, facts = records(source)
    kinds = ["episode"] * len(episodes) + ["fact"] * len(facts)
    assert [x["type"] for x in lines[1:]] == kinds + ["ingested"] * header["ingested"]
    assert [x["id"] for x in lines[1 : len(kinds) + 1]] == [r["id"] for r in episodes + facts]
    assert header["ingested"] == len(Memory.open(data_dir=source).parts.repo().import_log())


def test_markdown_export_is_readable(source: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli("--data-dir", str(source), "export", "--format", "markdown")
    assert code == 0
    mem = Memory.open(data_dir=source)
    assert out.startswith("# Memory of me\n")
    assert "## Episodes" in out and "## Facts" in out
    for ep in mem.episodes():
        assert f"### {ep.title}" in out
        assert ep.messages[0].content.splitlines()[0] in out
    for fact in mem.facts():
        assert fact.dated_content in out and fact.id in out
    assert "{" not in out.splitlines()[0]


def test_a_broken_export_stores_nothing(tmp_path: Path) -> None:
    dump = tmp_path / "old.jsonl"
    dump.write_text(json.dumps({"nemori_export": 99, "user": "me"}) + "\n", encoding="utf-8")
    assert is_export(dump)
    mem = Memory.open(data_dir=tmp_path / "d")
    with pytest.raises(ImportFormatError, match="old.jsonl.*version 99"):
        restore_file(mem, dump)
    bad_line = tmp_path / "bad.jsonl"
    bad_line.write_text(
        json.dumps({"nemori_export": 1, "user": "me"}) + "\n"
        + json.dumps({"type": "episode", "title": "no id"}) + "\n",
        encoding="utf-8",
    )
    with pytest.raises(ImportFormatError, match="bad.jsonl: line 2"):
        restore_file(mem, bad_line)
    assert mem.users() == []


def test_a_truncated_export_is_refused(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = cli("--data-dir", str(source), "export")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(out.splitlines(keepends=True)[:-1]), encoding="utf-8")
    mem = Memory.open(data_dir=tmp_path / "d")
    with pytest.raises(ImportFormatError, match="cut.jsonl: incomplete export"):
        restore_file(mem, cut)
    assert mem.users() == []


def test_ordinary_chat_files_are_not_exports(tmp_path: Path) -> None:
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps({"messages": [{"role": "user", "content": "hi"}]}))
    assert not is_export(chat)
    assert not is_export(tmp_path / "missing.json")
    assert not is_export(tmp_path)


def test_export_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli("--data-dir", str(tmp_path), "export", "--user", "nobody")
    assert code == 1 and "nobody" in err and out == "" and "Traceback" not in err
    code, _, err = cli("--data-dir", str(tmp_path), "export", "--format", "xml")
    assert code == 2 and "xml" in err
    assert not list(tmp_path.iterdir())


def _deleted_then_exported(data: Path, fmt: str, out: Path) -> str:
    """Ingest sample_chats/, delete one episode (a private chat), export; return its id."""
    memory = Memory.open(data_dir=data)
    memory.ingest([str(SAMPLE_CHATS)])
    gone = next(e for e in memory.episodes() if "Lisbon" in e.title)
    memory.delete_episodes([gone.id])
    out.write_text("".join(memory.export(format=fmt)), encoding="utf-8")
    return gone.id


@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_a_deleted_chat_stays_deleted_in_a_store_restored_from_an_export(
    fmt: str, tmp_path: Path
) -> None:
    dump = tmp_path / f"export.{fmt}"
    gone = _deleted_then_exported(tmp_path / "original", fmt, dump)
    original = Memory.open(data_dir=tmp_path / "original")
    again = original.ingest([str(SAMPLE_CHATS)])
    assert (again.conversations, again.episodes, again.facts) == (0, 0, 0)

    restored = Memory.open(data_dir=tmp_path / "restored")
    restored.ingest([str(dump)])
    summary = restored.ingest([str(SAMPLE_CHATS)])
    assert (summary.conversations, summary.messages, summary.episodes, summary.facts) == (
        0, 0, 0, 0
    )
    assert gone not in {e.id for e in restored.episodes()}
    assert records(tmp_path / "restored") == records(tmp_path / "original")
    assert [w for _, w in summary.skipped] == [w for _, w in again.skipped]


def test_an_export_without_an_import_log_still_restores(tmp_path: Path) -> None:
    """A version 1 export (before the import log) restores its records as before."""
    dump = tmp_path / "export.jsonl"
    _deleted_then_exported(tmp_path / "original", "jsonl", dump)
    lines = [json.loads(x) for x in dump.read_text(encoding="utf-8").splitlines()]
    header = {k: v for k, v in lines[0].items() if k != "ingested"} | {"nemori_export": 1}
    old = [header] + [x for x in lines[1:] if x["type"] != "ingested"]
    dump.write_text("".join(json.dumps(x) + "\n" for x in old), encoding="utf-8")
    restored = Memory.open(data_dir=tmp_path / "restored")
    summary = restored.ingest([str(dump)])
    assert not summary.failed and summary.episodes == len(old) - 1 - summary.facts
    assert records(tmp_path / "restored") == records(tmp_path / "original")
    again = restored.ingest([str(SAMPLE_CHATS)])  # what the log kept out comes back
    assert again.conversations == 1 and not again.failed


def test_a_bad_import_log_entry_is_refused_in_one_line(tmp_path: Path) -> None:
    dump = tmp_path / "export.jsonl"
    _deleted_then_exported(tmp_path / "original", "jsonl", dump)
    chat = '"type":"ingested","kind":"conversation"'
    lines = dump.read_text(encoding="utf-8").splitlines(keepends=True)
    bad = [x.replace('"message_ids":[', '"message_ids":[1,') if chat in x else x for x in lines]
    dump.write_text("".join(bad), encoding="utf-8")
    restored = Memory.open(data_dir=tmp_path / "restored")
    summary = restored.ingest([str(dump)])
    (failed,) = summary.failed
    assert "invalid ingested" in failed[1] and "\n" not in failed[1]
    assert restored.users() == []
