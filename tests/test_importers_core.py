"""Core importers: nemori JSON (every form), OpenAI lists, JSONL, markdown, stdin, bad input."""

from __future__ import annotations

import io
import json
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from nemori_cli.errors import ImportFormatError, UsageError
from nemori_cli.importers import FORMATS, EmptySource, Source, expand_paths, open_source, payload
from nemori_cli.models import Conversation

FIXTURES = Path(__file__).parent / "fixtures" / "importers"
CORE = FIXTURES / "core"


def read_all(path: Path | str, **kwargs) -> tuple[str, list[Conversation], list]:
    source = open_source(str(path), **kwargs)
    convs = list(source.conversations())
    return source.format, convs, source.skipped


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


# --- nemori JSON, every form ---------------------------------------------------------------


def test_message_list_keeps_ids_times_names_and_joins_parts() -> None:
    fmt, [conv], skipped = read_all(CORE / "message_list.json")
    assert fmt == "nemori" and skipped == []
    assert [m.id for m in conv.messages] == ["msg-1", "msg-2", "msg-3"]
    assert [m.role for m in conv.messages] == ["user", "assistant", "user"]
    assert [m.timestamp for m in conv.messages] == [
        utc(2024, 4, 2, 8, 30),  # ISO with Z
        utc(2024, 4, 2, 8, 31),  # epoch seconds
        utc(2024, 4, 2, 8, 31),  # +02:00 offset, converted to UTC
    ]
    assert conv.messages[2].name == "Alex"
    assert conv.messages[2].content == "I love the food markets.\nEspecially on Sundays."
    assert conv.source == str(CORE / "message_list.json")


def test_conversation_object_keeps_id_and_title_and_derives_message_ids() -> None:
    fmt, [conv], _ = read_all(CORE / "conversation_object.json")
    assert fmt == "nemori"
    assert conv.id == "trip-2024"
    assert conv.title == "Hiking in the Alps"
    ids = [m.id for m in conv.messages]
    assert len(set(ids)) == 2 and all(i.startswith("msg_") for i in ids)
    assert [m.id for m in read_all(CORE / "conversation_object.json")[1][0].messages] == ids
    assert conv.timestamp == utc(2024, 5, 1, 10)


def test_conversations_form_skips_empty_and_broken_ones_with_reasons() -> None:
    fmt, convs, skipped = read_all(CORE / "conversations.json")
    assert fmt == "nemori"
    assert [c.title for c in convs] == ["Food preferences", "No id here"]
    assert convs[0].id == "food-1"
    assert [m.id for m in convs[0].messages] == ["f-1", "f-2"]
    assert convs[1].id.startswith("conv_")
    assert len({m.id for m in convs[1].messages}) == 2
    assert [(s.conversation_id, s.reason) for s in skipped] == [
        ("empty-1", "empty conversation"),
        ("broken-1", "message 1 has no role"),
    ]


def test_strict_mode_raises_naming_file_and_conversation() -> None:
    source = open_source(str(CORE / "conversations.json"), strict=True)
    with pytest.raises(ImportFormatError) as err:
        list(source.conversations())
    message = str(err.value)
    assert "conversations.json" in message and "empty-1" in message
    assert "empty conversation" in message


def test_jsonl_with_one_message_a_line_is_one_conversation() -> None:
    fmt, [conv], _ = read_all(CORE / "messages.jsonl")
    assert fmt == "nemori"
    assert [m.role for m in conv.messages] == ["user", "assistant", "user"]
    assert conv.messages[2].content == "I read it last year, I liked it."


def test_jsonl_with_one_conversation_a_line_maps_role_aliases() -> None:
    fmt, convs, _ = read_all(CORE / "conversations.jsonl")
    assert fmt == "nemori"
    assert [c.id for c in convs] == ["line-1", "line-2"]
    assert [m.role for m in convs[1].messages] == ["user", "assistant"]


def test_bad_timestamp_skips_the_conversation(make) -> None:
    doc = [{"role": "user", "content": "hi", "timestamp": "next tuesday-ish at noonish"}]
    source = make(json.dumps(doc).encode(), "bad_time.json")
    with pytest.raises(EmptySource) as err:
        list(source.conversations())
    assert "unreadable timestamp" in str(err.value)


# --- OpenAI-style lists ----------------------------------------------------------------------


