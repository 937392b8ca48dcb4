"""Google Takeout, Gemini Apps activity as MyActivity.html: the same records as the JSON."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from html.parser import HTMLParser

from nemori_cli.importers.base import Sink
from nemori_cli.importers.gemini import Activity, conversations, is_gemini, prompt_text
from nemori_cli.importers.htmltext import html_to_text
from nemori_cli.importers.timeparse import try_local_time
from nemori_cli.models import Conversation

NAME = "gemini"
MARKER = 'class="outer-cell'
_WHITESPACE = re.compile(r"[ \t\r\n\f]+")
_CLOCK = re.compile(r"\d{1,2}[:.]\d{2}")
# Tags that begin the reply (inline tags such as <a> or <b> may appear in the prompt line).
_REPLY_START = frozenset({
    "p", "div", "ul", "ol", "pre", "table", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
    "hr", "script", "style", "img", "figure", "section",
})


def matches(text: str) -> bool:
    """Recognise Takeout's activity page: `outer-cell` blocks."""
    return MARKER in text


def read(text: str, sink: Sink) -> Iterator[Conversation]:
    """Yield the Gemini prompts and replies of an activity page as conversations."""
    parser = _CellParser()
    try:
        parser.feed(text)
        parser.close()
    except (AssertionError, ValueError):  # a malformed declaration: keep the cells read so far
        pass
    return conversations((_activity(c) for c in parser.cells), sink)


class _Cell:
    """What one outer-cell holds: its header, the body's pieces, and the caption."""

    def __init__(self) -> None:
        self.header: list[str] = []
        self.lines: list[list[str]] = [[]]  # body text before the reply, split at <br>
        self.reply: list[str] = []  # the reply's HTML, rebuilt
        self.caption: list[str] = []


class _CellParser(HTMLParser):
    """Split an activity page into cells; only the first body cell of each is read."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cells: list[_Cell] = []
        self.stack: list[str] = []  # role of each open <div>: outer, header, body, caption, ""
        self.bodies_seen = 0
        self._replying = False  # inside the body cell, past the prompt and time: the reply

    def _role(self) -> str:
        return next((r for r in reversed(self.stack) if r), "")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        role = self._role()
        if tag == "div":
            classes = (dict(attrs).get("class") or "").split()
            new = ""
            if "outer-cell" in classes:
                self.cells.append(_Cell())
                new, self.bodies_seen, self._replying = "outer", 0, False
            elif self.cells and "header-cell" in classes:
                new = "header"
            elif self.cells and "content-cell" in classes:
                if "mdl-typography--caption" in classes:
                    new = "caption"
                elif self.bodies_seen == 0 and "mdl-typography--text-right" not in classes:
                    new = "body"
                    self.bodies_seen += 1
                    self.stack.append(new)
                    return
                else:
                    new = "other"
            if new or role != "body":
                self.stack.append(new)
                return
        if role != "body":
            return
        cell = self.cells[-1]
        if tag == "br" and not self._replying:
            cell.lines.append([])
        elif tag in _REPLY_START or self._replying:
            self._replying = True
            cell.reply.append(self.get_starttag_text() or f"<{tag}>")
            if tag == "div":
                self.stack.append("")

    def handle_endtag(self, tag: str) -> None:
        if self._role() == "body" and self._replying:
            self.cells[-1].reply.append(f"</{tag}>")
        if tag == "div" and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        role = self._role()
        if not self.cells:
            return
        cell = self.cells[-1]
        if role == "header":
            cell.header.append(data)
        elif role == "caption":
            cell.caption.append(data)
        elif role == "body":
            if self._replying:
                cell.reply.append(html.escape(data, quote=False))
            else:
                cell.lines[-1].append(data)


def _activity(cell: _Cell) -> Activity:
    header = " ".join("".join(cell.header).split())
    # HTML folds runs of whitespace; no-break spaces stay (they end a localized verb)
    lines = [_WHITESPACE.sub(" ", "".join(parts).replace("\u202f", " ")).strip(" ")
             for parts in cell.lines]
    lines = [line for line in lines if line]
    # The time is the last line with a clock time; above it the prompt, below it the reply.
    when, cut = None, len(lines)
    for i in range(len(lines) - 1, -1, -1):
        if len(lines[i]) < 80 and _CLOCK.search(lines[i]):
            when = try_local_time(lines[i].replace("\u00a0", " "))
            if when is not None:
                cut = i
                break
    prompt, prompted = prompt_text("\n".join(lines[:cut]))
    reply = "\n".join([*lines[cut + 1 :], html_to_text("".join(cell.reply))])
    caption = " ".join("".join(cell.caption).split())
    return Activity(
        time=when,
        product=header,
        prompt=prompt,
        reply=reply,
        prompted=prompted,
        gemini=is_gemini(header) if header else is_gemini(caption),
    )
