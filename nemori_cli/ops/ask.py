"""Answer a question from a user's memory: the hybrid search, then one bounded LLM call."""

from __future__ import annotations

from datetime import datetime

from nemori_cli.answer.ask import DEFAULT_BUDGET, AskResult, answer_within_budget
from nemori_cli.errors import UsageError
from nemori_cli.ops.records import usage_log
from nemori_cli.parts import Parts
from nemori_cli.search.hybrid import search

ASK_POOL = 50  # hits ranked for an answer; the word budget then decides how many are shown


def ask(
    parts: Parts,
    question: str,
    *,
    budget: int | None = None,
    kind: str = "all",
    since: datetime | None = None,
    until: datetime | None = None,
    user: str | None = None,
    today: datetime | None = None,
) -> AskResult:
    """Answer a question from memory, citing the memories used (offline: the evidence)."""
    if not question.strip():
        raise UsageError("the question is empty")
    budget = DEFAULT_BUDGET if budget is None else budget
    if budget < 1:
        raise UsageError("--budget must be at least 1 word")
    hits = search(
        parts, question, k=ASK_POOL, kind=kind, since=since, until=until, user=user, today=today
    )
    return answer_within_budget(
        question, hits, parts.settings, budget=budget, log=usage_log(parts, user), today=today
    )