def test_openai_list_drops_tool_traffic_marks_images_and_maps_developer() -> None:
    fmt, [conv], _ = read_all(CORE / "openai_messages.json")
    assert fmt == "openai"
    assert [m.role for m in conv.messages] == ["system", "user", "assistant"]
    assert conv.messages[1].content == (
        "Here is a photo of my route.\n[image]\nHow long will it take?"
    )
    assert conv.messages[2].content == "About five hours at a steady pace."
    assert all("hours\": 5" not in m.content for m in conv.messages)


def test_openai_fine_tuning_jsonl_gives_a_conversation_a_line() -> None:
    fmt, convs, _ = read_all(CORE / "openai_finetune.jsonl")
    assert fmt == "openai"
    assert len(convs) == 2
    assert convs[1].messages[0].content == "I prefer running in the morning."


@pytest.mark.parametrize("name", ["ollama_chat.json", "ollama_chat.md"])
def test_a_reasoning_models_thoughts_are_not_what_it_said(make, name: str) -> None:
    thoughts = "<think>\nThe user wants a dinner idea. They said vegetarian.\n</think>\n\n"
    said = [("user", "Dinner idea? I'm vegetarian. What is <think> in a prompt?"),
            ("assistant", thoughts + "A lentil dal with rice."),
            ("user", "and dessert?"),
            ("assistant", "<think>Something light, maybe")]  # cut off while thinking
    if name.endswith(".json"):
        data = json.dumps([{"role": r, "content": t} for r, t in said]).encode()
    else:
        data = "".join(f"## {r.capitalize()}\n\n{t}\n\n" for r, t in said).encode()
    [conv] = list(make(data, name).conversations())
    assert [(m.role, m.content) for m in conv.messages] == [
        ("user", said[0][1]),  # a person writing about the tag is left as written
        ("assistant", "A lentil dal with rice."),
        ("user", "and dessert?"),
    ]


# --- markdown ---------------------------------------------------------------------------------


def test_markdown_headings_transcript() -> None:
    fmt, [conv], _ = read_all(FIXTURES / "markdown" / "headings.md")
    assert fmt == "markdown"
    assert conv.title == "Planning the Alps trip"
    assert [m.role for m in conv.messages] == ["user", "assistant", "user", "assistant"]
    assert conv.messages[0].content == (
        "I'm planning a hut-to-hut hike in the Alps. I usually go in September."
    )


def test_markdown_bold_prefixes_continue_over_lines() -> None:
    fmt, [conv], _ = read_all(FIXTURES / "markdown" / "bold.md")
    assert fmt == "markdown"
    assert [m.role for m in conv.messages] == ["user", "assistant", "user"]
    assert conv.messages[1].content.endswith("- 1 tbsp soy sauce")
    assert conv.messages[2].content == "Perfect, thanks.\nThat looks great."


def test_txt_transcript_and_forced_format_alias() -> None:
    fmt, [conv], _ = read_all(CORE / "transcript.txt")
    assert fmt == "markdown" and len(conv.messages) == 2
    assert open_source(str(CORE / "transcript.txt"), format="md").format == "markdown"


def test_windows_files_with_bom_and_crlf(make) -> None:
    bom = "\ufeff".encode()
    md = make(bom + b"## User\r\n\r\nHello\r\n\r\n## Assistant\r\n\r\nHi\r\n", "w.md")
    assert [m.content for m in next(md.conversations()).messages] == ["Hello", "Hi"]
    doc = make(bom + (CORE / "conversation_object.json").read_bytes(), "w.json")
    assert next(doc.conversations()).id == "trip-2024"
    lines = make(bom + (CORE / "messages.jsonl").read_bytes().replace(b"\n", b"\r\n"), "w.jsonl")
    assert len(next(lines.conversations()).messages) == 3


def test_the_most_used_heading_style_decides_the_turns(make) -> None:
    source = make(b"# Claude\n\n## User\n\nhi\n\n## Assistant\n\nhello\n", "t.md")
    conv = next(source.conversations())
    assert conv.title == "Claude"
    assert [(m.role, m.content) for m in conv.messages] == [("user", "hi"), ("assistant", "hello")]


