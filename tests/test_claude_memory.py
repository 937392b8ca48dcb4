"""What Claude keeps in its memory about the user (memories.json) comes in with the export."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from cli_runner import cli

from nemori_cli.importers import expand_paths, open_source
from nemori_cli.importers.claude_memory import about_user
from nemori_cli.importers.memory_names import pronouns_of_user

NOTES = (
    "**Work context**\n\nArjun is a Senior Advisor at Acme Bank in Mumbai. He leads a team of "
    "six. Arjun's manager is Priya.\n\n**Personal context**\n\nArjun is vegetarian and runs "
    "half marathons.\n\n**Top of mind**\n\n- Preparing for a board presentation in March\n"
)
CHAT = {"uuid": "c-1", "name": "Budget", "created_at": "2025-09-01T10:00:00Z",
        "updated_at": "2025-09-01T10:05:00Z", "chat_messages": [
            {"uuid": "m-1", "sender": "human", "created_at": "2025-09-01T10:00:00Z",
             "content": [{"type": "text", "text": "Help me plan a monthly budget."}]},
            {"uuid": "m-2", "sender": "assistant", "created_at": "2025-09-01T10:01:00Z",
             "content": [{"type": "text", "text": "Start with fixed costs."}]}]}
MEMORIES = [{"conversations_memory": NOTES, "account_uuid": "acct-1",
             "project_memories": {"proj-1": "Drafting the Q3 board deck for the risk team."}}]


def export_folder(root: Path) -> Path:
    root.mkdir()
    (root / "conversations.json").write_text(json.dumps([CHAT]))
    (root / "memories.json").write_text(json.dumps(MEMORIES))
    (root / "users.json").write_text(json.dumps([{"uuid": "acct-1", "full_name": "Arjun"}]))
    (root / "projects.json").write_text(json.dumps([{"uuid": "proj-1", "name": "Board"}]))
    return root


def test_the_notes_name_the_user_as_user_and_say_the_name_first() -> None:
    assert about_user(NOTES) == [
        "User's name is Arjun.",
        "User is a Senior Advisor at Acme Bank in Mumbai.",
        "User leads a team of six.",  # "He", after a note of the user's that names no one
        "User's manager is Priya.",
        "User is vegetarian and runs half marathons.",
        "Preparing for a board presentation in March",
    ]


def test_a_note_of_someone_else_says_whose_they_are_by_the_users_name() -> None:
    notes = "Arjun is a Senior Advisor at Acme. Priya is Arjun's manager."
    assert about_user(notes)[2] == "Priya is User's manager."


def test_notes_that_never_name_anyone_are_kept_as_written() -> None:
    notes = "Works on small web and CLI projects; prefers concise answers."
    assert about_user(notes) == [notes]


def test_a_folder_export_reads_memories_json_and_passes_over_the_other_companions(
        tmp_path: Path) -> None:
    folder = export_folder(tmp_path / "export")
    assert [Path(p).name for p in expand_paths([str(folder)])] == [
        "conversations.json", "memories.json"]
    convs = list(open_source(str(folder / "memories.json")).conversations())
    assert [c.title for c in convs] == ["Claude memory", "Claude project memory"]
    assert convs[0].messages[1].content == (
        "About me:\n- User is a Senior Advisor at Acme Bank in Mumbai.")
    assert convs[1].messages[0].role == "assistant"  # Claude's notes on a project


def test_a_memories_json_of_another_shape_stays_a_companion(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "conversations.json").write_text(json.dumps([CHAT]))
    (folder / "memories.json").write_text(json.dumps([{"id": 1, "text": "likes tea"}]))
    assert [Path(p).name for p in expand_paths([str(folder)])] == ["conversations.json"]


@pytest.mark.parametrize("layout", ["folder", "zip"])
def test_ingesting_the_export_makes_claudes_notes_the_users_facts(tmp_path: Path,
                                                                   layout: str) -> None:
    source = export_folder(tmp_path / "export")
    if layout == "zip":
        archive = tmp_path / "data-2025-09-30-batch-0000.zip"
        with zipfile.ZipFile(archive, "w") as zf:
            for f in sorted(source.iterdir()):
                zf.write(f, f.name)
        source = archive
    data = str(tmp_path / "data")
    code, out, _ = cli("--data-dir", data, "ingest", str(source), "--json")
    assert code == 0 and json.loads(out)["conversations"] == 3
    facts = {f["content"] for f in json.loads(cli("--data-dir", data, "facts", "list",
                                                   "--json")[1])}
    assert {"The user's name is Arjun.", "The user's manager is Priya.",
            "The user is a Senior Advisor at Acme Bank in Mumbai.",
            "The user leads a team of six."} <= facts


def test_the_memory_is_dated_when_the_export_was_made_if_its_name_says(tmp_path: Path) -> None:
    folder = export_folder(tmp_path / "data-2025-10-06-00-55-16-batch-0000")
    convs = list(open_source(str(folder / "memories.json")).conversations())
    assert {m.timestamp.isoformat() for c in convs for m in c.messages if m.timestamp} == {
        "2025-10-06T00:55:16+00:00"}
    plain = export_folder(tmp_path / "export")
    assert all(m.timestamp is None for c in open_source(str(plain / "memories.json"))
               .conversations() for m in c.messages)


def test_sub_headings_and_emphasis_are_markup_not_notes() -> None:
    notes = ("**Brief history**\n\n*Recent months* - Maya moved from Spotify to a startup in "
             "March 2025. She leads the **payments** team.\n*Earlier context*\n"
             "Maya studied economics at LSE.")
    assert about_user(notes) == [
        "User's name is Maya.", "User moved from Spotify to a startup in March 2025.",
        "User leads the payments team.", "User studied economics at LSE.",
    ]


def test_he_or_she_after_a_note_bringing_in_someone_else_stays_as_written() -> None:
    notes = ["User's manager is Priya.", "She is based in Berlin.",
             "User lives with her partner Tom.", "He is a chef.",
             "User works with Ana on the app.", "She is great.",
             "User is a product manager.", "She leads the payments team."]
    assert pronouns_of_user(notes) == [*notes[:-1], "User leads the payments team."]
