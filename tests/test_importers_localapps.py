"""Local front-ends' chat files: Jan threads, text-generation-webui histories, LM Studio
conversations; and that adding them left the other formats' detection alone."""

from __future__ import annotations

import json
import shutil
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from nemori_cli.errors import ImportFormatError
from nemori_cli.importers import EmptySource, expand_paths, open_source
from nemori_cli.importers.detect import format_name
from nemori_cli.models import Conversation

FIXTURES = Path(__file__).parent / "fixtures" / "importers"
JAN = FIXTURES / "jan" / "threads"
JAN_NEW = JAN / "01JX4K9Q2M7T3V8B5N6C1D0E9F"
JAN_OLD = JAN / "jan_1701432000"
TEXTGEN = FIXTURES / "textgen" / "logs"
AYLA = TEXTGEN / "chat" / "Ayla" / "20250605-15-04-22.json"
INSTRUCT = TEXTGEN / "instruct" / "20250702-09-30-00.json"
SERAPHINA = TEXTGEN / "Seraphina_20230223-120532.json"
LMSTUDIO = FIXTURES / "lmstudio" / "1749300000000.conversation.json"


def read(path: Path | str, **kwargs) -> tuple[str, list[Conversation], list]:
    source = open_source(str(path), **kwargs)
    return source.format, list(source.conversations()), source.skipped


def turns(conv: Conversation) -> list[tuple[str, str]]:
    return [(m.role, m.content) for m in conv.messages]


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def write(path: Path, value: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value))
    return path