def test_a_pasted_transcript_of_bare_prefixes_is_read(make) -> None:
    text = (b"Human: I just adopted a beagle called Miso. Tips for the first week?\n"
            b"Assistant: Congratulations! Keep the first days calm.\n"
            b"Set up a quiet corner with a crate.\n\n"
            b"User:\nShe chews everything.\n"
            b"ChatGPT: Give her chew toys.\n")
    conv = next(make(text, "pasted.txt").conversations())
    assert [(m.role, m.content) for m in conv.messages] == [
        ("user", "I just adopted a beagle called Miso. Tips for the first week?"),
        ("assistant", "Congratulations! Keep the first days calm.\n"
                      "Set up a quiet corner with a crate."),
        ("user", "She chews everything."),
        ("assistant", "Give her chew toys."),
    ]


def test_a_note_with_colon_lines_is_no_transcript(make) -> None:
    # "User: admin" names no one asking anybody: without an answer it is not a chat
    with pytest.raises(ImportFormatError):
        make(b"Server notes\nUser: admin\nHost: db-1\nNote: rotate keys\n", "notes.txt")


# --- stdin and directories ------------------------------------------------------------------


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_stdin_json(monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, (CORE / "conversation_object.json").read_bytes())
    source = open_source("-")
    [conv] = list(source.conversations())
    assert source.path == "-" and source.format == "nemori"
    assert conv.id == "trip-2024" and conv.source == "-"


def test_stdin_markdown_and_errors_name_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, (FIXTURES / "markdown" / "headings.md").read_bytes())
    assert open_source("-").format == "markdown"
    _stdin(monkeypatch, b'{"messages": [1, 2')
    with pytest.raises(ImportFormatError, match=r"^<stdin>: invalid JSON"):
        open_source("-")


def test_expand_paths_walks_directories_in_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.md").write_text("x")
    (tmp_path / "b" / "a.jsonl").write_text("x")
    (tmp_path / "a.json").write_text("x")
    (tmp_path / "c.zip").write_bytes(b"x")
    (tmp_path / "notes.markdown").write_text("x")
    (tmp_path / "log.txt").write_text("x")
    for skipped in ("photo.png", "chat.html", ".hidden.json", "user.json"):
        (tmp_path / skipped).write_text("x")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config.json").write_text("x")
    explicit = tmp_path / "photo.png"
    got = expand_paths([str(tmp_path), "-", str(explicit), str(tmp_path / "a.json")])
    rel = [p if p == "-" else str(Path(p).relative_to(tmp_path)) for p in got]
    assert rel == [
        "a.json", "b/a.jsonl", "b/z.md", "c.zip", "log.txt", "notes.markdown", "-", "photo.png",
    ]


