"""Markdown pieces that are not turns: YAML front matter and fenced code blocks."""

from __future__ import annotations

import re

_KEY = re.compile(r"^([A-Za-z_][\w\- ]*?)\s*:(?:\s+(.*?))?\s*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


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
