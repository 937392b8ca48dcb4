"""Chat apps' exports: Grok, DeepSeek, LibreChat, chatbot-ui; newer SillyTavern and Open WebUI
shapes."""

from __future__ import annotations

import copy
import json
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from nemori_cli.importers import expand_paths, open_source
from nemori_cli.models import Conversation

FIXTURES = Path(__file__).parent / "fixtures" / "importers"
GROK = FIXTURES / "grok" / "prod-grok-backend.json"
DEEPSEEK = FIXTURES / "deepseek" / "conversations.json"
LIBRECHAT = FIXTURES / "librechat"
CHATBOT_UI = FIXTURES / "chatbotui" / "chatbot_ui_history.json"
DEEPSEEK_2025 = FIXTURES / "deepseek" / "export-2025"
ST_GROUP = FIXTURES / "sillytavern" / "Lakeside Inn - 2025-06-05@15h04m22s.jsonl"
OPENWEBUI_THINK = FIXTURES / "openwebui" / "chat-export-1736000200000.json"


def read(path: Path | str, **kwargs) -> tuple[str, dict[str, Conversation], list]:
    source = open_source(str(path), **kwargs)
    return source.format, {c.id: c for c in source.conversations()}, source.skipped


def texts(conv: Conversation) -> list[str]:
    return [m.content for m in conv.messages]


def write(path: Path, value: object) -> Path:
    path.write_text(json.dumps(value))
    return path


# --- Grok ----------------------------------------------------------------------------------------


def test_grok_reads_senders_in_any_case_and_drops_thinking() -> None:
    fmt, convs, skipped = read(GROK)
    assert fmt == "grok"
    rome = convs["c0a1e7d2-3f4b-4c5d-8e9f-0a1b2c3d4e01"]
    assert rome.title == "Rome in three days"
    assert [(m.id, m.role) for m in rome.messages] == [
        ("r-101", "user"), ("r-102", "assistant"), ("r-103", "user"), ("r-104", "assistant"),
    ]
    everything = "\n".join(texts(rome))
    assert "short itinerary" not in everything and "food guide" not in everything
    assert rome.created_at == datetime(2025, 3, 2, 18, 20, 11, 512000, UTC)
    assert [(s.conversation_id, s.reason) for s in skipped] == [
        ("c0a1e7d2-3f4b-4c5d-8e9f-0a1b2c3d4e03", "empty conversation"),
    ]


def test_grok_follows_parent_links_to_the_newest_branch_with_mongo_times() -> None:
    conv = read(GROK)[1]["c0a1e7d2-3f4b-4c5d-8e9f-0a1b2c3d4e02"]
    assert [m.id for m in conv.messages] == ["r-201", "r-202", "r-203", "r-205"]
    assert conv.messages[-1].content == "Build up to 32 km, three weeks before race day."
    assert conv.messages[0].timestamp == datetime(2025, 3, 11, 18, 0, 0, 100000, UTC)
    assert conv.created_at == datetime(2025, 3, 11, 18, 0, tzinfo=UTC)


def test_grok_sender_written_as_a_model_name_is_the_assistant(tmp_path: Path) -> None:
    # Real exports write the model ("grok-3") as the sender of some answers.
    export = json.loads(GROK.read_text())
    item = export["conversations"][0]
    item["responses"][1]["response"]["sender"] = "grok-3"
    item["responses"][3]["response"]["sender"] = "grok-4-auto"
    conv = read(write(tmp_path / "prod-grok-backend.json", export))[1][
        "c0a1e7d2-3f4b-4c5d-8e9f-0a1b2c3d4e01"
    ]
    assert [(m.id, m.role) for m in conv.messages] == [
        ("r-101", "user"), ("r-102", "assistant"), ("r-103", "user"), ("r-104", "assistant"),
    ]


