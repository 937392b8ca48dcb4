"""Real archives: ChatGPT and Claude exports, markdown conventions, SillyTavern, Open WebUI."""

from __future__ import annotations

import json
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from nemori_cli.errors import ImportFormatError
from nemori_cli.importers import expand_paths, open_source, scan
from nemori_cli.models import Conversation

FIXTURES = Path(__file__).parent / "fixtures" / "importers"
CHATGPT = FIXTURES / "chatgpt"
CLAUDE = FIXTURES / "claude"
MARKDOWN = FIXTURES / "markdown"
ST_CHAT = FIXTURES / "sillytavern" / "Seraphina-2024-03-11@16h22m30s.jsonl"
OPENWEBUI = FIXTURES / "openwebui" / "chat-export-1719000200.json"


def read(path: Path | str, **kwargs) -> tuple[str, dict[str, Conversation], list]:
    source = open_source(str(path), **kwargs)
    convs = {c.id: c for c in source.conversations()}
    return source.format, convs, source.skipped


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def texts(conv: Conversation) -> list[str]:
    return [m.content for m in conv.messages]


def make_zip(path: Path, members: dict[str, bytes | Path]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data.read_bytes() if isinstance(data, Path) else data)
    return path


# --- ChatGPT --------------------------------------------------------------------------------

BRANCHED = "6a1f0c2e-0001-4b7e-9d55-6f3c1a2b3c01"
TOOLS = "6a1f0c2e-0002-4b7e-9d55-6f3c1a2b3c02"
MULTIMODAL = "6a1f0c2e-0003-4b7e-9d55-6f3c1a2b3c03"
BROKEN = "6a1f0c2e-0004-4b7e-9d55-6f3c1a2b3c04"
NULL_TIMES = "6a1f0c2e-0005-4b7e-9d55-6f3c1a2b3c05"


@pytest.fixture(scope="module")
def chatgpt() -> tuple[str, dict[str, Conversation], list]:
    return read(CHATGPT / "conversations.json")


def test_chatgpt_follows_current_node_through_an_edit_and_a_regeneration(chatgpt) -> None:
    fmt, convs, _ = chatgpt
    conv = convs[BRANCHED]
    assert fmt == "chatgpt" and conv.title == "Alps hut trip"
    assert [m.id for m in conv.messages] == ["u-1", "a-1", "u-2b", "a-2b2", "u-3"]
    assert conv.messages[2].content == "Actually I'll go in July with my sister."
    assert "Tête Rousse" in conv.messages[3].content
    assert conv.created_at == utc(2024, 6, 1, 9)
    assert conv.messages[0].timestamp == utc(2024, 6, 1, 9, 0, 10)


def test_chatgpt_drops_tool_traffic_reasoning_and_hidden_context(chatgpt) -> None:
    conv = chatgpt[1][TOOLS]
    assert [m.id for m in conv.messages] == ["t-1", "t-9", "t-12", "t-15"]
    assert [m.role for m in conv.messages] == ["user", "assistant", "user", "assistant"]
    assert conv.messages[1].content == (
        "2**100 is 1267650600228229401496703205376. Lyon is 18°C and sunny today."
    )
    everything = "\n".join(texts(conv))
    for hidden in ("Grenoble", "print(", "search(", "Model set context", "Thought for",
                   "sister lives", "I should run python", "mountain at sunset\", \"size"):
        assert hidden not in everything


def test_chatgpt_multimodal_keeps_text_marks_images_and_reads_voice(chatgpt) -> None:
    conv = chatgpt[1][MULTIMODAL]
    assert texts(conv) == [
        "[image]\nWhat mountain is this? I took the photo from Zermatt.",
        "That looks like the Matterhorn.",
        "How tall is it?",
        "It is 4,478 metres tall.",
    ]


def test_chatgpt_broken_tree_imports_what_is_reachable(chatgpt) -> None:
    conv = chatgpt[1][BROKEN]
    assert [m.id for m in conv.messages] == ["b-2", "b-3"]


def test_chatgpt_null_times_come_from_neighbours_or_the_conversation(chatgpt) -> None:
    conv = chatgpt[1][NULL_TIMES]
    assert conv.title is None
    assert [m.timestamp for m in conv.messages] == [
        utc(2024, 6, 5, 9, 0),  # first message: the conversation's create_time
        utc(2024, 6, 5, 9, 1),
        utc(2024, 6, 5, 9, 1),  # later message: the one before it
    ]


