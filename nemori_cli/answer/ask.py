"""Answer a question from retrieved memories: one bounded LLM call, its citations checked."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from nemori_cli.answer.budget import take_budget
from nemori_cli.config import Settings
from nemori_cli.models import SearchHit, utcnow
from nemori_cli.pipeline.base import Usage
from nemori_cli.pipeline.llm import LLMClient, LLMError
from nemori_cli.pipeline.prompts.answer import AnswerModel, answer_messages
from nemori_cli.store.usage import UsageLog

DEFAULT_BUDGET = 1500  # words of memories shown to the model
ANSWER_MAX_TOKENS = 400  # a short answer and its citations fit in far less
ASK_RETRIES = 1  # someone is waiting: one retry of a transient failure, not the ingest default
NO_ANSWER = "The memories do not say."
NO_MEMORIES = "Nothing in memory matches the question."
CONFIGURE_HINT = (
    "no LLM configured, so this is the best evidence, not an answer: set NEMORI_LLM_MODEL "
    "(or pass --llm MODEL, e.g. --llm gpt-4.1-mini) to get answers"
)
_MARKER = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)*)\]")


@dataclass(frozen=True)
class Citation:
    """A memory the answer cites: its number in the prompt and the hit it names."""

    n: int
    hit: SearchHit

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "kind": self.hit.kind,
            "id": self.hit.id,
            "message_ids": list(self.hit.message_ids),
        }


@dataclass(frozen=True)
class AskResult:
    """An answer from memory, the memories it was drawn from, and what it cost.

    `answer` is None when no LLM is configured (the hits are then the best evidence).
    `hits` are the memories shown, memory n being hits[n - 1]. `invalid_citations` are
    numbers the model cited that were not shown: the answer is flagged, not trusted.
    """

    question: str
    answer: str | None
    answerable: bool | None
    citations: tuple[Citation, ...]
    hits: tuple[SearchHit, ...]
    usage: Usage = Usage()
    model: str | None = None
    invalid_citations: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.answer,
            "answerable": self.answerable,
            "citations": [c.to_dict() for c in self.citations],
            "invalid_citations": list(self.invalid_citations),
            "hits": [h.to_dict() for h in self.hits],
            "model": self.model,
            "usage": asdict(self.usage),
        }


def cited_numbers(answer: AnswerModel) -> list[int]:
    """Every memory number the answer cites, in its text ([2], [1, 3]) or its list; in order."""
    found: list[int] = []
    for group in _MARKER.findall(answer.answer):
        found.extend(int(n) for n in re.split(r"[,;]", group))
    found.extend(answer.citations)
    return list(dict.fromkeys(found))


def checked_answer(
    question: str, reply: AnswerModel, shown: Sequence[SearchHit], usage: Usage, model: str
) -> AskResult:
    """Match the model's citations to the hits shown; flag the numbers that name none."""
    numbers = cited_numbers(reply) if reply.answerable else []
    valid = tuple(Citation(n, shown[n - 1]) for n in numbers if 1 <= n <= len(shown))
    invalid = tuple(n for n in numbers if not 1 <= n <= len(shown))
    text = reply.answer.strip() or (NO_ANSWER if not reply.answerable else "")
    return AskResult(
        question, text, reply.answerable, valid, tuple(shown), usage, model, invalid
    )


def answer_question(
    question: str,
    shown: Sequence[SearchHit],
    settings: Settings,
    *,
    today: datetime | None = None,
) -> AskResult:
    """Ask the configured LLM to answer from the shown hits (no model: return them as evidence).

    Raises LLMError (with the spend on `.usage`) when the model fails or never answers validly.
    """
    if not settings.llm_model:
        return AskResult(question, None, None, (), tuple(shown))
    if not shown:
        return AskResult(question, NO_MEMORIES, False, (), (), model=settings.llm_model)
    client = LLMClient(replace(settings, llm_retries=min(settings.llm_retries, ASK_RETRIES)))
    messages = answer_messages(question, shown, today or utcnow())
    reply, usage = client.complete(messages, AnswerModel, max_tokens=ANSWER_MAX_TOKENS)
    return checked_answer(question, reply, shown, usage, client.model)


def answer_within_budget(
    question: str,
    hits: Sequence[SearchHit],
    settings: Settings,
    *,
    budget: int = DEFAULT_BUDGET,
    log: UsageLog | None = None,
    today: datetime | None = None,
) -> AskResult:
    """Show the model the ranked hits that fit the word budget; record what answering cost."""
    shown = take_budget(hits, budget)
    try:
        result = answer_question(question, shown, settings, today=today)
    except LLMError as exc:
        if log is not None:
            log.record("ask", settings.llm_model, asdict(exc.usage))
        raise
    if log is not None:
        log.record("ask", result.model, asdict(result.usage))
    return result
