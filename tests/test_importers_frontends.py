"""Chat front-ends' exports: LobeChat, Chatbox, BetterChatGPT, TypingMind; and that adding them
left the other formats' detection alone."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from cli_runner import cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nemori_cli.errors import NemoriError
from nemori_cli.importers import FORMATS, open_source
from nemori_cli.importers.detect import format_name
from nemori_cli.models import Conversation

FIXTURES = Path(__file__).parent / "fixtures" / "importers"
MS = 1717236000000  # 2024-06-01 10:00:00 UTC, in milliseconds as LobeChat and Chatbox write it
DAY = 86_400_000


def read(path: Path, **kwargs: Any) -> tuple[str, dict[str, Conversation], list]:
    source = open_source(str(path), **kwargs)
    return source.format, {c.id: c for c in source.conversations()}, source.skipped


def turns(conv: Conversation) -> list[tuple[str, str]]:
    return [(m.role, m.content) for m in conv.messages]


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def write(path: Path, value: object) -> Path:
    path.write_text(json.dumps(value))
    return path


# --- LobeChat ------------------------------------------------------------------------------------

GARDEN = "a1f3c9e2-5b7d-4e0f-9c1a-2b3c4d5e6f70"


def lobe_message(mid: str, role: str, content: str, at: int, **more: Any) -> dict[str, Any]:
    return {"id": mid, "role": role, "content": content, "createdAt": at, "updatedAt": at,
            "meta": {}, **more}


def lobechat_config() -> dict[str, Any]:
    """A config-file export ("Export all"), as LobeChat's browser database edition writes it."""
    in_topic = {"sessionId": GARDEN, "topicId": "Tq8mZ1aB"}
    return {
        "exportType": "all",
        "state": {
            "sessions": [{
                "id": GARDEN, "type": "agent", "group": "default", "createdAt": MS - DAY,
                "updatedAt": MS, "meta": {"title": "Garden helper", "avatar": "🌱"},
                "config": {"model": "gpt-4o-mini", "systemRole": "You are a patient gardener."},
            }],
            "sessionGroups": [],
            "topics": [{"id": "Tq8mZ1aB", "title": "Balcony tomatoes", "sessionId": GARDEN,
                        "createdAt": MS, "updatedAt": MS + 9000, "favorite": False}],
            "messages": [
                lobe_message("msg-u1", "user", "My balcony faces north. Can I grow tomatoes?",
                             MS + 1000, **in_topic),
                # an answer that failed: the loading dots and an error
                lobe_message("msg-a0", "assistant", "...", MS + 2000, **in_topic,
                             error={"type": "InvalidProviderAPIKey"}),
                lobe_message("msg-a1", "assistant", "Cherry tomatoes can manage there.",
                             MS + 5000, parentId="msg-u1", model="gpt-4o-mini", **in_topic),
                # before its topic was made: the session's own messages
                lobe_message("msg-s1", "user", "Which compost should I buy?", MS + DAY,
                             sessionId=GARDEN),
                lobe_message("msg-t1", "tool", '{"results": []}', MS + DAY + 1000,
                             sessionId=GARDEN, plugin={"identifier": "search", "apiName": "web"}),
                lobe_message("msg-s2", "assistant", "A peat-free multipurpose compost.",
                             MS + DAY + 2000, sessionId=GARDEN, fromModel="gpt-4o"),
                lobe_message("msg-i1", "user", "Say 'good morning' in Italian.", MS + 3_600_000,
                             sessionId="inbox"),
                lobe_message("msg-i2", "assistant", "Buongiorno.", MS + 3_601_000,
                             sessionId="inbox"),
                lobe_message("msg-sys", "system", "Be brief.", MS + 3_599_000, sessionId="inbox"),
            ],
            "settings": {"defaultAgent": {"config": {"model": "gpt-4o-mini"}}},
        },
        "version": 8,
    }


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat().replace("+00:00", "Z")