def test_chatgpt_skips_conversations_without_a_tree_or_text(chatgpt) -> None:
    _, convs, skipped = chatgpt
    assert len(convs) == 7  # five chats, the custom instructions and ChatGPT's memory
    assert [(s.conversation_id, s.reason) for s in skipped] == [
        ("6a1f0c2e-0006-4b7e-9d55-6f3c1a2b3c06", "no message tree (mapping)"),
        ("6a1f0c2e-0007-4b7e-9d55-6f3c1a2b3c07", "empty conversation"),
    ]


def test_chatgpt_single_conversation_object() -> None:
    fmt, convs, _ = read(CHATGPT / "single_conversation.json")
    assert fmt == "chatgpt" and list(convs) == [BRANCHED]


def test_chatgpt_zip_export_reads_conversations_json_only(tmp_path: Path, chatgpt) -> None:
    archive = make_zip(tmp_path / "export.zip", {
        "conversations.json": CHATGPT / "conversations.json",
        "user.json": CHATGPT / "user.json",
        "message_feedback.json": CHATGPT / "message_feedback.json",
        "chat.html": CHATGPT / "chat.html",
        "file-9xK2-sunset.webp": b"RIFF....WEBP",
    })
    fmt, convs, skipped = read(archive)
    assert fmt == "chatgpt"
    assert convs == {k: _with_source(v, str(archive)) for k, v in chatgpt[1].items()}
    assert skipped == chatgpt[2]


def _with_source(conv: Conversation, source: str) -> Conversation:
    from dataclasses import replace

    return replace(conv, source=source)


def test_chatgpt_shards_in_a_directory_and_in_a_zip(tmp_path: Path) -> None:
    shards = expand_paths([str(CHATGPT / "shards")])
    assert [Path(p).name for p in shards] == ["conversations-000.json", "conversations-001.json"]
    ids = [cid for path in shards for cid in read(path)[1]]
    assert ids == [BRANCHED, MULTIMODAL, NULL_TIMES]
    archive = make_zip(tmp_path / "export.zip", {
        f"export/{Path(p).name}": Path(p) for p in reversed(shards)
    })
    source = open_source(str(archive))
    assert source.format == "chatgpt"
    assert [c.id for c in source.conversations()] == ids


def test_chatgpt_export_directory_skips_companion_files() -> None:
    names = [Path(p).name for p in expand_paths([str(CHATGPT)])]
    assert "user.json" not in names and "message_feedback.json" not in names
    assert "conversations.json" in names and "chat.html" not in names


def test_chatgpt_export_directory_skips_the_newer_account_files(tmp_path: Path) -> None:
    # Files beside conversations.json in 2025-26 exports; none holds a chat.
    folder = tmp_path / "chatgpt-export"
    folder.mkdir()
    (folder / "conversations.json").write_text((CHATGPT / "conversations.json").read_text())
    for name in ("user_settings.json", "ads.json", "conversation_asset_file_names.json",
                 "library_files.json"):
        (folder / name).write_text('{"x": []}')
    assert [Path(p).name for p in expand_paths([str(folder)])] == ["conversations.json"]


def test_chatgpt_grown_export_keeps_ids_of_what_was_there(tmp_path: Path, chatgpt) -> None:
    record = json.loads((CHATGPT / "single_conversation.json").read_text())
    record["mapping"]["u-3"]["children"] = ["a-4"]
    record["mapping"]["a-4"] = {
        "id": "a-4", "parent": "u-3", "children": [],
        "message": {"id": "a-4", "author": {"role": "assistant"}, "create_time": 1717232500.0,
                    "content": {"content_type": "text", "parts": ["Enjoy the hike!"]},
                    "weight": 1.0, "recipient": "all", "metadata": {}},
    }
    record["current_node"] = "a-4"
    (tmp_path / "conversations.json").write_text(json.dumps([record]))
    [conv] = read(tmp_path / "conversations.json")[1].values()
    before = chatgpt[1][BRANCHED]
    assert conv.id == before.id
    assert [m.id for m in conv.messages] == [*(m.id for m in before.messages), "a-4"]


def test_chatgpt_strict_mode_names_the_broken_conversation() -> None:
    source = open_source(str(CHATGPT / "conversations.json"), strict=True)
    with pytest.raises(ImportFormatError) as err:
        list(source.conversations())
    assert str(err.value) == (
        f"{CHATGPT / 'conversations.json'}: conversation "
        "6a1f0c2e-0006-4b7e-9d55-6f3c1a2b3c06: no message tree (mapping)"
    )


