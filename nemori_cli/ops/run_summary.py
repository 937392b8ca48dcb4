"""What an ingest or backfill run did, and how it reports being interrupted."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nemori_cli.pipeline.base import Usage


@dataclass
class IngestSummary:
    """What a run did, for the summary table and --json."""

    files: int = 0
    conversations: int = 0
    memories: int = 0  # of the conversations, an assistant's saved memory of the user
    messages: int = 0
    episodes: int = 0
    facts: int = 0
    merged: int = 0
    superseded: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (what, why)
    failed: list[tuple[str, str]] = field(default_factory=list)  # (what, why)
    extraction_failed: int = 0
    llm_episodes: int = 0  # narrative and facts made by the LLM
    fallbacks: dict[str, int] = field(default_factory=dict)  # offline fallbacks, by reason
    segment_fallbacks: int = 0  # episodes whose boundaries were cut offline after an LLM failure
    llm_stopped: str | None = None  # why the LLM was no longer called (circuit breaker)
    llm_error: str | None = None  # the first failure that made an episode fall back offline
    usage: Usage = Usage()
    seconds: float = 0.0
    extracted: int = 0  # episodes whose facts this run extracted (not in to_dict)
    # the facts this run stored or folded a repeat into, in order, each once (a dict as an
    # ordered set); not in to_dict: an archive has many
    fact_ids: dict[str, None] = field(default_factory=dict)

    def count_extraction(self, made_by: str, reason: str | None, error: str | None = None) -> None:
        """Count one extracted episode by who made it (and keep the first LLM failure)."""
        self.extracted += 1
        if made_by == "llm":
            self.llm_episodes += 1
        elif made_by == "offline fallback":
            self.extraction_failed += 1
            if self.llm_error is None and reason != "stopped":
                self.llm_error = error
            key = reason or "error"
            self.fallbacks[key] = self.fallbacks.get(key, 0) + 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "conversations": self.conversations,
            "memories": self.memories,
            "messages": self.messages,
            "episodes": self.episodes,
            "facts": self.facts,
            "merged": self.merged,
            "superseded": self.superseded,
            "skipped": [{"what": w, "why": y} for w, y in self.skipped],
            "failed": [{"what": w, "why": y} for w, y in self.failed],
            "extraction_failed": self.extraction_failed,
            "llm_episodes": self.llm_episodes,
            "fallback_episodes": self.extraction_failed,
            "fallback_reasons": dict(self.fallbacks),
            "segment_fallbacks": self.segment_fallbacks,
            "llm_stopped": self.llm_stopped,
            "llm_error": self.llm_error,
            "llm_calls": self.usage.calls,
            "prompt_tokens": self.usage.prompt_tokens,
            "completion_tokens": self.usage.completion_tokens,
            "cost": self.usage.cost,
            "seconds": round(self.seconds, 3),
        }


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during an ingest or backfill; says what was saved and how to finish."""

    def __init__(self, summary: IngestSummary, command: str) -> None:
        self.summary = summary
        rest = (
            "run the same `nemori ingest` again to import the rest, and `nemori backfill` "
            "to extract facts for episodes still pending"
            if command == "ingest"
            else "run `nemori backfill` again to finish"
        )
        super().__init__(
            f"interrupted: {summary.episodes} episode(s) and {summary.facts} fact(s) from this "
            f"run are saved; {rest}"
        )
