"""The evidence an answering model is shown: ranked hits packed within a word budget.

`nemori ask` and the LoCoMo benchmarks (evidence recall at N words, QA accuracy) pack with
these same two functions, so a budget means the same thing everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

H = TypeVar("H")


def hit_text(hit: Any) -> str:
    """What an answering model is shown of a hit: title and content."""
    return f"{hit.title}\n{hit.content}" if getattr(hit, "title", None) else hit.content


def take_budget(hits: Sequence[H], budget: int) -> list[H]:
    """Hits in rank order while the running word count stays within budget."""
    taken: list[H] = []
    used = 0
    for hit in hits:
        n = len(hit_text(hit).split())
        if used + n > budget:
            break
        taken.append(hit)
        used += n
    return taken
