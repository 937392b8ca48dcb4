"""Markdown pieces that are not turns: YAML front matter, fenced code blocks, and the times
and notes exporters add around a message."""

from __future__ import annotations

import re
from datetime import datetime

from nemori_cli.importers.timeparse import try_time

_KEY = re.compile(r"^([A-Za-z_][\w\- ]*?)\s*:(?:\s+(.*?))?\s*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_TIME_TAG = re.compile(r'^\s*<time datetime="([^"]+)"[^>]*>[^<]*</time>\s*$')
_DATE_HEADING = re.compile(
    r"^#{1,6}[ \t]*\U0001f4c5[ \t]*(\d{4}-\d{2}-\d{2})[ \t]*\|[ \t]*(\d{1,2}:\d{2})?\s*$"
)
_REASONING = re.compile(
    r"\A\s*<details>\s*<summary>[^<\n]*(?:Thought for|Thinking|Reasoning)[^<\n]*</summary>"
    r".*?</details>\s*",
    re.S | re.I,
)
_SOURCE_ITEM = re.compile(r"^- \[.*\]\(<[^>\s]*>\)\s*$")
_SOURCES_LABEL = re.compile(r"^\*\*[^*\n]{1,40}:\*\*\s*$")


class Fences:
    """Follow fenced code blocks line by line, so their contents are never taken for markup."""

    def __init__(self) -> None:
        self.marker: str | None = None
        self.opened_at = -1

    def inside(self, line: str, index: int) -> bool:
        """Tell whether this line is code (a fence line or inside a fence), and step past it."""
        m = _FENCE.match(line)
        if self.marker is None:
            if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
                self.marker, self.opened_at = m.group(1), index
                return True
            return False
        if m and m.group(1)[0] == self.marker[0] and len(m.group(1)) >= len(self.marker):
            self.marker = None if not m.group(2).strip() else self.marker
        return True

    def reset(self) -> None:
        """Forget an open fence."""
        self.marker, self.opened_at = None, -1


def outside_fences(lines: list[str], start: int = 0) -> list[int]:
    """The indexes of the lines from `start` that are not code; a fence that never closes
    was a stray ``` in a message, and the lines after it are read as text."""
    found: list[int] = []
    fences = Fences()
    index = start
    while index < len(lines):
        if not fences.inside(lines[index], index):
            found.append(index)
        index += 1
        if index == len(lines) and fences.marker is not None:
            index = fences.opened_at + 1
            fences.reset()
            found = [i for i in found if i < index]
    return found


def split_front_matter(lines: list[str]) -> tuple[dict[str, str], int]:
    """Return the front matter's scalar fields and the index of the first body line.

    Only top-level `key: value` scalars are read (quoted or plain); lists, nested maps and
    block scalars are passed over: exporters put titles and dates there, nothing deeper.
    """
    if not lines or lines[0].strip() != "---":
        return {}, 0
    for end in range(1, len(lines)):
        if lines[end].strip() in ("---", "..."):
            break
    else:
        return {}, 0  # no closing line: a horizontal rule, not front matter
    fields: dict[str, str] = {}
    for line in lines[1:end]:
        if not line or line[0] in " \t-#":
            continue
        m = _KEY.match(line)
        if m and m.group(2):
            value = _scalar(m.group(2))
            if value:
                fields[m.group(1).strip().lower().replace("-", "_").replace(" ", "_")] = value
    return fields, end + 1


def _scalar(raw: str) -> str:
    value = raw.strip()
    if value[:1] in ("|", ">", "[", "{", "&", "*", "!"):
        return ""  # block scalars, flow collections, anchors and tags: not ours to read
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        inner = value[1:-1]
        return inner.replace("''", "'") if value[0] == "'" else _unescape(inner)
    return value.split(" #", 1)[0].strip()  # a plain scalar ends at a comment


def _unescape(value: str) -> str:
    return re.sub(r'\\(["\\/nt])', lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), value)


def own_time(lines: list[str]) -> tuple[datetime | None, list[str]]:
    """Take a message's time line from the top of its body: ChatGPT Exporter's
    `<time datetime="...">` and AI Chat Exporter's `##### 📅 2026-03-19 | 23:03`."""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return None, lines
    found = _TIME_TAG.match(lines[first]) or _DATE_HEADING.match(lines[first])
    when = try_time(" ".join(g for g in found.groups() if g)) if found else None
    if when is None:
        return None, lines
    return when, lines[:first] + lines[first + 1 :]


def drop_exporter_notes(text: str) -> str:
    """Remove what exporters add to an answer: a leading folded reasoning block
    (`<details><summary>Thought for 6 seconds</summary>`) and ChatGPT Exporter's closing
    `**Sources:**` list of `- [site](<url>)` links."""
    text = _REASONING.sub("", text, count=1)
    lines = text.rstrip().split("\n")
    end = len(lines)
    while end > 0 and _SOURCE_ITEM.match(lines[end - 1]):
        end -= 1
    head = end
    while head > 0 and not lines[head - 1].strip():
        head -= 1
    if end < len(lines) and head > 0 and _SOURCES_LABEL.match(lines[head - 1]):
        return "\n".join(lines[: head - 1]).rstrip()
    return text
