"""Markdown chats whose turns are not marked by role headings: chatgpt-md notes (Obsidian),
LibreChat's markdown export, and AI Chat Exporter's numbered `chat-N` sections."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from nemori_cli.importers.base import Turn, normalize_role
from nemori_cli.importers.mdblocks import outside_fences

# chatgpt-md separates messages with this rule and names the speaker on a `role::` line.
_PLUGIN_RULE = re.compile(r'^\s*<hr class="__chatgpt_plugin">\s*$')
_ROLE_LINE = re.compile(r"^\s*(?:#{1,6}[ \t]+)?role::[ \t]*([A-Za-z]+)(.*)$")
_MODEL = re.compile(r"\(([^()<>]+)\)")
_NOTE_COMMENT = re.compile(r"=begin-chatgpt-md-comment.*?=end-chatgpt-md-comment", re.S)
# LibreChat: `**Sender**` alone on a line after two blank lines; parts that were tool traffic.
_SENDER = re.compile(r"^\*\*([^*\n]{1,80})\*\*[ \t]*$")
_LIBRECHAT_FIELD = re.compile(r"^- (\w+): ?(.*)$")
_TOOL_SENDERS = frozenset({"Tool", "Code Interpreter", "Retrieval", "Image"})
_ERROR_NOTE = "*(This is an error message)*"
_UNFINISHED_NOTE = "*(This is an unfinished message)*"
# AI Chat Exporter: `## chat-1` sections, the prompt quoted, closed by a rule and a [top] link.
_CHAT_HEADING = re.compile(r"^#{2,3} chat-(\d+)[ \t]*$")
_SECTION_END = re.compile(r"^(?:_{3,}|#{1,6} \[top\]\(#table-of-contents\))[ \t]*$")


@dataclass(frozen=True)
class Layout:
    """The turns of a chat in one of these layouts, and the title and id the file gives."""

    turns: list[Turn]
    title: str | None = None
    id: str | None = None


def read_layout(lines: list[str]) -> Layout | None:
    """Read the body of a markdown file in one of these layouts; None when it is in none."""
    readers: tuple[Callable[[list[str]], Layout | None], ...] = (
        obsidian_note, librechat_export, numbered_chats,
    )
    for reader in readers:
        layout = reader(lines)
        if layout is not None and any(t.role == "user" for t in layout.turns):
            return layout
    return None


def obsidian_note(lines: list[str]) -> Layout | None:
    """chatgpt-md: messages between `<hr class="__chatgpt_plugin">` rules, each opened by a
    `### role::assistant` line (the first message, typed into the note, has none: the user's)."""
    cuts = [i for i in outside_fences(lines) if _PLUGIN_RULE.match(lines[i])]
    if not cuts or not any(_ROLE_LINE.match(line) for line in lines):
        return None
    turns = []
    for start, end in zip([-1, *cuts], [*cuts, len(lines)], strict=True):
        text = _NOTE_COMMENT.sub("", "\n".join(lines[start + 1 : end]))
        body = trim(text.split("\n"))
        if not body:
            continue
        role, name = "user", None
        found = _ROLE_LINE.match(body[0])
        if found:
            role = normalize_role(found.group(1)) or "user"
            model = _MODEL.search(found.group(2))
            name = model.group(1).strip() if model else None
            body = trim(body[1:])
        turns.append(Turn(role, "\n".join(body), name if role == "assistant" else None))
    return Layout(turns)


def librechat_export(lines: list[str]) -> Layout | None:
    """LibreChat's "Export" as markdown: a `# Conversation` list of fields, then `## History`
    with each message part under `**User**` or `**<model or agent>**`."""
    if not lines or lines[0].strip() != "# Conversation" or "## History" not in lines:
        return None
    history = lines.index("## History")
    found = (_LIBRECHAT_FIELD.match(line) for line in lines[1:history])
    fields = {m.group(1): m.group(2).strip() for m in found if m}
    if "conversationId" not in fields:
        return None
    starts = [
        i for i in outside_fences(lines, history + 1)
        if _SENDER.match(lines[i]) and (i == history + 1 or not "".join(lines[i - 2 : i]).strip())
    ]
    turns: list[Turn] = []
    joinable = False  # the last turn kept can take the next part of the same answer
    for k, start in enumerate(starts):
        sender = _SENDER.match(lines[start]).group(1).strip()  # type: ignore[union-attr]
        body = trim(lines[start + 1 : starts[k + 1] if k + 1 < len(starts) else len(lines)])
        if sender in _TOOL_SENDERS:
            continue  # a tool call between two parts of one answer
        if body and body[-1].strip() == _ERROR_NOTE:
            joinable = False
            continue
        text = "\n".join(line for line in body if line.strip() != _UNFINISHED_NOTE)
        if sender == "User":
            turns.append(Turn("user", text))
        elif joinable and turns[-1].name == sender:  # parts of one answer
            turns[-1] = Turn("assistant", turns[-1].content + "\n\n" + text, sender)
        else:
            turns.append(Turn("assistant", text, sender))
        joinable = sender != "User"
    return Layout(turns, fields.get("title") or None, fields["conversationId"] or None)


def numbered_chats(lines: list[str]) -> Layout | None:
    """AI Chat Exporter (ChatGPT, Gemini, Claude, Grok, Copilot): one `## chat-N` section per
    exchange, the prompt quoted with `> `, the answer after it."""
    heads = [i for i in outside_fences(lines) if _CHAT_HEADING.match(lines[i])]
    if not heads or _CHAT_HEADING.match(lines[heads[0]]).group(1) != "1":  # type: ignore[union-attr]
        return None
    turns: list[Turn] = []
    for k, start in enumerate(heads):
        section = trim(lines[start + 1 : heads[k + 1] if k + 1 < len(heads) else len(lines)])
        while section and _SECTION_END.match(section[-1]):
            section = trim(section[:-1])
        quoted = 0
        while quoted < len(section) and section[quoted].startswith(">"):
            quoted += 1
        prompt = [re.sub(r"^> ?", "", line) for line in section[:quoted]]
        turns.append(Turn("user", "\n".join(trim(prompt))))
        turns.append(Turn("assistant", "\n".join(trim(section[quoted:]))))
    return Layout(turns)


def trim(lines: list[str]) -> list[str]:
    """Drop blank lines at both ends."""
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]