def test_unzipped_grok_export_folder_passes_over_account_files(tmp_path: Path) -> None:
    folder = tmp_path / "ttl" / "30d" / "export_data" / "0b5d"
    (folder / "prod-mc-asset-server" / "a1").mkdir(parents=True)
    (folder / "prod-grok-backend.json").write_text(GROK.read_text())
    write(folder / "prod-mc-auth-mgmt-api.json", {"user": {"givenName": "A"}, "sessions": []})
    write(folder / "prod-mc-billing.json", {"credits": {"balance": 0}})
    (folder / "prod-mc-asset-server" / "a1" / "content").write_text("print('hi')\n")
    assert [Path(p).name for p in expand_paths([str(tmp_path)])] == ["prod-grok-backend.json"]


# --- DeepSeek ------------------------------------------------------------------------------------


def test_deepseek_keeps_requests_and_responses_not_thinking_or_search() -> None:
    fmt, convs, skipped = read(DEEPSEEK)
    assert fmt == "deepseek"
    conv = convs["5b0f6d2e-7a1c-4e8b-9d3f-2c4b6a8e0f11"]
    assert [(m.role, m.content) for m in conv.messages] == [
        ("user", "I'm moving to Porto in June. How do I learn Portuguese fast?"),
        ("assistant", "Focus on European Portuguese: try 20 minutes a day with a tutor."),
        ("user", "Thanks! I already speak Spanish."),  # past a node whose message is null
    ]
    assert conv.messages[0].id == "5b0f6d2e-7a1c-4e8b-9d3f-2c4b6a8e0f11:1"
    assert conv.messages[0].timestamp == datetime(2025, 4, 1, 1, 0, 0, 500000, UTC)
    assert conv.metadata["model"] == "deepseek-reasoner"
    assert [(s.conversation_id, s.reason) for s in skipped] == [
        ("5b0f6d2e-7a1c-4e8b-9d3f-2c4b6a8e0f13", "empty conversation"),
    ]


def test_deepseek_without_a_current_node_follows_the_newest_leaf() -> None:
    conv = read(DEEPSEEK)[1]["5b0f6d2e-7a1c-4e8b-9d3f-2c4b6a8e0f12"]
    assert texts(conv) == [
        "My commute is 12 km each way. Should I buy an e-bike?",
        "For 12 km an e-bike keeps you fresh for work.",
    ]


def test_deepseek_older_exports_without_fragments_alternate_roles(tmp_path: Path) -> None:
    record = {"id": "old-1", "title": "Old", "inserted_at": "2025-02-01T10:00:00+08:00",
              "mapping": {
                  "root": {"id": "root", "parent": None, "children": ["1"], "message": None},
                  "1": {"id": "1", "parent": "root", "children": ["2"], "message": {
                      "content": "Is tea healthy?", "reasoning_content": None,
                      "inserted_at": "2025-02-01T10:00:01+08:00"}},
                  "2": {"id": "2", "parent": "1", "children": [], "message": {
                      "content": "In moderation, yes.", "reasoning_content": "Think about it.",
                      "inserted_at": "2025-02-01T10:00:09+08:00"}}}}
    fmt, convs, _ = read(write(tmp_path / "conversations.json", [record]))
    assert fmt == "deepseek"
    assert [(m.role, m.content) for m in convs["old-1"].messages] == [
        ("user", "Is tea healthy?"), ("assistant", "In moderation, yes."),
    ]


def test_deepseek_node_links_written_as_numbers(tmp_path: Path) -> None:
    doc = json.loads(DEEPSEEK.read_text())[:1]
    for key, node in doc[0]["mapping"].items():
        node["children"] = [int(c) for c in node["children"]]
        if key not in ("root", "1"):
            node["parent"] = int(node["parent"])
    [conv] = read(write(tmp_path / "conversations.json", doc))[1].values()
    assert len(conv.messages) == 3