def test_scan_reports_counts_range_and_skips() -> None:
    report = scan(open_source(str(CHATGPT / "conversations.json")))
    assert (report.format, report.conversations, report.messages) == ("chatgpt", 7, 20)
    assert report.first == utc(2024, 6, 1, 9, 0, 10)
    assert report.last == utc(2024, 6, 5, 9, 1)
    assert [s.reason for s in report.skipped] == ["no message tree (mapping)", "empty conversation"]
    as_dict = report.to_dict()
    assert as_dict["first"] == "2024-06-01T09:00:10Z"
    assert as_dict["skipped"][1] == {
        "conversation_id": "6a1f0c2e-0007-4b7e-9d55-6f3c1a2b3c07", "reason": "empty conversation",
    }


def test_scan_of_a_file_with_nothing_to_import_reports_why(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps([{"uuid": "x1", "name": "", "chat_messages": []}]))
    report = scan(open_source(str(path)))
    assert report.conversations == 0
    assert [(s.conversation_id, s.reason) for s in report.skipped] == [("x1", "empty conversation")]


# --- Claude ----------------------------------------------------------------------------------


def test_claude_old_layout_strips_thinking_and_keeps_artifacts_and_attachments() -> None:
    fmt, convs, skipped = read(CLAUDE / "conversations_old.json")
    assert fmt == "claude"
    conv = convs["3f1c2b7a-1111-4c2d-9e8f-0a1b2c3d4e01"]
    assert conv.title == "Rust lifetimes"
    assert [m.role for m in conv.messages] == ["user", "assistant"]
    assert conv.messages[0].id == "9a0e1c1d-aaaa-4f00-b000-000000000001"
    assert conv.messages[0].content.startswith("Can you explain lifetimes? Here is my code.\n\n")
    assert "[attachment: main.rs]\nfn longest(x: &str" in conv.messages[0].content
    answer = conv.messages[1].content
    assert "antThinking" not in answer and "needs a lifetime annotation" not in answer
    assert "[artifact: Fixed longest function]\nfn longest<'a>" in answer
    assert "<antArtifact" not in answer and answer.endswith("share the lifetime 'a.")
    assert [(s.conversation_id, s.reason) for s in skipped] == [
        ("3f1c2b7a-1111-4c2d-9e8f-0a1b2c3d4e02", "empty conversation"),
    ]


def test_claude_new_layout_reads_text_blocks_and_drops_thinking_and_tools() -> None:
    fmt, convs, _ = read(CLAUDE / "conversations_new.json")
    conv = convs["7d2e4f60-2222-4a3b-8c9d-1e2f3a4b5c01"]
    assert fmt == "claude" and conv.title == "Moving to Lyon"
    assert texts(conv) == [
        "I'm moving to Lyon in March with my partner.",
        "Congratulations on the move!\n\nCroix-Rousse is popular with families.\n\n"
        "[artifact: Moving checklist]\n- Book movers\n- Register at the mairie",
        "Thanks! My lease notes are attached.\n\n[attachment: lease.txt]\n"
        "Lease starts 1 March 2025. Rent 1,150 EUR per month.",
    ]
    assert conv.messages[1].timestamp == utc(2025, 1, 10, 8, 30, 10)


def test_claude_edited_chat_keeps_the_latest_branch() -> None:
    conv = read(CLAUDE / "conversations_new.json")[1]["7d2e4f60-2222-4a3b-8c9d-1e2f3a4b5c02"]
    assert [m.id[-2:] for m in conv.messages] == ["01", "02", "05", "06"]
    assert conv.messages[-1].content == "Wednesday 5 March it is."


def test_claude_conversation_saved_from_the_web_app_follows_its_current_leaf(
    tmp_path: Path,
) -> None:
    # Browser exporters save claude.ai's own conversation JSON, which names the branch on
    # screen (`current_leaf_message_uuid`); here the person went back to the first version.
    record = json.loads((CLAUDE / "conversations_new.json").read_text())[1]
    record["current_leaf_message_uuid"] = record["chat_messages"][3]["uuid"]
    path = tmp_path / "conversation.json"
    path.write_text(json.dumps(record))
    conv = read(path)[1][record["uuid"]]
    assert [m.id[-2:] for m in conv.messages] == ["01", "02", "03", "04"]
    record["current_leaf_message_uuid"] = "not-a-message"  # unknown: the latest branch
    path.write_text(json.dumps(record))
    assert [m.id[-2:] for m in read(path)[1][record["uuid"]].messages] == ["01", "02", "05", "06"]


