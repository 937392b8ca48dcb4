"""The 2025-26 ChatGPT and Claude exports, detection across formats, and what holds everywhere."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from cli_runner import cli

from nemori_cli.errors import ImportFormatError
from nemori_cli.importers import FORMATS, expand_paths, open_source
from nemori_cli.importers.chatgpt import profile_text
from nemori_cli.models import Conversation, Message, stable_id
from nemori_cli.pipeline.facts import statements

FIXTURES = Path(__file__).parent / "fixtures" / "importers"
GPT = FIXTURES / "chatgpt2025"
CLAUDE = FIXTURES / "claude2025"
PIANO = "68e7a100-0001-8000-9000-00000000c001"
KITCHEN = "a1b2c3d4-0001-4e5f-8a9b-0c1d2e3f4a01"
CYCLING = "a1b2c3d4-0002-4e5f-8a9b-0c1d2e3f4a02"


def read(path: Path | str, **kwargs) -> tuple[str, dict[str, Conversation], list]:
    source = open_source(str(path), **kwargs)
    return source.format, {c.id: c for c in source.conversations()}, source.skipped


def read_all(paths: list[str]) -> list[str]:
    """Conversation ids of every file, in order, as ingest would read them."""
    return [c.id for p in paths for c in open_source(p).conversations()]


def texts(conv: Conversation) -> list[str]:
    return [m.content for m in conv.messages]


def zip_folder(folder: Path, archive: Path) -> Path:
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for f in sorted(folder.rglob("*")):
            if f.is_file():
                zf.write(f, f.relative_to(folder).as_posix())
    return archive


# --- ChatGPT 2025-26 ------------------------------------------------------------------------------


def test_chatgpt_2025_drops_hidden_nodes_custom_instructions_and_system_messages() -> None:
    fmt, convs, _ = read(GPT / "conversations-000.json")
    conv = convs[PIANO]
    assert fmt == "chatgpt"
    assert [m.id for m in conv.messages] == ["u-1", "a-1", "u-2", "a-2", "u-3"]
    everything = "\n".join(texts(conv))
    for absent in ("nurse in Leeds", "Answer briefly", "Current date", "Saved to memory",
                   "sediment://", "cite", "turn0search1"):
        assert absent not in everything
    assert conv.messages[1].content == "Lovely! How often do you practise?"  # PUA stripped
    assert conv.messages[2].content == "[image]\nThis is the piece I'm learning."
    assert conv.messages[-1].role == "user"  # current_node is the last question


def test_chatgpt_custom_instructions_about_the_user_are_one_message_of_theirs() -> None:
    convs = read(GPT / "conversations-000.json")[1]
    about = convs[stable_id("about-me", "I am a nurse in Leeds.")]
    assert about.title == "About me (ChatGPT custom instructions)"
    assert [(m.role, m.content) for m in about.messages] == [("user", "I am a nurse in Leeds.")]
    assert about.messages[0].timestamp is not None  # when the chat it came with began


def test_chatgpt_profile_fields_read_as_an_about_me_list() -> None:
    raw = ("The user provided the following information about themselves. This user profile is "
           "shown to you in all conversations they have.\nUser profile:\n```Preferred name: "
           "Elin\nRole: Machine operator\nOther Information: I live in Malmo with two cats.\n"
           "I love cross-country skiing.```")
    text = profile_text(raw)
    assert text == ("About me:\n- Preferred name: Elin\n- Role: Machine operator\n\n"
                    "I live in Malmo with two cats.\nI love cross-country skiing.")
    facts = [s.content for s in statements(Message(id="m", role="user", content=text),
                                           to_assistant=True)]
    assert "The user's role is Machine operator." in facts
    assert "The user lives in Malmo with two cats." in facts


def test_chatgpt_2025_keeps_the_tree_order_when_an_answer_is_stamped_early() -> None:
    conv = read(GPT / "conversations-000.json")[1][PIANO]
    first, answer = conv.messages[:2]
    assert answer.timestamp < first.timestamp  # type: ignore[operator]
    assert [m.role for m in conv.messages[:2]] == ["user", "assistant"]


def test_chatgpt_2025_current_node_at_a_question_with_its_answer_below() -> None:
    conv = read(GPT / "conversations-000.json")[1]["68e7a100-0002-8000-9000-00000000c002"]
    assert texts(conv) == [
        "When is the UK self-assessment deadline?", "31 January for online returns.",
    ]


def test_chatgpt_2025_sharded_zip_reads_every_shard_once(tmp_path: Path) -> None:
    archive = zip_folder(GPT, tmp_path / "chatgpt-export-2025-10-20.zip")
    source = open_source(str(archive))
    ids = [c.id for c in source.conversations()]
    assert source.format == "chatgpt"
    about_me = stable_id("about-me", "I am a nurse in Leeds.")  # its shard's custom instructions
    assert ids == [PIANO, "68e7a100-0002-8000-9000-00000000c002", about_me,
                   "68e7a100-0004-8000-9000-00000000c004"]
    assert [(s.conversation_id, s.reason) for s in source.skipped] == [
        ("68e7a100-0003-8000-9000-00000000c003", "no message tree (mapping)"),
    ]


def test_chatgpt_2025_folder_passes_over_the_manifest_and_chat_html() -> None:
    names = [Path(p).name for p in expand_paths([str(GPT)])]
    assert names == ["conversations-000.json", "conversations-001.json"]


# --- Claude 2025-26 ---------------------------------------------------------------------------


@pytest.fixture
def claude_download(tmp_path: Path) -> Path:
    """A download folder: the manifest and the two batch zips it lists."""
    folder = tmp_path / "claude-download"
    folder.mkdir()
    shutil.copy(CLAUDE / "manifest-7f3e2a10.json", folder)
    for batch in ("0000", "0001"):
        archive = folder / f"data-2025-12-02-08-00-00-batch-{batch}.zip"
        zip_folder(CLAUDE / f"batch-{batch}", archive)
    return folder


def test_claude_folder_with_manifest_and_zips_imports_each_conversation_once(
    claude_download: Path,
) -> None:
    paths = expand_paths([str(claude_download)])
    assert [Path(p).name for p in paths] == [
        "data-2025-12-02-08-00-00-batch-0000.zip", "data-2025-12-02-08-00-00-batch-0001.zip",
    ]
    memory = stable_id("memory", "claude", "")  # the first batch's memories.json
    assert read_all(paths) == [KITCHEN, memory, CYCLING]
    manifest = str(claude_download / "manifest-7f3e2a10.json")
    assert expand_paths([manifest]) == paths  # the manifest stands for its zips
    assert read_all(expand_paths([manifest, *paths])) == [KITCHEN, memory, CYCLING]


def test_claude_manifest_with_a_missing_part_says_which(claude_download: Path) -> None:
    (claude_download / "data-2025-12-02-08-00-00-batch-0001.zip").unlink()
    with pytest.raises(ImportFormatError, match="lists data-2025-12-02-08-00-00-batch-0001.zip, "
                       "which is not beside it"):
        expand_paths([str(claude_download)])


def test_claude_2025_content_blocks_keep_text_only(claude_download: Path) -> None:
    fmt, convs, _ = read(claude_download / "data-2025-12-02-08-00-00-batch-0000.zip")
    conv = convs[KITCHEN]
    assert fmt == "claude"
    assert texts(conv) == [
        "We're renovating our kitchen with a budget of 12,000 EUR.",
        "With 12,000 EUR, spend most on cabinets and worktops and keep the current layout.",
        "Good idea. Which worktop material?",
        "Laminate is cheapest; quartz lasts longest.",
    ]
    everything = "\n".join(texts(conv))
    assert "budget is tight" not in everything and "Weighing" not in everything  # thinking
    assert "800 EUR" not in everything and "cost per m2" not in everything  # tool use/result
    # messages without uuid get content-derived ids; without created_at, the time before theirs
    ids = [m.id for m in conv.messages]
    assert all(i.startswith("msg_") for i in ids[2:]) and len(set(ids)) == len(ids)
    assert conv.messages[2].timestamp == conv.messages[3].timestamp == conv.messages[1].timestamp


def test_claude_file_with_a_single_conversation_object() -> None:
    fmt, convs, _ = read(CLAUDE / "batch-0001" / "conversations.json")
    assert fmt == "claude" and list(convs) == [CYCLING]


# --- everywhere ------------------------------------------------------------------------------


def test_private_use_characters_are_stripped_from_every_format(tmp_path: Path) -> None:
    doc = {"conversationId": "pua-1", "title": "\ue000Notes\uf8ff", "messages": [
        {"messageId": "p1", "isCreatedByUser": True, "text": "I\ue200 like\uf8ff tea",
         "createdAt": "2025-01-01T00:00:00Z"},
        {"messageId": "p2", "isCreatedByUser": False, "text": "\ue203\ue204",
         "createdAt": "2025-01-01T00:00:05Z"}]}
    path = tmp_path / "librechat.json"
    path.write_text(json.dumps(doc))
    [conv] = read(path)[1].values()
    assert conv.title == "Notes" and texts(conv) == ["I like tea"]  # nothing left of p2


def test_a_conversation_stored_twice_in_one_file_is_read_once(tmp_path: Path) -> None:
    chat = {"id": "owui-1", "title": "Tea", "chat": {
        "history": {"currentId": "m2", "messages": {
            "m1": {"id": "m1", "parentId": None, "childrenIds": ["m2"], "role": "user",
                   "content": "I drink green tea.", "timestamp": 1717000000},
            "m2": {"id": "m2", "parentId": "m1", "childrenIds": [], "role": "assistant",
                   "content": "Nice choice.", "timestamp": 1717000010}}},
        "messages": [{"id": "m1", "role": "user", "content": "I drink green tea."},
                     {"id": "m2", "role": "assistant", "content": "Nice choice."}]}}
    path = tmp_path / "chat-export.json"
    path.write_text(json.dumps([chat, chat]))
    source = open_source(str(path))
    convs = list(source.conversations())
    assert source.format == "openwebui"
    assert [(c.id, len(c.messages)) for c in convs] == [("owui-1", 2)]
    assert [s.reason for s in source.skipped] == ["stored twice in the file; read once"]


DETECTED = {
    "gemini/MyActivity.json": "gemini",
    "gemini/MyActivity.html": "gemini",
    "aistudio/Sourdough coach": "aistudio",
    "grok/prod-grok-backend.json": "grok",
    "deepseek/conversations.json": "deepseek",
    "librechat/LibreChat-flat.json": "librechat",
    "librechat/LibreChat-nested.json": "librechat",
    "chatbotui/chatbot_ui_history.json": "chatbotui",
    "chatgpt2025/conversations-000.json": "chatgpt",
    "claude2025/batch-0001/conversations.json": "claude",
    "chatgpt/conversations.json": "chatgpt",
    "claude/conversations_new.json": "claude",
    "openwebui/chat-export-1719000200.json": "openwebui",
    "core/conversations.json": "nemori",
    "core/openai_messages.json": "openai",
}


@pytest.mark.parametrize("fixture", sorted(DETECTED))
def test_each_format_is_detected_as_itself(fixture: str) -> None:
    assert open_source(str(FIXTURES / fixture)).format == DETECTED[fixture]


def test_every_new_format_is_listed_and_can_be_forced() -> None:
    for name in ("gemini", "aistudio", "grok", "deepseek", "librechat", "chatbotui"):
        assert name in FORMATS
    fmt, convs, _ = read(FIXTURES / "deepseek" / "conversations.json", format="deepseek")
    assert fmt == "deepseek" and convs


def test_dry_run_names_the_format_of_each_file(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    for fixture in ("gemini/MyActivity.html", "grok/prod-grok-backend.json",
                    "deepseek/conversations.json", "chatbotui/chatbot_ui_history.json"):
        shutil.copy(FIXTURES / fixture, folder / Path(fixture).name)
    code, out, err = cli("ingest", str(folder), "--dry-run", "--json")
    assert code == 0, err
    formats = {Path(r["path"]).name: r["format"] for r in json.loads(out)}
    assert formats == {"MyActivity.html": "gemini", "prod-grok-backend.json": "grok",
                       "conversations.json": "deepseek", "chatbot_ui_history.json": "chatbotui"}


def test_reimporting_grown_exports_stores_only_the_new_messages(tmp_path: Path, data_dir) -> None:
    from nemori_cli.memory import Memory

    records = json.loads((FIXTURES / "gemini" / "MyActivity.json").read_text())
    deepseek = json.loads((FIXTURES / "deepseek" / "conversations.json").read_text())
    older = tmp_path / "older"
    older.mkdir()
    (older / "MyActivity.json").write_text(json.dumps(records[2:]))  # two prompts fewer
    (older / "conversations.json").write_text(json.dumps(deepseek[1:]))  # a chat fewer
    mem = Memory.open(data_dir=data_dir)
    first = mem.ingest([str(older)])
    assert (first.conversations, first.messages) == (3, 8)
    grown = mem.ingest([str(FIXTURES / "gemini" / "MyActivity.json"),
                        str(FIXTURES / "deepseek" / "conversations.json")])
    # Gemini: one more prompt with its reply, and a prompt without one; DeepSeek: a new chat
    assert (grown.conversations, grown.messages) == (2, 6)
    ids = [m for e in mem.episodes() for m in e.message_ids]
    assert len(ids) == len(set(ids)) == 14