def test_deepseek_keeps_a_filtered_answer_and_drops_tool_fragments() -> None:
    # A content-filtered answer is a TEMPLATE_RESPONSE fragment: it is what the person saw.
    conv = read(DEEPSEEK_2025 / "conversations.json")[1]["7c2e9a10-3b4d-4f5e-8a6b-1c2d3e4f5a01"]
    assert [(m.id.rsplit(":", 1)[1], m.role) for m in conv.messages] == [
        ("1", "user"), ("2", "assistant"), ("3", "user"), ("4", "assistant"),
    ]
    assert conv.messages[1].content == "Spray them off with water, then encourage ladybirds."
    assert conv.messages[3].content.startswith("Sorry, that's beyond my current scope.")


def test_deepseek_export_folder_and_zip_pass_over_user_json(tmp_path: Path) -> None:
    assert [Path(p).name for p in expand_paths([str(DEEPSEEK_2025)])] == ["conversations.json"]
    archive = tmp_path / "deepseek_data-2025-05-02.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for member in ("conversations.json", "user.json"):
            zipped.write(DEEPSEEK_2025 / member, member)
    fmt, convs, skipped = read(archive)
    assert fmt == "deepseek" and len(convs) == 1 and skipped == []


# --- LibreChat ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["LibreChat-flat.json", "LibreChat-nested.json"])
def test_librechat_follows_the_latest_branch_flat_or_nested(name: str) -> None:
    fmt, convs, _ = read(LIBRECHAT / name)
    [conv] = convs.values()
    assert fmt == "librechat" and conv.id == "9c2d4e6f-1a3b-4c5d-8e7f-90a1b2c3d4e5"
    assert conv.title == "Balcony garden" and conv.metadata["model"] == "gpt-4o"
    assert [(m.id, m.role) for m in conv.messages] == [
        ("m-1", "user"), ("m-2", "assistant"), ("m-3", "user"), ("m-5", "assistant"),
    ]
    everything = "\n".join(texts(conv))
    assert conv.messages[1].content == "Balconies suit tomatoes, herbs and lettuce in containers."
    assert "faces south" not in everything  # an older edit: another branch
    assert "gardening expert" not in everything  # options.promptPrefix is a system prompt
    assert "suggest containers" not in everything  # a `think` part


def test_librechat_drops_error_notices(tmp_path: Path) -> None:
    doc = json.loads((LIBRECHAT / "LibreChat-flat.json").read_text())
    kept = ("m-1", "m-2", "m-3", "m-4")  # the error notice is the leaf
    doc["messages"] = [m for m in doc["messages"] if m["messageId"] in kept]
    [conv] = read(write(tmp_path / "export.json", doc))[1].values()
    assert [m.id for m in conv.messages] == ["m-1", "m-2", "m-3"]


def test_librechat_legacy_thinking_block_is_not_the_answer() -> None:
    # Older LibreChat kept a reasoning model's thoughts in `text` as a :::thinking block.
    [conv] = read(LIBRECHAT / "LibreChat-thinking.json")[1].values()
    assert texts(conv) == [
        "I'm visiting Kyoto in April. Where should I stay?",
        "Stay near Gion or Higashiyama, and book early: April is cherry-blossom season.",
    ]


# --- SillyTavern and Open WebUI: newer shapes ------------------------------------------------


def test_sillytavern_group_chat_header_names_nobody() -> None:
    # Group chats (and newer solo chats) write "unused" for both names in the header.
    fmt, convs, _ = read(ST_GROUP)
    [conv] = convs.values()
    assert fmt == "sillytavern" and conv.id == "9e1d2c3b-4a5f-4e6d-8c7b-0a1b2c3d4e5f"
    assert conv.title == "Chat with Ayla, Bren"
    assert conv.metadata["character"] == "Ayla, Bren"
    assert [(m.role, m.name) for m in conv.messages] == [
        ("assistant", "Ayla"), ("user", "Sam"), ("assistant", "Bren"), ("assistant", "Ayla"),
    ]
    assert conv.messages[2].content == "Then you'll want stew. I'll fetch a bowl."  # shown swipe
    assert [m.timestamp.isoformat() for m in conv.messages if m.timestamp] == [
        "2025-06-05T15:04:22.123000+00:00", "2025-06-05T15:05:00+00:00",
        "2025-06-05T15:06:00+00:00", "2025-06-05T15:07:01.200000+00:00",
    ]