def lobechat_data() -> dict[str, Any]:
    """The same chats in the data export of the server and PGlite editions: database rows."""
    rows = []
    for m in copy.deepcopy(lobechat_config()["state"]["messages"]):
        m["createdAt"] = m["updatedAt"] = iso(m["createdAt"])
        m["sessionId"] = None if m["sessionId"] == "inbox" else "ssn_garden"
        m.setdefault("topicId", None)
        m.pop("meta")
        m["model"] = m.pop("fromModel", m.get("model"))
        rows.append(m)
    return {
        "data": {
            "agents": [{"id": "agt_garden", "title": "Garden helper", "model": "gpt-4o-mini"}],
            "agentsToSessions": [{"agentId": "agt_garden", "sessionId": "ssn_garden"}],
            "sessions": [{"id": "ssn_garden", "slug": "garden", "title": None, "type": "agent"}],
            "topics": [{"id": "Tq8mZ1aB", "title": "Balcony tomatoes", "sessionId": "ssn_garden",
                        "createdAt": iso(MS), "updatedAt": iso(MS + 9000)}],
            "threads": [], "messages": rows, "messagePlugins": [], "users": [],
        },
        "mode": "pglite",
        "schemaHash": "9f0e1d2c3b4a",
    }


def test_lobechat_groups_messages_by_topic_then_session_then_inbox(tmp_path: Path) -> None:
    fmt, convs, skipped = read(write(tmp_path / "LobeChat-config-v8.json", lobechat_config()))
    assert fmt == "lobechat" and skipped == []
    assert list(convs) == ["Tq8mZ1aB", GARDEN, "lobechat-inbox"]
    topic, session, inbox = convs.values()
    assert topic.title == "Balcony tomatoes" and topic.created_at == utc(2024, 6, 1, 10)
    assert turns(topic) == [  # the failed answer is gone
        ("user", "My balcony faces north. Can I grow tomatoes?"),
        ("assistant", "Cherry tomatoes can manage there."),
    ]
    assert [m.id for m in topic.messages] == ["msg-u1", "msg-a1"]
    assert topic.messages[1].timestamp == utc(2024, 6, 1, 10, 0, 5)
    assert topic.metadata == {"format": "lobechat", "model": "gpt-4o-mini",
                              "agent": "Garden helper"}
    # no topic: the session's title; the plugin's output is not chat
    assert session.title == "Garden helper"
    assert turns(session) == [("user", "Which compost should I buy?"),
                              ("assistant", "A peat-free multipurpose compost.")]
    assert session.metadata["model"] == "gpt-4o"
    assert inbox.title is None and [m.id for m in inbox.messages] == ["msg-i1", "msg-i2"]


def test_lobechat_data_export_titles_sessions_by_their_agent(tmp_path: Path) -> None:
    fmt, convs, _ = read(write(tmp_path / "2024-06-03-10-00_LobeChat-data.json", lobechat_data()))
    assert fmt == "lobechat"
    assert list(convs) == ["Tq8mZ1aB", "ssn_garden", "lobechat-inbox"]
    assert convs["ssn_garden"].title == "Garden helper"
    assert convs["Tq8mZ1aB"].messages[0].timestamp == utc(2024, 6, 1, 10, 0, 1)
    assert turns(convs["lobechat-inbox"]) == [("user", "Say 'good morning' in Italian."),
                                             ("assistant", "Buongiorno.")]


def test_lobechat_version_1_keeps_messages_and_topics_inside_sessions(tmp_path: Path) -> None:
    chats = {
        "n2Tsl3Dm": {"id": "n2Tsl3Dm", "role": "assistant", "content": "Use a 5 mm drill bit.",
                     "createAt": MS + 4000, "updateAt": MS + 4000, "topicId": "Kx1", "meta": {},
                     "extra": {"fromModel": "gpt-3.5-turbo"}},
        "xPft8Msa": {"id": "xPft8Msa", "role": "user", "content": "Which bit for a wall plug?",
                     "createAt": MS, "updateAt": MS, "topicId": "Kx1", "meta": {}},
    }
    v1 = {"exportType": "sessions", "version": 1, "state": {"sessions": {GARDEN: {
        "id": GARDEN, "type": "agent", "meta": {"title": "DIY"}, "chats": chats,
        "topics": {"Kx1": {"id": "Kx1", "title": "Wall plugs", "createAt": MS}},
        "config": {"model": "gpt-3.5-turbo"}, "createAt": MS, "updateAt": MS,
    }}}}
    _, convs, _ = read(write(tmp_path / "LobeChat-sessions-v1.json", v1))
    conv = convs["Kx1"]
    assert conv.title == "Wall plugs" and conv.metadata["agent"] == "DIY"
    assert [m.id for m in conv.messages] == ["xPft8Msa", "n2Tsl3Dm"]  # in time order


