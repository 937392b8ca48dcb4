"""Prompts, each beside the pydantic model its answer must fit; the .md files hold the text."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from importlib.resources import files

from nemori_cli.models import Message

ChatMessage = dict[str, str]
_TAGS = re.compile(r"<\s*(/?)\s*(conversation|known_facts|memories)", re.IGNORECASE)


@cache
def load(name: str) -> str:
    """Return the text of prompts/<name>.md."""
    return files(__package__).joinpath(f"{name}.md").read_text("utf-8").strip()


def system_prompt(name: str) -> str:
    """Return a task prompt followed by the rules that keep the chat text as data."""
    return f"{load(name)}\n\n{load('data_rules')}"


def defang(text: str) -> str:
    """Neutralise anything in chat text that would look like our own delimiters."""
    return _TAGS.sub(lambda m: f"‹{m.group(1)}{m.group(2)}", text)


def message_line(number: int, message: Message, max_chars: int) -> str:
    """Format one message as `[n] time speaker: text`, on one line, clipped to max_chars."""
    text = " ".join(message.content.split())
    if len(text) > max_chars:
        text = text[: max_chars - 3] + "..."
    when = f"{message.timestamp:%Y-%m-%d (%a) %H:%M} " if message.timestamp else ""
    speaker = " ".join(message.speaker.split())[:60]
    return defang(f"[{number}] {when}{speaker}: {text}")


def conversation_block(messages: Sequence[Message], max_chars: int) -> str:
    """Number the messages from 1 and wrap them in <conversation> tags."""
    lines = [message_line(i, m, max_chars) for i, m in enumerate(messages, 1)]
    return "<conversation>\n" + "\n".join(lines) + "\n</conversation>"


def speakers(messages: Sequence[Message]) -> str:
    """List who speaks in these messages, in order of appearance."""
    names = dict.fromkeys(" ".join(m.speaker.split())[:60] for m in messages)
    return defang(", ".join(names))
