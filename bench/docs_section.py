"""Replace one marked section of a markdown file (each benchmark owns its own section)."""

from __future__ import annotations

from pathlib import Path


def replace_section(path: Path, start: str, end: str, body: str) -> None:
    """Replace the text from start to end (markers included; body brings its own) with body."""
    text = path.read_text()
    if start not in text or end not in text:
        text = text.rstrip() + f"\n\n{start}\n{end}\n"
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    path.write_text(before + body + after)
