"""The LLM extractor: model-made episode boundaries, narratives and facts, offline as a fallback."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from nemori_cli.config import Settings
from nemori_cli.models import Conversation, Episode, Fact, Message, utcnow
from nemori_cli.pipeline.base import Extraction, Usage
from nemori_cli.pipeline.facts import fact_id
from nemori_cli.pipeline.llm import LLMClient, LLMError
from nemori_cli.pipeline.llm_context import chars_for_messages, messages_per_window
from nemori_cli.pipeline.llm_segment import (
    WINDOW,
    Span,
    segment_windows,
    spans_from_starts,
    spans_of,
)
from nemori_cli.pipeline.offline import OfflineExtractor
from nemori_cli.pipeline.prompts import system_prompt
from nemori_cli.pipeline.prompts.episode import MAX_CHARS as EPISODE_CHARS
from nemori_cli.pipeline.prompts.episode import EpisodeAnswer, episode_messages
from nemori_cli.pipeline.prompts.prediction import PredictionAnswer, prediction_messages
from nemori_cli.pipeline.prompts.segmentation import MAX_CHARS as LINE_CHARS
from nemori_cli.pipeline.prompts.segmentation import bounded_segmentation, segmentation_messages

MIN_SEGMENT_MESSAGES = 4  # shorter conversations are one episode without asking
CONFIDENCE = 0.9
SEGMENT_TOKENS_PER_MESSAGE = 3  # a start is a number and a comma, for a third of the messages
USAGE_KEYS = ("calls", "prompt_tokens", "completion_tokens", "cost")


class LLMExtractor:
    """Extract episodes and facts with a model through litellm."""

    def __init__(self, settings: Settings, embed: Callable[..., Any],
                 client: LLMClient | None = None) -> None:
        self.settings = settings
        self.embed = embed
        self.client = client or LLMClient(settings)
        self.name = f"llm:{self.client.model}"
        self._offline: OfflineExtractor | None = None
        self._lock = threading.Lock()
        self._usage = Usage()
        self._segment_usage = Usage()
        self._carried: dict[tuple[str, ...], dict[str, Any]] = {}

    @property
    def offline(self) -> OfflineExtractor:
        """The offline extractor this one falls back on (built on first use)."""
        if self._offline is None:
            self._offline = OfflineExtractor(self.settings, self.embed)
        return self._offline

    @property
    def usage(self) -> Usage:
        """Everything this extractor has spent so far: segmentation and extraction."""
        return self._usage

    @property
    def stopped(self) -> str | None:
        """Why the model is no longer called this run (its answers kept failing), or None."""
        return self.client.stopped

    def take_segment_usage(self) -> Usage:
        """Return the segmentation usage since the last call, and reset it (for run summaries)."""
        with self._lock:
            usage, self._segment_usage = self._segment_usage, Usage()
        return usage

    # --- segmentation ------------------------------------------------------------------

    def segment(self, conversation: Conversation) -> list[tuple[Message, ...]]:
        """Have the model group the messages into episodes; repair its answer; never drop one."""
        msgs = conversation.messages
        if len(msgs) < MIN_SEGMENT_MESSAGES:
            return [msgs] if msgs else []
        window_usage: dict[int, Usage] = {}
        errors: dict[int, str] = {}
        budget = self.settings.llm_max_tokens_segment
        size = messages_per_window(self.client.context, budget,
                                   len(system_prompt("segmentation")) + 200, LINE_CHARS, WINDOW)

        def ask(start: int, end: int) -> list[Span]:
            window = msgs[start:end]
            tokens = min(budget, 40 + SEGMENT_TOKENS_PER_MESSAGE * len(window))
            try:
                answer, usage = self.client.complete(
                    segmentation_messages(window), bounded_segmentation(len(window)),
                    max_tokens=tokens,
                )
            except LLMError as exc:
                window_usage[start] = exc.usage
                errors[start] = str(exc)
                raise
            window_usage[start] = usage
            spans = spans_from_starts(answer.starts, len(window))
            if not spans:
                errors[start] = f"LLM {self.client.where}: segmentation named no message"
                raise LLMError(errors[start], usage)
            return spans

        def fallback(start: int) -> list[Span]:
            rest = replace(conversation, messages=msgs[start:])
            try:
                parts = self.offline.segment(rest)
            except Exception:
                parts = [msgs[start:]]
            spans = spans_of([len(p) for p in parts], start)
            return spans if spans and spans[-1][1] == len(msgs) else [(start, len(msgs))]

        spans = segment_windows(len(msgs), ask, fallback, size)
        total = sum(window_usage.values(), Usage())
        self._spend(total, segmentation=True)
        failed_at = min(errors) if errors else None
        segments = []
        with self._lock:
            for a, b in spans:
                segment = msgs[a:b]
                carried: dict[str, Any] = {}
                if a in window_usage:  # the first episode of a window carries the call's usage
                    carried.update(_usage_dict(window_usage[a]))
                if failed_at is not None and a >= failed_at:
                    carried["segment_error"] = errors[failed_at]
                if carried:
                    self._carried[tuple(m.id for m in segment)] = carried
                segments.append(segment)
        return segments

    # --- episodes and facts ------------------------------------------------------------

    def episode(
        self, user_id: str, conversation: Conversation, messages: Sequence[Message]
    ) -> Episode:
        """Build the episode quickly (offline title and narrative); extract() rewrites them."""
        ep = self.offline.episode(user_id, conversation, messages)
        with self._lock:
            carried = self._carried.pop(tuple(m.id for m in messages), {})
        counts = {k: carried.get(k, 0) for k in USAGE_KEYS}
        extra = {"segment_error": carried["segment_error"]} if "segment_error" in carried else {}
        return ep.with_extraction(extractor=self.name, status="pending", **counts, **extra)

    def extract(self, episode: Episode, related: Sequence[Fact]) -> Extraction:
        """Rewrite the episode and extract its facts in one call; fall back to offline facts."""
        related = [f for f in related if f.user_id == episode.user_id]
        predict = self.settings.prediction_correction and bool(related)
        budget = (self.settings.llm_max_tokens_prediction if predict
                  else self.settings.llm_max_tokens_episode)
        try:
            context = self.client.context
            if predict:
                related = _fitting(related, (context - budget) // 3)
                fixed = len(system_prompt("prediction")) + sum(len(f.content) + 30
                                                              for f in related)
                chars = chars_for_messages(context, budget, fixed, len(episode.messages),
                                           EPISODE_CHARS)
                answer: EpisodeAnswer | PredictionAnswer
                answer, usage = self.client.complete(
                    prediction_messages(episode, related, chars), PredictionAnswer,
                    max_tokens=budget,
                )
            else:
                chars = chars_for_messages(context, budget, len(system_prompt("episode")),
                                           len(episode.messages), EPISODE_CHARS)
                answer, usage = self.client.complete(
                    episode_messages(episode, chars), EpisodeAnswer, max_tokens=budget
                )
        except Exception as exc:  # noqa: BLE001 - any failure leaves the offline result
            usage = exc.usage if isinstance(exc, LLMError) else Usage()
            message = str(exc) if isinstance(exc, LLMError) else f"{type(exc).__name__}: {exc}"
            kind = exc.kind if isinstance(exc, LLMError) else "error"
            return self._failed(episode, related, message, usage, kind)
        self._spend(usage)
        rewritten = self._rewrite(episode, answer)
        facts, superseded = self._facts(rewritten, answer, related)
        extraction = _without(episode.extraction, "error", "fallback")
        extraction.update(_add_usage(episode.extraction, self.name, usage),
                          extractor=self.name, status="done", rewritten=True,
                          mode="prediction-correction" if predict else "direct")
        return Extraction(replace(rewritten, extraction=extraction), facts, superseded, usage)

    def _failed(self, episode: Episode, related: Sequence[Fact], error: str,
                usage: Usage, kind: str = "error") -> Extraction:
        self._spend(usage)
        try:
            offline = self.offline.extract(episode, related)
            facts, superseded = offline.facts, offline.superseded
        except Exception:  # noqa: BLE001 - the episode is still saved, marked failed
            facts, superseded = [], {}
        ep = episode.with_extraction(
            **_add_usage(episode.extraction, self.name, usage),
            extractor=self.name, status="failed", error=error, fallback=kind,
        )
        return Extraction(ep, list(facts), dict(superseded), usage)

    def _rewrite(self, episode: Episode, answer: EpisodeAnswer | PredictionAnswer) -> Episode:
        title = " ".join(answer.title.split())[:200] or episode.title
        narrative = answer.narrative.strip() or episode.content
        timestamp = episode.timestamp
        if timestamp is None:  # message times win over the model's reading of the text
            timestamp = _parse_time(answer.timestamp)
        return replace(episode, title=title, content=narrative, timestamp=timestamp)

    def _facts(self, episode: Episode, answer: EpisodeAnswer | PredictionAnswer,
               related: Sequence[Fact]) -> tuple[list[Fact], dict[str, str]]:
        ids = [m.id for m in episode.messages] or list(episode.message_ids)
        refs = {f"F{i + 1}": f.id for i, f in enumerate(related)}
        now = utcnow()
        facts: dict[str, Fact] = {}
        superseded: dict[str, str] = {}
        for item in answer.facts:
            content = " ".join(item.content.split())
            if len(content) < 3:
                continue
            sources = [ids[k - 1] for k in dict.fromkeys(item.sources) if 1 <= k <= len(ids)]
            fact = Fact(
                id=fact_id(episode.user_id, content),
                user_id=episode.user_id,
                content=content,
                category=item.category,
                subject=" ".join((item.subject or "").split())[:80] or None,
                source_episode_ids=(episode.id,),
                source_message_ids=tuple(sources or ids),
                confidence=CONFIDENCE,
                created_at=now,
                valid_from=episode.timestamp,
                extractor=self.name,
            )
            if fact.id in facts:
                facts[fact.id] = facts[fact.id].merged_with(fact)
                continue
            facts[fact.id] = fact
            for ref in getattr(item, "supersedes", []):
                old = refs.get(ref)
                if old is not None and old != fact.id:
                    superseded.setdefault(old, fact.id)
        return list(facts.values()), superseded

    def _spend(self, usage: Usage, *, segmentation: bool = False) -> None:
        with self._lock:
            self._usage = self._usage + usage
            if segmentation:
                self._segment_usage = self._segment_usage + usage


def _fitting(related: Sequence[Fact], tokens: int) -> list[Fact]:
    """The first related facts whose text fits in about `tokens` tokens."""
    out, chars = [], 0
    for fact in related:
        chars += len(fact.content) + 30
        if chars > tokens * 3:
            break
        out.append(fact)
    return out


def _parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    from dateutil import parser

    try:
        parsed = parser.isoparse(value.strip())
    except (ValueError, OverflowError):
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _usage_dict(usage: Usage) -> dict[str, Any]:
    return {"calls": usage.calls, "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens, "cost": usage.cost}


def _add_usage(extraction: dict[str, Any], name: str, usage: Usage) -> dict[str, Any]:
    """Usage counters after this call: added to earlier ones by the same extractor."""
    same = extraction.get("extractor") == name
    prior = Usage(*(extraction.get(k, 0) or 0 for k in USAGE_KEYS)) if same else Usage()
    return _usage_dict(prior + usage)


def _without(d: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in keys}
