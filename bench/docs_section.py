"""A benchmark's outputs: its results JSON, and its own marked section of a markdown file."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def save_results(results: dict[str, Any], out: Path | str, table: str) -> None:
    """Write a run's results as JSON to out and print its table (the path goes to stderr)."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(table)
    print(f"results: {out}", file=sys.stderr)


def replace_section(path: Path, start: str, end: str, body: str) -> None:
    """Replace the text from start to end (markers included; body brings its own) with body."""
    text = path.read_text()
    if start not in text or end not in text:
        text = text.rstrip() + f"\n\n{start}\n{end}\n"
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    path.write_text(before + body + after)
