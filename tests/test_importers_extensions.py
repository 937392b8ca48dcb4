"""Chats saved by browser extensions, userscripts and note plugins rather than official exports."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from nemori_cli.errors import ImportFormatError
from nemori_cli.importers import open_source
from nemori_cli.models import Conversation

MARKDOWN = Path(__file__).parent / "fixtures" / "importers" / "markdown"


def read(path: Path | str) -> tuple[str, list[Conversation]]:
    source = open_source(str(path))
    return source.format, list(source.conversations())


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def said(conv: Conversation) -> list[tuple[str, str]]:
    return [(m.role, m.content) for m in conv.messages]


def test_chatgpt_exporter_times_reasoning_sources_and_images() -> None:
    fmt, [conv] = read(MARKDOWN / "chatgpt_exporter_extras.md")
    assert fmt == "markdown" and conv.title == "Sourdough schedule"
    assert conv.created_at == utc(2024, 11, 2, 7, 15)
    assert said(conv) == [
        ("user", "I feed my starter at 8am. When should I bake?"),
        ("assistant", 'Mix the dough around noon, when the starter peaks.\n\n```python\n'
                      'print("peak")\n```'),
        ("user", "Draw my loaf, please."),  # the generated image is the tool's, not the user's
        ("assistant", "Here is your loaf, with an open crumb."),
    ]
    assert [m.timestamp for m in conv.messages] == [
        utc(2024, 11, 2, 7, 15, 10), utc(2024, 11, 2, 7, 15, 40),
        utc(2024, 11, 2, 7, 20), utc(2024, 11, 2, 7, 20, 40),
    ]


def test_claude_exporter_markdown_drops_banner_and_reasoning() -> None:
    _, [conv] = read(MARKDOWN / "claude_exporter.md")
    assert conv.title == "Packing for Lisbon"
    assert said(conv) == [
        ("user", "I'm going to Lisbon in May. What should I pack?"),
        ("assistant", "Light layers and comfortable shoes: the hills are steep."),
    ]


def test_librechat_markdown_export() -> None:
    fmt, [conv] = read(MARKDOWN / "librechat.md")
    assert fmt == "markdown"
    assert conv.id == "3f0c1a2b-0000-4c00-9000-00000000c0de"
    assert conv.title == "Balcony tomatoes"
    assert said(conv) == [
        ("user", "My balcony faces north. Can I grow tomatoes?"),
        ("assistant", "North-facing balconies get little sun; try cherry tomatoes.\n\n"
                      "**Varieties**\n- Tumbling Tom\n- Balconi Red"),
        ("user", "Which pot size?"),  # the error notice and the retried question: once each
        ("user", "Which pot size?"),
        ("assistant", "At least 20 litres.\n\nA 30-litre pot is safer in summer."),
    ]
    assert {m.name for m in conv.messages if m.role == "assistant"} == {"GPT-4o"}


def test_a_stray_fence_in_a_message_does_not_swallow_the_turns_after_it(tmp_path: Path) -> None:
    text = (MARKDOWN / "librechat.md").read_text()
    stray = text.replace("Can I grow tomatoes?", "Can I grow tomatoes? I typed ``` by mistake")
    stray = stray.replace("My balcony", "```\nMy balcony", 1)  # opens a fence, never closed
    path = tmp_path / "librechat-stray.md"
    path.write_text(stray)
    _, [conv] = read(path)
    assert [m.role for m in conv.messages] == ["user", "assistant", "user", "user", "assistant"]


def test_chatgpt_md_obsidian_note() -> None:
    fmt, [conv] = read(MARKDOWN / "chatgpt_md_note.md")
    assert fmt == "markdown" and conv.metadata["model"] == "gpt-4.1-mini"
    assert said(conv) == [
        ("user", "I started running again after my knee surgery. How often should I run?"),
        ("assistant", "Start with three short runs a week."),
        ("user", "Thanks, I'll do Monday, Wednesday, Friday."),
        ("assistant", "Sounds good."),
    ]
    assert conv.messages[1].name == "gpt-4.1-mini"


def test_ai_chat_exporter_numbered_chats_with_quoted_prompts() -> None:
    fmt, [conv] = read(MARKDOWN / "ai_chat_exporter.md")
    assert fmt == "markdown" and conv.title == "Moving to Porto"
    assert said(conv) == [
        ("user", "I'm moving to Porto in June. Which neighbourhood?"),
        ("assistant", "Bonfim is quiet and close to the centre."),
        ("user", "I picked Bonfim.\nIt's near my office."),
        ("assistant", "Great choice."),
    ]
    assert conv.messages[1].timestamp == utc(2026, 3, 19, 23, 3)  # the 📅 line, zone unknown


@pytest.mark.parametrize("text", [
    "# Project\n\n**Note**\n\nSome notes.\n\n> A quote.\n\n---\n\n## Installation\n",
    "# Conversation\n\nWe talked.\n\n## History\n\n\n**User**\nhi\n",  # no LibreChat fields
    "# Log\n\n## chat-2\n\n> a quoted line\n\nanswer\n",  # sections not numbered from 1
    "# Rules\n\n<hr>\n\nrole:: a dataview field, not a speaker\n",
])
def test_ordinary_markdown_is_still_refused(tmp_path: Path, text: str) -> None:
    path = tmp_path / "notes.md"
    path.write_text(text)
    with pytest.raises(ImportFormatError, match="unknown format"):
        open_source(str(path))


def test_a_message_list_naming_its_author_instead_of_a_role(tmp_path: Path) -> None:
    # AI Chat Exporter's JSON writes `author` ("user" / "ai"); others `sender` or {role}
    path = tmp_path / "gemini-exporter-chat.json"
    path.write_text(json.dumps({"title": "Trip ideas", "messages": [
        {"id": "m1", "author": "user", "content": "Where should I go in May?"},
        {"id": "m2", "author": "ai", "content": "Try the Azores: mild and green."},
        {"id": "m3", "sender": "human", "content": "And in June?"},
        {"id": "m4", "author": {"role": "assistant"}, "content": "Norway's fjords."},
    ]}))
    fmt, [conv] = read(path)
    assert fmt == "nemori" and conv.title == "Trip ideas"
    assert [m.role for m in conv.messages] == ["user", "assistant", "user", "assistant"]