def test_lobechat_agents_export_holds_no_chat(tmp_path: Path) -> None:
    agents = {"exportType": "agents", "version": 8,
              "state": {"sessions": lobechat_config()["state"]["sessions"], "sessionGroups": []}}
    code, _, err = cli("ingest", str(write(tmp_path / "LobeChat-agents-v8.json", agents)))
    assert code == 1
    assert err.strip().endswith("no conversations (no messages: an export of agents or "
                                "settings holds none)")


# --- Chatbox -------------------------------------------------------------------------------------


def box_message(mid: str, role: str, text: str, at: int | None, **more: Any) -> dict[str, Any]:
    message = {"id": mid, "role": role, "contentParts": [{"type": "text", "text": text}], **more}
    if at is not None:
        message["timestamp"] = at
    return message


def chatbox_backup() -> dict[str, Any]:
    """A backup from Settings > Backup (1.9.8 and later): one key per session."""
    system = box_message("m-sys", "system", "You are a helpful assistant.", None)
    return {
        "configVersion": 13,
        "settings": {"language": "en", "providers": {}},
        "myCopilots": [],
        "chat-sessions-list": [
            {"id": "s-lisbon", "name": "Lisbon trip", "type": "chat"},
            {"id": "s-logo", "name": "Logo ideas", "type": "picture"},
        ],
        "session:s-lisbon": {
            "id": "s-lisbon", "name": "Lisbon trip", "type": "chat",
            "settings": {"provider": "openai", "modelId": "gpt-4o"},
            # the context was cleared once: what came before is kept as a thread
            "threads": [{"id": "th-1", "name": "Lisbon trip", "createdAt": MS + 60_000,
                         "messages": [
                             system,
                             box_message("m-1", "user", "Where should I stay in Lisbon?", MS),
                             box_message("m-2", "assistant", "Alfama, for the views.",
                                         MS + 4000, model="gpt-4o"),
                         ]}],
            "messages": [
                box_message("m-sys2", "system", "You are a helpful assistant.", MS + 60_000),
                {"id": "m-3", "role": "user", "timestamp": MS + 70_000, "contentParts": [
                    {"type": "text", "text": "Is this tram the 28?"},
                    {"type": "image", "storageKey": "picture:input-box:1"},
                ]},
                {"id": "m-4", "role": "assistant", "timestamp": MS + 75_000, "model": "o3",
                 "contentParts": [{"type": "reasoning", "text": "The photo shows a yellow..."},
                                  {"type": "text", "text": "Yes, that is the 28."}]},
                box_message("m-5", "assistant", "Summary of the chat so far.", MS + 80_000,
                            isSummary=True),
                box_message("m-6", "assistant", "...", MS + 90_000, generating=True),
            ],
        },
        "session:s-logo": {"id": "s-logo", "name": "Logo ideas", "type": "picture",
                           "messages": [box_message("p-1", "user", "a fox logo", MS)]},
        "__exported_items": ["setting", "conversations", "copilot"],
        "__exported_at": "2024-06-02T09:00:00.000Z",
    }


def chatbox_older() -> dict[str, Any]:
    """An older backup (and Chatbox's config.json): every session whole, text in `content`."""
    return {
        "configVersion": 5,
        "settings": {"openaiKey": "", "model": "gpt-3.5-turbo"},
        "chat-sessions": [{"id": "s-old", "name": "Untitled", "messages": [
            {"id": "o-0", "role": "system", "content": "You are a helpful assistant."},
            {"id": "o-1", "role": "user", "content": "Best time to plant garlic?"},
            {"id": "o-2", "role": "assistant", "content": "In autumn.", "model": "gpt-3.5-turbo"},
        ]}],
    }