def test_openwebui_answer_with_raw_think_tags_drops_the_reasoning() -> None:
    # Chats saved before Open WebUI folded reasoning into <details> keep the model's <think>.
    fmt, convs, _ = read(OPENWEBUI_THINK)
    conv = convs["6d1b5c1e-0000-4a00-9000-0000000000b1"]
    assert fmt == "openwebui" and conv.title == "Sleep and training"
    assert texts(conv) == [
        "Is 8 hours of sleep enough for a marathon week?",
        "Aim for 8 to 9 hours, and nap after long runs.",
    ]


# --- chatbot-ui -----------------------------------------------------------------------------------


def test_chatbot_ui_reads_history_without_prompts_or_templates() -> None:
    fmt, convs, skipped = read(CHATBOT_UI)
    assert fmt == "chatbotui"
    conv = convs["3f6c1b9a-55aa-4bde-8c31-6e0f2a9d1b01"]
    assert conv.title == "Guitar practice" and conv.metadata["model"] == "gpt-4"
    assert [m.role for m in conv.messages] == ["user", "assistant", "user", "assistant"]
    everything = "\n".join(texts(conv))
    assert "large language model" not in everything and "three bullet points" not in everything
    # no message ids in this format: content-derived ones, the same on every read
    ids = [m.id for m in conv.messages]
    assert len(set(ids)) == 4 and ids == [m.id for m in read(CHATBOT_UI)[1][conv.id].messages]
    assert [s.reason for s in skipped] == ["empty conversation"]


def test_chatbot_ui_version_1_is_a_bare_list(tmp_path: Path) -> None:
    history = json.loads(CHATBOT_UI.read_text())["history"]
    fmt, convs, _ = read(write(tmp_path / "chatbot_ui_history.json", history))
    assert fmt == "chatbotui" and list(convs) == ["3f6c1b9a-55aa-4bde-8c31-6e0f2a9d1b01"]


# --- every app: a grown export keeps what was there ------------------------------------------


def _older_grok(doc: dict) -> dict:
    doc["conversations"][0]["responses"] = doc["conversations"][0]["responses"][:2]
    return doc


def _older_deepseek(doc: list) -> list:
    mapping = doc[0]["mapping"]
    for key in ("3", "4"):
        del mapping[key]
    mapping["2"]["children"] = []
    return doc


def _older_librechat(doc: dict) -> dict:
    doc["messages"] = doc["messages"][:2]
    return doc


def _older_chatbot_ui(doc: dict) -> dict:
    doc["history"][0]["messages"] = doc["history"][0]["messages"][:2]
    return doc


@pytest.mark.parametrize(
    ("path", "shrink", "new"),
    [(GROK, _older_grok, 2), (DEEPSEEK, _older_deepseek, 1),  # node 3 of DeepSeek's is null
     (LIBRECHAT / "LibreChat-flat.json", _older_librechat, 2),
     (CHATBOT_UI, _older_chatbot_ui, 2)],
    ids=["grok", "deepseek", "librechat", "chatbotui"],
)
def test_a_grown_export_keeps_conversation_and_message_ids(
    tmp_path: Path, path, shrink, new
) -> None:
    grown = read(path)[1]
    older = shrink(copy.deepcopy(json.loads(path.read_text())))
    before = read(write(tmp_path / path.name, older))[1]
    assert set(before) <= set(grown)
    added = 0
    for conv_id, conv in before.items():
        ids = [m.id for m in grown[conv_id].messages]
        assert ids[: len(conv.messages)] == [m.id for m in conv.messages]
        added += len(ids) - len(conv.messages)
    assert added == new