def test_claude_attachments_that_are_not_a_list_are_passed_over(tmp_path: Path) -> None:
    records = json.loads((CLAUDE / "conversations_new.json").read_text())
    records[0]["chat_messages"][0]["attachments"] = 3
    records[0]["chat_messages"][2]["attachments"] = {"file_name": "lease.txt"}
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(records))
    conv = read(path)[1][records[0]["uuid"]]
    assert texts(conv)[0] == "I'm moving to Lyon in March with my partner."
    assert texts(conv)[2] == "Thanks! My lease notes are attached."


def test_claude_zip_export(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "data-2025-01-11-08-00-00.zip", {
        "conversations.json": CLAUDE / "conversations_new.json",
        "users.json": CLAUDE / "users.json",
        "projects.json": CLAUDE / "projects.json",
    })
    fmt, convs, _ = read(archive)
    assert fmt == "claude" and list(convs) == [
        "7d2e4f60-2222-4a3b-8c9d-1e2f3a4b5c01", "7d2e4f60-2222-4a3b-8c9d-1e2f3a4b5c02",
    ]
    assert next(iter(convs.values())).source == str(archive)


def test_a_zip_without_chats_is_an_error(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "photos.zip", {"a.jpg": b"\xff\xd8", "users.json": b"[]"})
    with pytest.raises(ImportFormatError, match=r"photos\.zip: no conversations\.json"):
        open_source(str(archive))
    (tmp_path / "broken.zip").write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(ImportFormatError, match=r"broken\.zip: not a readable zip archive"):
        open_source(str(tmp_path / "broken.zip"))


# --- Markdown conventions --------------------------------------------------------------------


def test_markdown_heading_suffixes_give_ids_and_times() -> None:
    fmt, convs, _ = read(MARKDOWN / "suffixes.md")
    [conv] = convs.values()
    assert fmt == "markdown"
    assert [m.id for m in conv.messages] == ["msg-001", "msg-002", "msg-003", "msg-004"]
    assert [m.timestamp for m in conv.messages] == [
        utc(2024, 6, 1, 9, 0), utc(2024, 6, 1, 9, 0, 30), utc(2024, 6, 1, 9, 5),
        utc(2024, 6, 1, 7, 5, 20),  # +02:00 converted to UTC
    ]
    body = conv.messages[1].content
    assert "~~~markdown\n## User\nsquash the last three, please\n**Assistant:** done\n~~~" in body
    assert "---\n\n### Then\n\nMark the last two as `squash`." in body


def test_markdown_chatgpt_exporter_with_front_matter() -> None:
    [conv] = read(MARKDOWN / "chatgpt_exporter.md")[1].values()
    assert conv.title == "Changing jobs: offer comparison"
    assert conv.created_at == utc(2024, 9, 14, 18, 2, 11)
    assert [m.role for m in conv.messages] == ["user", "assistant", "user", "assistant"]
    assert conv.messages[1].content.endswith("1. Who would mentor you?\n2. What is the runway?")
    assert conv.metadata["source"].startswith("https://chatgpt.com/c/")


def test_markdown_front_matter_id_date_and_rules_in_bodies() -> None:
    [conv] = read(MARKDOWN / "front_matter.md")[1].values()
    assert conv.id == "desk-chat-2024" and conv.title == "Standing desk"
    assert conv.created_at == utc(2024, 10, 2, 7, 15)
    assert conv.timestamp == conv.created_at  # no message times: the front matter's date
    assert conv.messages[0].content == (
        "I bought a standing desk.\n\n---\n\nStill deciding on a mat."
    )


def test_llm_logs_markdown_groups_entries_by_conversation() -> None:
    fmt, convs, _ = read(MARKDOWN / "llm_logs.md")
    assert fmt == "markdown"
    a = convs["01j5ab0000000000000000conva"]
    b = convs["01j5ab0000000000000000convb"]
    assert [m.id for m in a.messages] == [
        "01j5ab00000000000000000r01:prompt", "01j5ab00000000000000000r01",
        "01j5ab00000000000000000r03:prompt", "01j5ab00000000000000000r03",
    ]
    assert a.messages[0].content == "What's a good name for a sourdough starter?"
    answer = a.messages[1].content
    assert answer.startswith("How about **Clint Yeastwood**?\n\n## Summary")
    assert "## Prompt\nnot a new section" in answer
    assert "friendly baker" not in answer and "input, 9 output" not in answer
    assert a.messages[2].timestamp == utc(2024, 8, 17, 20, 54, 30)
    assert texts(b) == ["Convert 180C to Fahrenheit.", "180°C is 356°F."]
    assert b.metadata["model"] == "claude-3.5-sonnet"


