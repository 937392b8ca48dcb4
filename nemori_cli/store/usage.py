"""LLM spend outside extraction (answers to questions): users/<id>/usage.jsonl, append-only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nemori_cli.models import to_iso, utcnow
from nemori_cli.store.jsonl import JsonlFile

COUNTERS = ("calls", "prompt_tokens", "completion_tokens", "cost")


class UsageLog:
    """One line per LLM-backed operation: when, which, the model, calls, tokens and cost.

    Only counts are kept, never the question or the answer.
    """

    def __init__(self, folder: Path, *, lock_timeout: float) -> None:
        self.file = JsonlFile(Path(folder) / "usage.jsonl", lock_timeout=lock_timeout)

    def record(self, operation: str, model: str | None, counts: dict[str, Any]) -> None:
        """Append one operation's spend (nothing when it made no call)."""
        if not counts.get("calls"):
            return
        line = {"at": to_iso(utcnow()), "operation": operation, "model": model}
        line.update({k: counts.get(k, 0) for k in COUNTERS})
        self.file.append([line])

    def summary(self, operation: str, *, count_as: str = "operations") -> dict[str, Any]:
        """Sum one operation's spend: {count_as: how many, "calls", ..., "cost"}."""
        total: dict[str, Any] = {count_as: 0, **dict.fromkeys(COUNTERS, 0)}
        for line in self.file.read():
            if line.get("operation") != operation:
                continue
            total[count_as] += 1
            for key in COUNTERS:
                value = line.get(key) or 0
                total[key] += value if isinstance(value, int | float) else 0
        return total