def test_chatbox_reads_threads_and_current_messages_without_pictures_or_summaries(
    tmp_path: Path,
) -> None:
    fmt, convs, skipped = read(write(tmp_path / "chatbox-exported-data-2024-6-2.json",
                                     chatbox_backup()))
    assert fmt == "chatbox" and skipped == []
    assert list(convs) == ["s-lisbon"]  # the image-generation session is not chat
    conv = convs["s-lisbon"]
    assert conv.title == "Lisbon trip" and conv.metadata["model"] == "o3"
    assert turns(conv) == [
        ("user", "Where should I stay in Lisbon?"),
        ("assistant", "Alfama, for the views."),
        ("user", "Is this tram the 28?\n[image]"),
        ("assistant", "Yes, that is the 28."),  # no reasoning, summary or placeholder
    ]
    assert [m.id for m in conv.messages] == ["m-1", "m-2", "m-3", "m-4"]
    assert conv.messages[0].timestamp == utc(2024, 6, 1, 10) == conv.created_at


def test_chatbox_older_backup_reads_content_text(tmp_path: Path) -> None:
    fmt, convs, _ = read(write(tmp_path / "config.json", chatbox_older()))
    assert fmt == "chatbox"
    conv = convs["s-old"]
    assert turns(conv) == [("user", "Best time to plant garlic?"), ("assistant", "In autumn.")]
    assert conv.created_at is None and conv.messages[0].timestamp is None  # it kept no times


def test_chatbox_session_in_both_keys_is_read_once(tmp_path: Path) -> None:
    backup = chatbox_backup()
    backup["chat-sessions"] = [backup["session:s-lisbon"]]  # left behind by an upgrade
    _, convs, skipped = read(write(tmp_path / "chatbox.json", backup))
    assert list(convs) == ["s-lisbon"] and skipped == []


# --- BetterChatGPT -------------------------------------------------------------------------------

SETTINGS = {"model": "gpt-4", "max_tokens": 4000, "temperature": 1, "presence_penalty": 0,
            "top_p": 1, "frequency_penalty": 0}


def betterchatgpt_export() -> dict[str, Any]:
    """Export (JSON) from BetterChatGPT's Import / Export menu (version 1)."""
    return {
        "chats": [
            {"id": "5c0ffee0-0000-4a00-8000-000000000001", "title": "Sourdough starter",
             "folder": "f-bake", "titleSet": True, "config": dict(SETTINGS), "messages": [
                 {"role": "system", "content": "You are ChatGPT, a large language model."},
                 {"role": "user", "content": "My starter smells like nail polish remover."},
                 {"role": "assistant", "content": "It is hungry: feed it twice a day."},
                 {"role": "user", "content": "Thanks!"},
                 {"role": "user", "content": ""},
             ]},
            {"id": "5c0ffee0-0000-4a00-8000-000000000002", "title": "New Chat",
             "titleSet": False, "config": dict(SETTINGS),
             "messages": [{"role": "system", "content": "You are ChatGPT."}]},
        ],
        "folders": {"f-bake": {"id": "f-bake", "name": "Baking", "expanded": True, "order": 0}},
        "version": 1,
    }


def test_betterchatgpt_reads_chats_without_their_system_prompt(tmp_path: Path) -> None:
    fmt, convs, skipped = read(write(tmp_path / "2024-06-01.json", betterchatgpt_export()))
    assert fmt == "betterchatgpt"
    conv = convs["5c0ffee0-0000-4a00-8000-000000000001"]
    assert conv.title == "Sourdough starter"
    assert conv.metadata == {"format": "betterchatgpt", "model": "gpt-4", "folder": "Baking"}
    assert turns(conv) == [
        ("user", "My starter smells like nail polish remover."),
        ("assistant", "It is hungry: feed it twice a day."),
        ("user", "Thanks!"),
    ]
    # it stores no times: the conversation is undated, as chatbot-ui's are
    assert conv.created_at is None and {m.timestamp for m in conv.messages} == {None}
    assert [(s.conversation_id, s.reason) for s in skipped] == [
        ("5c0ffee0-0000-4a00-8000-000000000002", "empty conversation"),
    ]


def test_betterchatgpt_older_bare_list_names_folders_itself(tmp_path: Path) -> None:
    chat = copy.deepcopy(betterchatgpt_export()["chats"][0])
    del chat["id"]  # before April 2023 chats had no id
    chat["folder"] = "Baking"
    fmt, convs, _ = read(write(tmp_path / "Sourdough starter.json", [chat]))
    assert fmt == "betterchatgpt"
    [conv] = convs.values()
    assert conv.id.startswith("conv_") and conv.metadata["folder"] == "Baking"
    # the same chat read again gets the same ids
    again = read(tmp_path / "Sourdough starter.json")[1][conv.id]
    assert [m.id for m in again.messages] == [m.id for m in conv.messages]