def test_llm_logs_for_one_conversation_omit_the_id_after_the_first_entry(tmp_path: Path) -> None:
    path = tmp_path / "log.md"
    path.write_text(
        "# 2024-08-18T10:00:00    conversation: c1 id: r1\n\nModel: **m**\n\n## Prompt\n\nhi\n\n"
        "## Response\n\nhello\n\n# 2024-08-18T10:01:00\n\n## Prompt\n\nbye\n\n## Response\n\nciao\n"
    )
    [conv] = read(path)[1].values()
    assert conv.id == "c1" and texts(conv) == ["hi", "hello", "bye", "ciao"]


def test_markdown_unclosed_fence_does_not_swallow_later_turns(tmp_path: Path) -> None:
    path = tmp_path / "t.md"
    path.write_text("## User\n\nwhy does ``` break?\n```\noops\n\n## Assistant\n\nIt doesn't.\n")
    [conv] = read(path)[1].values()
    assert [m.role for m in conv.messages] == ["user", "assistant"]


def test_headings_about_users_are_not_turns(tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text("# Docs\n\n## User Guide\n\ntext\n\n## Assistant features overview\n\nmore\n")
    with pytest.raises(ImportFormatError, match="unknown format"):
        open_source(str(path))


# --- SillyTavern -------------------------------------------------------------------------------


def test_sillytavern_keeps_speaker_names_and_times() -> None:
    fmt, convs, _ = read(ST_CHAT)
    [conv] = convs.values()
    assert fmt == "sillytavern"
    assert conv.id == "5c6f8e2a-7b1d-4e3f-9a0b-1c2d3e4f5a6b"  # chat_metadata.integrity
    assert conv.title == "Chat with Seraphina"
    assert conv.created_at == utc(2024, 3, 11, 16, 22, 30)
    assert [(m.role, m.name) for m in conv.messages] == [
        ("assistant", "Seraphina"), ("user", "Alex"), ("assistant", "Seraphina"),
        ("system", "Narrator"),
    ]
    assert conv.messages[1].timestamp == utc(2024, 3, 11, 16, 23)
    assert conv.messages[2].content == "Sit, rest. I'll brew some chamomile."  # chosen swipe


def test_sillytavern_chat_that_grew_keeps_its_ids(tmp_path: Path) -> None:
    lines = ST_CHAT.read_text().splitlines()
    header = json.loads(lines[0])
    del header["chat_metadata"]["integrity"]  # older files: the id comes from the header
    grown = tmp_path / "chat.jsonl"
    grown.write_text("\n".join([json.dumps(header), *lines[1:3]]))
    [before] = read(grown)[1].values()
    grown.write_text("\n".join([json.dumps(header), *lines[1:]]))
    [after] = read(grown)[1].values()
    assert after.id == before.id
    assert [m.id for m in after.messages][:2] == [m.id for m in before.messages]
    assert len(after.messages) == 4


# --- Open WebUI --------------------------------------------------------------------------------


def test_openwebui_follows_current_id_and_strips_reasoning() -> None:
    fmt, convs, _ = read(OPENWEBUI)
    assert fmt == "openwebui"
    conv = convs["6d1b5c1e-0000-4a00-9000-0000000000a1"]
    assert conv.title == "Sourdough starter"
    assert [m.id for m in conv.messages] == ["m1", "m2", "m3b", "m4b"]
    assert conv.messages[3].content == "At 24°C use 1:5:5 (starter:flour:water) twice a day."
    assert conv.messages[0].timestamp == utc(2024, 6, 10, 6, 13, 30)
    assert conv.created_at == utc(2024, 6, 10, 6, 13, 20)


def test_openwebui_without_current_id_shows_the_latest_branch() -> None:
    conv = read(OPENWEBUI)[1]["6d1b5c1e-0000-4a00-9000-0000000000a2"]
    assert texts(conv) == [
        "I'm learning Italian before my trip to Rome.", "Buona fortuna! Start with greetings.",
    ]


def test_openwebui_single_chat_object(tmp_path: Path) -> None:
    chat = json.loads(OPENWEBUI.read_text())[0]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(chat))
    fmt, convs, _ = read(path)
    assert fmt == "openwebui" and list(convs) == ["6d1b5c1e-0000-4a00-9000-0000000000a1"]
