"""The levers measured on the user/assistant haystack (issue 17), as docs/benchmarks.md shows."""

from __future__ import annotations

LINES: list[str] = []