# --- TypingMind ----------------------------------------------------------------------------------


def typingmind_export() -> dict[str, Any]:
    """Settings > App Data & Storage > Export: `data` holds chats, folders, prompts, ..."""
    def at(seconds: int) -> str:
        return iso(MS + seconds * 1000)

    return {"data": {
        "chats": [{
            "id": "Zk3pQ8", "chatID": "Zk3pQ8", "chatTitle": "Packing for Iceland",
            "model": "gpt-4o", "folderID": "fld-travel", "preview": "What should I pack",
            "createdAt": at(0), "updatedAt": at(600),
            "chatParams": {"temperature": 1, "contextLimit": 10},
            "messages": [
                {"uuid": "u-1", "role": "user", "createdAt": at(10),
                 "content": "What should I pack for Iceland in October?"},
                {"uuid": "a-1", "role": "assistant", "createdAt": at(20), "model": "gpt-4o",
                 "content": [{"type": "thinking", "thinking": "Cold, wet, windy..."},
                             {"type": "text", "text": "Layers, a waterproof shell, wool socks."}]},
                {"uuid": "f-1", "role": "user", "type": "attachment", "createdAt": at(30),
                 "content": [{"type": "tm_text_file", "metadata": {"name": "list.txt"}}]},
                {"uuid": "u-2", "role": "user", "createdAt": at(40), "content": [
                    {"type": "text", "text": "Is this jacket enough?"},
                    {"type": "image_url", "image_url": {"url": "https://example.org/j.png"}},
                ]},
                {"uuid": "mr-1", "type": "tm_multi_responses", "createdAt": at(50), "responses": [
                    {"model": "gpt-4o", "messages": [
                        {"uuid": "a-2", "role": "assistant", "createdAt": at(55),
                         "content": "Only with a fleece under it."}]},
                    {"model": "claude-3-5-sonnet", "messages": [
                        {"uuid": "a-3", "role": "assistant", "createdAt": at(56), "content": "",
                         "tool_calls": [{"id": "t", "function": {"name": "weather"}}]},
                        {"uuid": "t-3", "role": "tool", "createdAt": at(57), "content": "4°C"},
                        {"uuid": "a-4", "role": "assistant", "createdAt": at(58),
                         "content": "At 4°C, add a warm mid-layer."}]},
                ]},
                {"uuid": "c-1", "role": "user", "type": "clear-context", "createdAt": at(60),
                 "content": ""},
            ],
        }],
        "folders": [{"id": "fld-travel", "title": "Travel"}],
        "userPrompts": [], "userCharacters": [], "installedPlugins": [],
    }}


def test_typingmind_reads_answers_of_every_model_without_tools_files_or_thinking(
    tmp_path: Path,
) -> None:
    fmt, convs, skipped = read(write(tmp_path / "typingmind-export.json", typingmind_export()))
    assert fmt == "typingmind" and skipped == []
    conv = convs["Zk3pQ8"]
    assert conv.title == "Packing for Iceland" and conv.created_at == utc(2024, 6, 1, 10)
    assert conv.metadata == {"format": "typingmind", "model": "gpt-4o", "folder": "Travel",
                             "updated_at": "2024-06-01T10:10:00Z"}
    assert turns(conv) == [
        ("user", "What should I pack for Iceland in October?"),
        ("assistant", "Layers, a waterproof shell, wool socks."),
        ("user", "Is this jacket enough?\n[image]"),
        ("assistant", "Only with a fleece under it."),
        ("assistant", "At 4°C, add a warm mid-layer."),
    ]
    assert [m.id for m in conv.messages] == ["u-1", "a-1", "u-2", "a-2", "a-4"]
    assert [m.name for m in conv.messages] == [None, None, None, "gpt-4o", "claude-3-5-sonnet"]
    assert conv.messages[1].timestamp == utc(2024, 6, 1, 10, 0, 20)


# --- every front-end: detection, --format, re-import, bad input ----------------------------------