def write_lines(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path


# --- Jan -----------------------------------------------------------------------------------------


def test_jan_thread_is_titled_by_thread_json_and_drops_reasoning_tools_and_errors() -> None:
    fmt, [conv], skipped = read(JAN_NEW / "messages.jsonl")
    assert fmt == "jan" and skipped == []
    assert conv.id == "01JX4K9Q2M7T3V8B5N6C1D0E9F"
    assert conv.title == "Sourdough starter rescue"
    assert turns(conv) == [
        ("user", "My sourdough starter smells like nail polish remover. Is it dead?"),
        ("assistant", "Not dead, just hungry: feed it twice a day at 1:1:1 for three days."),
        ("user", "Here is a photo of it now.\n[image]"),
        # the error notice ("something's amiss") is gone; reasoning and tool-call parts too
        ("assistant", "Those bubbles are a good sign: it is alive and rising."),
    ]
    assert conv.messages[0].id == "01JX4K9R0A1B2C3D4E5F6G7H8J"
    assert conv.messages[1].timestamp == utc(2025, 6, 5, 15, 4, 11, 456000)  # milliseconds
    assert conv.metadata["model"] == "Qwen3-8B-Q4_K_M"


def test_jan_older_thread_reads_second_times_and_the_assistants_model() -> None:
    _, [conv], _ = read(JAN_OLD / "messages.jsonl")
    assert conv.id == "jan_1701432000" and conv.title == "Packing list for Lisbon"
    assert [m.timestamp for m in conv.messages] == [
        utc(2023, 12, 1, 12, 1, 0), utc(2023, 12, 1, 12, 1, 11),
    ]
    assert conv.created_at == utc(2023, 12, 1, 12, 0, 0)  # thread.json `created`
    assert conv.metadata["model"] == "mistral-ins-7b-q4"


def test_jan_threads_folder_reads_each_thread_and_passes_over_thread_json() -> None:
    files = expand_paths([str(JAN)])
    assert [Path(f).relative_to(JAN).as_posix() for f in files] == [
        "01JX4K9Q2M7T3V8B5N6C1D0E9F/messages.jsonl", "jan_1701432000/messages.jsonl",
    ]
    assert expand_paths([str(JAN_OLD)]) == [str(JAN_OLD / "messages.jsonl")]


def test_jan_messages_jsonl_alone_keeps_the_thread_id_without_a_title(tmp_path: Path) -> None:
    alone = tmp_path / "messages.jsonl"
    shutil.copy(JAN_OLD / "messages.jsonl", alone)
    _, [conv], _ = read(alone)
    assert conv.id == "jan_1701432000" and conv.title is None
    assert conv.created_at == utc(2023, 12, 1, 12, 1, 0)  # its first message's time
    assert len(conv.messages) == 2


def test_jan_messages_are_put_in_time_order(tmp_path: Path) -> None:
    lines = (JAN_OLD / "messages.jsonl").read_text().splitlines()
    _, [conv], _ = read(write_lines(tmp_path / "messages.jsonl", lines[::-1]))
    assert [m.role for m in conv.messages] == ["user", "assistant"]


def test_jan_malformed_lines_are_skipped_with_a_reason(tmp_path: Path) -> None:
    lines = (JAN_OLD / "messages.jsonl").read_text().splitlines()
    path = write_lines(tmp_path / "messages.jsonl", [lines[0], "42", '{"id": "x"}', lines[1]])
    _, [conv], skipped = read(path)
    assert len(conv.messages) == 2
    assert [s.reason for s in skipped] == [
        "line 2: not a Jan message (thread_id, role, content)",
        "line 3: not a Jan message (thread_id, role, content)",
    ]


def test_jan_thread_json_on_its_own_is_one_clear_error() -> None:
    source = open_source(str(JAN_OLD / "thread.json"))
    assert source.format == "jan"
    with pytest.raises(EmptySource, match="import the thread's folder or its messages.jsonl"):
        list(source.conversations())


def test_jan_threads_zipped_read_every_thread_without_thread_json(tmp_path: Path) -> None:
    archive = tmp_path / "threads.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted(JAN.rglob("*")):
            if path.is_file():
                zf.write(path, path.relative_to(JAN.parent).as_posix())
    fmt, convs, skipped = read(archive)
    assert fmt == "jan" and skipped == []
    assert sorted(c.id for c in convs) == ["01JX4K9Q2M7T3V8B5N6C1D0E9F", "jan_1701432000"]


# --- text-generation-webui -----------------------------------------------------------------------


def test_textgen_keeps_the_greeting_as_the_characters_turn_with_per_message_times() -> None:
    fmt, [conv], skipped = read(AYLA)
    assert fmt == "textgen" and skipped == []
    assert conv.title == "Chat with Ayla"
    assert turns(conv) == [
        ("assistant", "*Ayla looks up from her map.* Oh, a traveller! Where are you headed?"),
        ("user", "To the coast. Is the road past the mill safe if x < 3 carts?"),
        ("assistant", "Safe enough by day. Bandits only watch the ford after dark."),
        ("user", "Thanks, I'll leave at dawn then."),
        ("assistant", "Take the west gate & mind the toll."),
    ]
    assert {m.name for m in conv.messages if m.role == "assistant"} == {"Ayla"}
    assert [m.timestamp for m in conv.messages] == [
        utc(2025, 6, 5, 15, 4), utc(2025, 6, 5, 15, 6), utc(2025, 6, 5, 15, 6),
        utc(2025, 6, 5, 15, 9), utc(2025, 6, 5, 15, 9),
    ]
    assert conv.created_at == utc(2025, 6, 5, 15, 4, 22)  # the file name
    assert "time" not in conv.metadata  # no time was guessed


def test_textgen_reply_drops_reasoning_blocks() -> None:
    _, [conv], _ = read(AYLA)
    assert all("<think>" not in m.content and "road safety" not in m.content
               for m in conv.messages)


def test_textgen_gpt_oss_reply_keeps_only_the_final_channel(tmp_path: Path) -> None:
    reply = ("<|channel|>analysis<|message|>User wants a fact.<|end|><|start|>assistant"
             "<|channel|>final<|message|>Paris is the capital of France.")
    path = write(tmp_path / "20250101-10-00-00.json", {
        "internal": [["Capital of France?", reply]], "visible": [["Capital of France?", reply]],
    })
    _, [conv], _ = read(path)
    assert conv.messages[1].content == "Paris is the capital of France."


def test_textgen_without_timestamps_dates_from_the_file_name_and_says_so() -> None:
    _, [conv], _ = read(INSTRUCT)
    assert conv.title is None  # instruct mode: no character
    assert {m.timestamp for m in conv.messages} == {utc(2025, 7, 2, 9, 30, 0)}
    assert conv.metadata["time"] == "chat file name"
    # a row whose plain text is missing is read from the visible HTML, unescaped
    assert conv.messages[2].content == "And sugar? I'm baking <today>."


def test_textgen_oldest_layout_names_the_character_from_the_file() -> None:
    fmt, [conv], _ = read(SERAPHINA)
    assert fmt == "textgen"
    assert conv.title == "Chat with Seraphina" and conv.metadata["character"] == "Seraphina"
    assert turns(conv)[0] == ("user", "Hello Seraphina, I hurt my ankle in the forest.")
    assert conv.created_at == utc(2023, 2, 23, 12, 5, 32)


def test_textgen_malformed_row_is_skipped_with_a_reason(tmp_path: Path) -> None:
    doc = json.loads(AYLA.read_text())
    doc["internal"].insert(2, "not a pair")
    doc["visible"].insert(2, ["", ""])
    _, [conv], skipped = read(write(tmp_path / "chat" / "Ayla" / AYLA.name, doc))
    assert [s.reason for s in skipped] == ["row 3: not a [user, reply] pair"]
    assert len(conv.messages) == 5


def test_textgen_chat_that_grew_keeps_its_ids(tmp_path: Path) -> None:
    _, [before], _ = read(AYLA)
    doc = json.loads(AYLA.read_text())
    doc["internal"].append(["One more thing.", "Yes?"])
    doc["visible"].append(["One more thing.", "Yes?"])
    _, [after], _ = read(write(tmp_path / "chat" / "Ayla" / AYLA.name, doc))
    assert after.id == before.id
    assert [m.id for m in after.messages][:5] == [m.id for m in before.messages]


# --- LM Studio ------------------------------------------------------------------------------------


def test_lmstudio_reads_the_selected_version_without_thinking_tools_or_debug() -> None:
    fmt, [conv], skipped = read(LMSTUDIO)
    assert fmt == "lmstudio" and skipped == []
    assert conv.id == "lmstudio-1749300000000" and conv.title == "Balcony tomatoes"
    assert turns(conv) == [
        ("user", "My balcony faces north. Can I grow tomatoes?"),
        ("assistant",
         "Cherry tomatoes can manage on a bright north balcony, but expect a small crop."),
        ("user", "Which variety?"),
        ("assistant", "Try 'Sungold' or 'Tumbling Tom'."),
    ]
    everything = "\n".join(m.content for m in conv.messages)
    for dropped in ("little direct sun", "naming technique", "gardening expert", ".jpg"):
        assert dropped not in everything
    assert conv.created_at == utc(2025, 6, 7, 12, 40)
    assert conv.metadata["model"] == "qwen/qwen3-8b"


def test_lmstudio_currently_selected_picks_the_version(tmp_path: Path) -> None:
    doc = json.loads(LMSTUDIO.read_text())
    doc["messages"][1]["currentlySelected"] = 0
    _, [conv], _ = read(write(tmp_path / LMSTUDIO.name, doc))
    assert conv.messages[1].content == "No, a north balcony is too dark for tomatoes."
    doc["messages"][1]["currentlySelected"] = 9  # out of range: the nearest version
    _, [conv], _ = read(write(tmp_path / LMSTUDIO.name, doc))
    assert conv.messages[1].content.startswith("Cherry tomatoes")


def test_lmstudio_malformed_messages_are_skipped_with_a_reason(tmp_path: Path) -> None:
    doc = json.loads(LMSTUDIO.read_text())
    doc["messages"][2:2] = [42, {"currentlySelected": 0, "versions": []}]
    _, [conv], skipped = read(write(tmp_path / LMSTUDIO.name, doc))
    assert [s.reason for s in skipped] == [
        "message 3: no versions to read", "message 4: no versions to read",
    ]
    assert len(conv.messages) == 4


# --- detection -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        (JAN_NEW / "messages.jsonl", "jan"),
        (JAN_OLD / "messages.jsonl", "jan"),
        (AYLA, "textgen"),
        (INSTRUCT, "textgen"),
        (SERAPHINA, "textgen"),
        (LMSTUDIO, "lmstudio"),
    ],
)
def test_each_local_app_file_is_detected_as_its_format(path: Path, fmt: str) -> None:
    assert open_source(str(path)).format == fmt