def test_expand_paths_missing_path(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.json")
    with pytest.raises(ImportFormatError, match=r"nope\.json: no such file or directory$"):
        expand_paths([str(CORE), missing])


# --- bad input --------------------------------------------------------------------------------


@pytest.fixture
def make(tmp_path: Path):
    """Write bytes to a file in a temp dir and open it as a source."""

    def make(data: bytes, name: str, **kwargs) -> Source:
        path = tmp_path / name
        path.write_bytes(data)
        return open_source(str(path), **kwargs)

    return make


@pytest.mark.parametrize(
    ("name", "data", "problem"),
    [
        ("broken.json", b'[{"role": "user", "content": "hi"', "invalid JSON"),
        ("broken.jsonl", b'{"role": "user", "content": "hi"}\n{"role": \n', "invalid JSON (line 2"),
        ("latin1.md", "## User\n\nJ'ai mangé une crêpe\n".encode("latin-1"), "not UTF-8 text"),
        ("utf16.json", '[{"role": "user"}]'.encode("utf-16"), "looks like UTF-16"),
        ("settings.json", b'{"theme": "dark", "fontSize": 14}', "unknown format"),
        ("notes.md", b"# Groceries\n\n- milk\n- eggs\n", "unknown format"),
        ("empty.json", b"  \n", "empty file"),
        ("nothing.json", b"[]", "no conversations"),
    ],
)
def test_bad_input_is_one_line_naming_the_file(
    make, tmp_path: Path, name: str, data: bytes, problem: str
) -> None:
    with pytest.raises(ImportFormatError) as err:
        make(data, name)
    message = str(err.value)
    assert message.startswith(f"{tmp_path / name}: ")
    assert problem in message and "\n" not in message


def test_missing_file_and_directory() -> None:
    with pytest.raises(ImportFormatError, match=r"missing\.json: no such file or directory"):
        open_source(str(CORE / "missing.json"))
    with pytest.raises(ImportFormatError, match="is a directory"):
        open_source(str(CORE))


def test_only_empty_conversations_is_an_error_when_read(make) -> None:
    doc = {"id": "c1", "messages": [{"role": "user", "content": ""}]}
    source = make(json.dumps(doc).encode(), "blank.json")
    with pytest.raises(EmptySource, match=r"blank\.json: no conversations \(empty conversation\)"):
        list(source.conversations())
    assert [(s.conversation_id, s.reason) for s in source.skipped] == [("c1", "empty conversation")]


def test_unknown_format_name_is_a_usage_error_listing_formats() -> None:
    with pytest.raises(UsageError) as err:
        open_source(str(CORE / "message_list.json"), format="whatsapp")
    assert all(name in str(err.value) for name in FORMATS)


def test_forcing_the_wrong_format_reports_why_nothing_was_read() -> None:
    source = open_source(str(CORE / "conversation_object.json"), format="chatgpt")
    with pytest.raises(EmptySource, match="no message tree"):
        list(source.conversations())


# --- ids and hashes ------------------------------------------------------------------------


def test_ids_are_deterministic_and_independent_of_the_file(tmp_path: Path) -> None:
    doc = json.loads((CORE / "conversations.json").read_text())["conversations"][1]
    (tmp_path / "one.json").write_text(json.dumps(doc))
    (tmp_path / "two.jsonl").write_text(json.dumps(doc, indent=None) + "\n")
    (tmp_path / "three.json").write_text(json.dumps(doc["messages"], indent=4))
    ids = {}
    for name in ("one.json", "two.jsonl", "three.json"):
        [conv] = list(open_source(str(tmp_path / name)).conversations())
        ids[name] = (conv.id, [m.id for m in conv.messages])
    # one.json and two.jsonl hold the same conversation; three.json lacks its title
    assert ids["one.json"] == ids["two.jsonl"]
    assert ids["three.json"][0] != ids["one.json"][0]
    again = next(open_source(str(tmp_path / "one.json")).conversations())
    assert (again.id, [m.id for m in again.messages]) == ids["one.json"]
    changed = dict(doc, messages=[*doc["messages"], {"role": "user", "content": "And Paris."}])
    (tmp_path / "four.json").write_text(json.dumps(changed))
    grown = next(open_source(str(tmp_path / "four.json")).conversations())
    # the same conversation, grown by one message: earlier ids kept (issue 16 item 5)
    assert grown.id == ids["one.json"][0]
    assert [m.id for m in grown.messages][:-1] == ids["one.json"][1]
    assert grown.messages[-1].id not in ids["one.json"][1]


def test_sha256_is_of_the_raw_bytes(tmp_path: Path) -> None:
    a = tmp_path / "a.json"
    shutil.copy(CORE / "message_list.json", a)
    first = open_source(str(a)).sha256
    assert first == open_source(str(CORE / "message_list.json")).sha256
    a.write_bytes(a.read_bytes() + b"\n")
    assert open_source(str(a)).sha256 != first


# --- large files are streamed -------------------------------------------------------------


def test_large_arrays_stream_with_the_same_result(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = read_all(CORE / "conversations.json")
    path = FIXTURES / "chatgpt" / "conversations.json"
    whole_chatgpt = read_all(path)
    monkeypatch.setattr(payload, "BIG", 64)
    assert read_all(CORE / "conversations.json") == whole
    streamed = open_source(str(path))
    assert (streamed.format, list(streamed.conversations()), streamed.skipped) == whole_chatgpt
    assert streamed.expected == 7


def test_large_array_truncated_or_with_a_bad_record(make, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(payload, "BIG", 16)
    good = {"id": "ok", "messages": [{"role": "user", "content": "fine"}]}
    text = json.dumps([good, good])
    with pytest.raises(ImportFormatError, match="truncated"):
        make(text[:-5].encode(), "cut.json")
    bad = "[" + json.dumps(good) + ', {"id": "bad", "messages": [tru]}]'
    source = make(bad.encode(), "bad.json")
    assert [c.id for c in source.conversations()] == ["ok"]
    assert source.skipped[0].reason.startswith("record 2: invalid JSON")