EXPORTS: dict[str, tuple[str, Callable[[], Any]]] = {
    "lobechat": ("LobeChat-config-v8.json", lobechat_config),
    "lobechat-data": ("2024-06-03_LobeChat-data.json", lobechat_data),
    "chatbox": ("chatbox-exported-data-2024-6-2.json", chatbox_backup),
    "chatbox-older": ("config.json", chatbox_older),
    "betterchatgpt": ("2024-06-01.json", betterchatgpt_export),
    "typingmind": ("typingmind-export.json", typingmind_export),
}
FORMAT_OF = {key: key.split("-")[0] for key in EXPORTS}


@pytest.mark.parametrize("key", sorted(EXPORTS))
def test_each_export_is_detected_and_can_be_forced(tmp_path: Path, key: str) -> None:
    name, build = EXPORTS[key]
    path = write(tmp_path / name, build())
    assert open_source(str(path)).format == FORMAT_OF[key]
    fmt, convs, _ = read(path, format=FORMAT_OF[key])
    assert fmt == FORMAT_OF[key] and convs


def _grown(key: str) -> tuple[Any, Any, int]:
    """An export and a later one of the same account with more messages; how many more."""
    later = EXPORTS[key][1]()
    older = copy.deepcopy(later)
    if key == "lobechat":
        older["state"]["messages"] = [m for m in later["state"]["messages"]
                                      if m["id"] not in ("msg-a1", "msg-i2")]
        return older, later, 2
    if key == "chatbox":
        older["session:s-lisbon"]["messages"] = older["session:s-lisbon"]["messages"][:2]
        return older, later, 1
    if key == "betterchatgpt":
        older["chats"][0]["messages"] = older["chats"][0]["messages"][:2]
        return older, later, 2
    older["data"]["chats"][0]["messages"] = older["data"]["chats"][0]["messages"][:2]
    return older, later, 3


@pytest.mark.parametrize("key", ["lobechat", "chatbox", "betterchatgpt", "typingmind"])
def test_a_grown_export_keeps_conversation_and_message_ids(tmp_path: Path, key: str) -> None:
    older, later, new = _grown(key)
    name = EXPORTS[key][0]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    before = read(write(tmp_path / "a" / name, older))[1]
    grown = read(write(tmp_path / "b" / name, later))[1]
    assert set(before) <= set(grown)
    added = 0
    for conv_id, conv in before.items():
        old_ids = [m.id for m in conv.messages]
        assert set(old_ids) <= {m.id for m in grown[conv_id].messages}
        added += len(grown[conv_id].messages) - len(old_ids)
    added += sum(len(c.messages) for i, c in grown.items() if i not in before)
    assert added == new


