"""A question for a person's job, home or diet is answered by the fact that sets it.

"What do I do for a living?" shares no word and little meaning with "The user started a new
job as a data analyst", so neither ranker finds that fact; the single-valued attributes that
offline extraction reads (pipeline/facts.py `attribute`: residence, employer, occupation,
diet) are looked up instead, the newest value first, or an earlier one when the question
asks for it ("What was my previous job?").
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from nemori_cli.models import Fact, SearchHit
from nemori_cli.pipeline.facts import ATTRIBUTE_WORDS, attribute
from nemori_cli.search.questions import AttributeQuestion

SHOWN = 2  # value facts put first: the current value, and the one it may be confused with
# a fact that states the very attribute asked answers the question, in whatever words: its
# relevance (search/relevance.py, fitted on word and vector closeness) is at least this
RELEVANCE = 0.9


def attribute_query(asked: AttributeQuestion) -> str:
    """The words a statement of the asked attributes has, for a lexical query."""
    return " ".join(dict.fromkeys(" ".join(ATTRIBUTE_WORDS[n] for n in asked.names).split()))


def value_facts(asked: AttributeQuestion, facts: Iterable[Fact]) -> list[Fact]:
    """The facts that set an asked attribute of the person asked about, the newest first
    (for an earlier value, those a later fact replaced come first)."""
    found = []
    for fact in {f.id: f for f in facts}.values():
        value = attribute(fact)
        if value and value[0] in asked.names and is_about(fact, asked.who):
            found.append(fact)
    found.sort(key=lambda f: f.valid_from or datetime.min.replace(tzinfo=UTC), reverse=True)
    if asked.past:
        found.sort(key=lambda f: f.superseded_by is None)
    return found


def is_about(fact: Fact, who: str | None) -> bool:
    """Whether a fact is about the person named (any, when the asker asks of themself)."""
    if who is None:
        return True
    return (fact.subject or "").lower().split()[:1] == [who.lower()]


def values_first(hits: Sequence[SearchHit], values: Sequence[SearchHit]) -> list[SearchHit]:
    """The hits with these value facts first, the rest in their order."""
    keys = {(h.kind, h.id) for h in values}
    rest = [h for h in hits if (h.kind, h.id) not in keys]
    return [*values, *rest]


def answering(hits: Sequence[SearchHit], values: Collection[str]) -> list[SearchHit]:
    """The hits, those among the value facts (by id) at least RELEVANCE relevant."""
    return [
        replace(h, relevance=max(h.relevance or 0.0, RELEVANCE))
        if h.kind == "fact" and h.id in values else h
        for h in hits
    ]
