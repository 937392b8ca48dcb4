"""Find the elements of a large top-level JSON array without parsing the whole document."""

from __future__ import annotations

import re
from typing import Any

# Everything up to the next bracket, with strings consumed whole (brackets inside them are text).
# Possessive quantifiers keep the regex engine from backtracking on multi-megabyte runs.
_GAP = re.compile(rb'(?:[^"\[\]{}]++|"(?:[^"\\]++|\\.)*+")*+', re.S)
_WS = b" \t\r\n"
_OPEN = frozenset(b"[{")


def array_spans(buf: Any, start: int) -> list[tuple[int, int]]:
    """Return (start, end) byte offsets of each element of the array opening at buf[start].

    Elements must be objects or arrays (conversation records are). Raise ValueError, naming the
    byte offset, when the document is truncated or not shaped like a JSON array.
    """
    size = len(buf)
    pos = start + 1
    depth = 1
    spans: list[tuple[int, int]] = []
    elem_start = -1
    while True:
        end = _GAP.match(buf, pos).end()  # type: ignore[union-attr]  # always matches
        if end >= size:
            raise ValueError(f"unexpected end of data at byte {size} (truncated file?)")
        char = buf[end]
        if depth == 1:
            _check_gap(bytes(buf[pos:end]), pos, comma=bool(spans) and char in _OPEN)
        if char in _OPEN:
            if depth == 1:
                elem_start = end
            depth += 1
            pos = end + 1
            continue
        depth -= 1
        if depth == 1:
            spans.append((elem_start, end + 1))
        elif depth == 0:
            if char != ord("]"):
                raise ValueError(f"unexpected '{chr(char)}' at byte {end}")
            if bytes(buf[end + 1 :]).strip(_WS):
                raise ValueError(f"unexpected data after the array at byte {end + 1}")
            return spans
        pos = end + 1


def _check_gap(gap: bytes, offset: int, *, comma: bool) -> None:
    """Between two elements exactly one comma may stand; elsewhere at the top, only whitespace."""
    if gap.strip(_WS + b","):
        raise ValueError(f"a top-level value that is not an object or array at byte {offset}")
    if gap.count(b",") != int(comma):
        raise ValueError(f"{'missing' if comma else 'unexpected'} ',' at byte {offset}")