@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        (FIXTURES / "core" / "messages.jsonl", "nemori"),
        (FIXTURES / "core" / "openai_messages.json", "openai"),
        (FIXTURES / "core" / "openai_finetune.jsonl", "openai"),
        (FIXTURES / "core" / "conversation_object.json", "nemori"),
        (FIXTURES / "sillytavern" / "Seraphina-2024-03-11@16h22m30s.jsonl", "sillytavern"),
        (FIXTURES / "chatbotui" / "chatbot_ui_history.json", "chatbotui"),
        (FIXTURES / "openwebui" / "chat-export-1719000200.json", "openwebui"),
    ],
)
def test_other_formats_are_detected_as_before(path: Path, fmt: str) -> None:
    assert open_source(str(path)).format == fmt


def test_message_lists_without_the_apps_marks_are_not_taken_for_them(tmp_path: Path) -> None:
    chat = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    assert open_source(str(write(tmp_path / "a.json", {"messages": chat}))).format == "nemori"
    lines = [json.dumps({**m, "thread_id": "t1"}) for m in chat]  # text content: not Jan's parts
    assert open_source(str(write_lines(tmp_path / "messages.jsonl", lines))).format != "jan"
    pairs = {"internal": "not pairs", "visible": []}
    with pytest.raises(ImportFormatError, match="unknown format"):
        open_source(str(write(tmp_path / "b.json", pairs)))


def test_format_names_and_aliases() -> None:
    assert format_name("oobabooga") == "textgen"
    assert format_name("text-generation-webui") == "textgen"
    assert format_name("LM-Studio") == "lmstudio"
    assert format_name("jan") == "jan"
    _, [conv], _ = read(LMSTUDIO, format="lmstudio")
    assert len(conv.messages) == 4
