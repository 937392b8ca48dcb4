"""Turn an HTML fragment into plain text: markup, scripts and styles go, line breaks stay."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Elements whose content is never text a person reads.
_DROPPED = frozenset({"script", "style", "head", "title", "template", "noscript", "svg", "math"})
# Elements that start a new line (blocks), and the few that end one (<br>).
_BLOCKS = frozenset({
    "p", "div", "section", "article", "header", "footer", "blockquote", "pre", "table", "tr",
    "ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "figure",
    "figcaption", "details", "summary",
})
_CELLS = frozenset({"td", "th"})
_SPACES = re.compile(r"[ \t\f\v\r\n]+")
_BLANK_LINES = re.compile(r"\n{3,}")


class _TextParser(HTMLParser):
    """Collect the text of a document, with newlines where blocks begin and end."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.hidden = 0  # depth inside dropped elements
        self.pre = 0  # depth inside <pre>: whitespace is kept as written

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED:
            self.hidden += 1
        elif tag == "br":
            self.out.append("\n")
        elif tag == "li":
            self.out.append("\n- ")
        elif tag in _BLOCKS:
            self.out.append("\n\n" if tag == "p" else "\n")
            self.pre += tag == "pre"
        elif tag in _CELLS:
            self.out.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED:
            return  # <script/> opens nothing
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED:
            self.hidden = max(0, self.hidden - 1)
        elif tag in _BLOCKS:
            self.out.append("\n\n" if tag == "p" else "\n")
            if tag == "pre":
                self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if self.pre:
            self.out.append(data.replace("\n", "\x00"))  # protected from whitespace folding
        else:
            self.out.append(_SPACES.sub(" ", data))


def html_to_text(html: str) -> str:
    """Return the visible text of an HTML fragment, one paragraph or list item a line."""
    parser = _TextParser()
    try:
        parser.feed(html)
        parser.close()
    except (AssertionError, ValueError):  # html.parser gives up on a few malformed declarations
        pass
    lines = [line.strip() for line in "".join(parser.out).split("\n")]
    text = _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()
    return text.replace("\x00", "\n")
