"""Recognise an input's format (or take the one asked for) and plan how to read it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

from nemori_cli.errors import UsageError
from nemori_cli.importers import (
    aistudio,
    betterchatgpt,
    chatbotui,
    chatbox,
    chatgpt,
    claude,
    deepseek,
    gemini,
    gemini_html,
    grok,
    jan,
    librechat,
    llm_db,
    lmstudio,
    lobechat,
    markdown,
    nemori,
    openai,
    openwebui,
    sillytavern,
    textgen,
    typingmind,
)
from nemori_cli.importers.base import Sink
from nemori_cli.importers.payload import Payload
from nemori_cli.models import Conversation

_MODULES = (
    nemori, openai, markdown, llm_db, chatgpt, claude, sillytavern, openwebui,
    gemini, aistudio, grok, deepseek, librechat, chatbotui, jan, textgen, lmstudio, lobechat,
    chatbox, betterchatgpt, typingmind,
)
# Most specific first: archive layouts, then the generic message lists. DeepSeek before ChatGPT
# (both have a `mapping`); Grok, LibreChat, chatbot-ui and BetterChatGPT before nemori's own
# `conversations` and `messages` layouts (a BetterChatGPT list of chats is one of them too);
# Jan's message lines before SillyTavern's and the OpenAI-style lines.
_JSON_ORDER = (
    gemini, aistudio, grok, deepseek, chatgpt, claude, librechat, chatbotui, jan, textgen,
    lmstudio, lobechat, chatbox, betterchatgpt, typingmind, openwebui, sillytavern, openai,
    nemori,
)
# Formats whose array items are chats, so the array's length is the number of conversations.
_CONVERSATION_RECORDS = (chatgpt, claude, openwebui, deepseek, librechat)
_BY_NAME = {m.NAME: m for m in _MODULES}
_ALIASES = {
    "json": "nemori", "jsonl": "nemori", "md": "markdown", "claude.ai": "claude",
    "open-webui": "openwebui", "silly-tavern": "sillytavern", "takeout": "gemini",
    "google-takeout": "gemini", "ai-studio": "aistudio", "google-ai-studio": "aistudio",
    "xai": "grok", "chatbot-ui": "chatbotui", "llm-db": "llmdb", "llm": "llmdb",
    "jan.ai": "jan", "text-generation-webui": "textgen", "oobabooga": "textgen",
    "lm-studio": "lmstudio", "lobe-chat": "lobechat", "lobehub": "lobechat",
    "chatbox-ai": "chatbox", "chatboxai": "chatbox", "better-chatgpt": "betterchatgpt",
    "typing-mind": "typingmind",
}
TEXT_EXTENSIONS = (".md", ".markdown", ".txt")
FORMATS: dict[str, str] = {m.NAME: m.DESCRIPTION for m in _MODULES}
UNKNOWN = "unknown format: not a chat archive nemori can read (see `nemori formats`, --format)"

Reader = Callable[[Sink], Iterator[Conversation]]


@dataclass(frozen=True)
class Plan:
    """What an input is, and how to read its conversations."""

    format: str
    read: Reader
    expected: int | None = None  # how many conversations the file holds, when cheap to know


def format_name(name: str | None) -> str | None:
    """Check a --format value; UsageError listing the formats when it names none."""
    if name is None:
        return None
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in FORMATS:
        raise UsageError(f"unknown format {name!r}; choose one of: {', '.join(FORMATS)}")
    return key


def plan(payload: Payload, forced: str | None = None) -> Plan:
    """Decide how to read a (non-zip) input; ImportFormatError when it cannot be read."""
    if forced == llm_db.NAME or payload.is_sqlite():
        return _plan_database(payload, forced)
    payload.check_utf8()
    if payload.body_start() >= len(payload.data):
        raise payload.error("empty file")
    module = _BY_NAME[forced] if forced else None
    # A forced `gemini` reads Takeout's JSON or its HTML page, whichever the file is.
    html_ok = module is None or module is gemini
    wants_json = module.INPUT == "json" if module and not html_ok else payload.looks_like_json()
    if wants_json:
        try:
            doc = payload.json()
        except ValueError as exc:
            if module is not None or payload.ext not in TEXT_EXTENSIONS:
                raise payload.error(f"invalid JSON ({exc})") from None
        else:
            if not doc.head:
                raise payload.error("no conversations")
            if module is None:
                module = next((m for m in _JSON_ORDER if m.matches(doc)), None)
                if module is None:
                    raise payload.error(UNKNOWN)
            counted = module in _CONVERSATION_RECORDS and doc.kind == "array"
            return Plan(module.NAME, partial(module.read, doc), doc.count if counted else None)
    text = payload.text()
    if html_ok and gemini_html.matches(text):
        return Plan(gemini.NAME, partial(gemini_html.read, text))
    if module is gemini:
        raise payload.error("not Google Takeout activity (MyActivity.json or MyActivity.html)")
    if module is None:
        if not markdown.matches(text):
            raise payload.error(UNKNOWN)
        module = markdown
    return Plan(module.NAME, partial(module.read, text))


def _plan_database(payload: Payload, forced: str | None) -> Plan:
    """Plan a SQLite input: llm's log is the one database nemori reads."""
    if forced not in (None, llm_db.NAME):
        raise payload.error(f"a SQLite database, not {forced} (see `nemori formats`)")
    llm_db.check(payload)
    return Plan(llm_db.NAME, partial(llm_db.read, payload))