def test_reimporting_grown_exports_through_the_cli_stores_only_the_new_messages(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    older, later = tmp_path / "older", tmp_path / "later"
    older.mkdir()
    later.mkdir()
    expected_new = 0
    for key in ("lobechat", "chatbox", "betterchatgpt", "typingmind"):
        before, after, new = _grown(key)
        write(older / EXPORTS[key][0], before)
        write(later / EXPORTS[key][0], after)
        expected_new += new
    code, out, err = cli("--data-dir", str(data), "ingest", str(older), "--json")
    assert code == 0, err
    first = json.loads(out)
    assert first["failed"] == [] and first["conversations"] == 3 + 1 + 1 + 1
    code, out, err = cli("--data-dir", str(data), "ingest", str(later), "--json")
    assert code == 0, err
    assert json.loads(out)["messages"] == expected_new
    code, out, err = cli("--data-dir", str(data), "episodes", "list", "--json")
    assert code == 0, err
    ids = [m for e in json.loads(out) for m in e["message_ids"]]
    assert len(ids) == len(set(ids))
    assert {"msg-a1", "m-4", "a-4"} <= set(ids)


@pytest.mark.parametrize("key", sorted(EXPORTS))
def test_a_truncated_export_is_one_clear_error(tmp_path: Path, key: str) -> None:
    name, build = EXPORTS[key]
    path = tmp_path / name
    path.write_text(json.dumps(build())[:-25])
    code, out, err = cli("--data-dir", str(tmp_path / "data"), "ingest", str(path))
    assert code == 1
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert f"{path}: invalid JSON" in err


@pytest.mark.parametrize(
    ("fmt", "broken", "why"),
    [
        ("lobechat", {"exportType": "all", "version": 8, "state": {"messages": "lost"}},
         "its messages are not a list"),
        ("chatbox", {"chat-sessions": [42, {"id": "s", "name": "x", "messages": "lost"}]},
         "session 1 is not an object, and 1 more skipped"),
        ("betterchatgpt", {"chats": [{"id": "c", "title": "x", "messages": "lost"}],
                           "folders": {}, "version": 1}, "chat 1 has no messages list"),
        ("typingmind", {"data": {"chats": ["lost", {"chatID": "c", "messages": None}]}},
         "chat 1 is not an object, and 1 more skipped"),
    ],
)
def test_a_broken_export_says_why_through_the_cli(
    tmp_path: Path, fmt: str, broken: Any, why: str
) -> None:
    path = write(tmp_path / "export.json", broken)
    assert open_source(str(path)).format == fmt
    code, _, err = cli("--data-dir", str(tmp_path / "data"), "ingest", str(path))
    assert code == 1 and "Traceback" not in err
    assert err.strip() == f"error: {path}: no conversations ({why})"


def test_other_formats_are_detected_as_before() -> None:
    for fixture, fmt in [
        ("core/messages.jsonl", "nemori"),
        ("core/conversations.json", "nemori"),
        ("core/openai_messages.json", "openai"),
        ("chatbotui/chatbot_ui_history.json", "chatbotui"),
        ("openwebui/chat-export-1719000200.json", "openwebui"),
        ("librechat/LibreChat-flat.json", "librechat"),
        ("deepseek/conversations.json", "deepseek"),
        ("lmstudio/1749300000000.conversation.json", "lmstudio"),
    ]:
        assert open_source(str(FIXTURES / fixture)).format == fmt, fixture


def test_plain_chat_lists_are_not_taken_for_a_front_end(tmp_path: Path) -> None:
    chat = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    plain = [{"id": "c1", "title": "Hi", "messages": chat}]  # no BetterChatGPT settings
    assert open_source(str(write(tmp_path / "a.json", plain))).format == "nemori"
    wrapped = {"data": {"items": chat}, "state": {"x": 1}}  # neither `version` nor chats
    with pytest.raises(Exception, match="unknown format"):
        open_source(str(write(tmp_path / "b.json", wrapped)))


def test_format_names_and_aliases() -> None:
    for name in ("lobechat", "chatbox", "betterchatgpt", "typingmind"):
        assert name in FORMATS and format_name(name) == name
    assert format_name("Lobe-Chat") == "lobechat"
    assert format_name("better-chatgpt") == "betterchatgpt"
    assert format_name("typing-mind") == "typingmind"
    assert format_name("chatbox-ai") == "chatbox"


# --- hostile values in real shapes ---------------------------------------------------------------

ANY_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=3),
    max_leaves=12,
)


def value_paths(node: object, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON document where a value sits."""
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out.extend(value_paths(v, (*prefix, k)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(value_paths(v, (*prefix, i)))
    return out


def put(node: Any, path: tuple, value: object) -> Any:
    if not path:
        return value
    node[path[0]] = put(node[path[0]], path[1:], value)
    return node


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(key=st.sampled_from(sorted(EXPORTS)), data=st.data())
def test_exports_with_values_replaced_import_cleanly_or_fail_clearly(
    tmp_path: Path, key: str, data: st.DataObject
) -> None:
    doc = copy.deepcopy(EXPORTS[key][1]())
    for _ in range(data.draw(st.integers(1, 3))):
        where, value = data.draw(st.sampled_from(value_paths(doc))), data.draw(ANY_VALUE)
        doc = put(doc, where, copy.deepcopy(value))
    path = tmp_path / EXPORTS[key][0]
    path.write_text(json.dumps(doc))
    fmt = data.draw(st.sampled_from([None, FORMAT_OF[key]]))
    try:
        convs = list(open_source(str(path), format=fmt).conversations())
    except NemoriError as exc:
        assert str(exc).strip() and "\n" not in str(exc).strip()
        return
    for conv in convs:
        assert conv.messages and all(m.content.strip() and isinstance(m.id, str)
                                     for m in conv.messages)
