"""A question for a person's job, home, diet, allergies, hometown, age or partner is answered
by the fact that tells it.

"What do I do for a living?" shares no word and little meaning with "The user started a new
job as a data analyst", so neither ranker finds that fact; the single-valued attributes that
offline extraction reads (pipeline/facts.py `attribute`: residence, employer, occupation,
diet; and here a hometown, an age, a partner and allergies, which no later fact replaces) are
looked up
instead,
the newest value first, or an earlier one when the question asks for it ("What was my
previous job?").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from nemori_cli.models import Fact, SearchHit
from nemori_cli.pipeline.facts import ATTRIBUTE_WORDS, ATTRIBUTES, PLACE, attribute
from nemori_cli.pipeline.places import NOT_PLACES
from nemori_cli.search.questions import AttributeQuestion

_NOT_A_PLACE = "|".join(sorted(w.capitalize() for w in NOT_PLACES if w != "i"))
_HOMETOWN = rf"(?!(?:The|{_NOT_A_PLACE})\b){PLACE}"  # not "is from Monday to Friday"
_PARTNER = r"(?:boyfriend|girlfriend|partner|wife|husband|spouse|fianc[eé]e?)"
# told once and true together ("grew up in Leeds", "is from Yorkshire"), so never superseding
# one another: looked up only
LOOKED_UP = {
    "hometown": (
        re.compile(rf"\b(?:(?:grew up|was born(?: and raised)?|born and raised|raised) in"
                   rf"|is (?:originally )?from|comes from) (?:the )?{_HOMETOWN}"),
        re.compile(rf"(?:'s |\b)hometown (?:is|of) (?:the )?{PLACE}"),
    ),
    "age": (  # "turned 30 last week", "is 34 and ...", "is a 42 year old dad"; not "is 10 and 0
        # this season", "is 5 in the queue"
        re.compile(r"\bturned (?P<value>1[01]\d|\d{1,2})(?: years? old)?"
                   r"(?=[,.;!]|$| (?:and|last|this|on|in|today)\b)"),
        re.compile(r"\bis (?P<value>1[01]\d|\d{1,2})(?: years? old)?"
                   r"(?=[,.;!]|$| (?:and (?!\d)|now|last|this|next|today)\b)"),
        re.compile(r"\bis an? (?P<value>1[01]\d|\d{1,2})[- ]years?[- ]old\b"),
    ),
    "allergy": (  # "is allergic to peanuts", "has a shellfish allergy", "can't eat gluten"
        re.compile(r"\b(?:allergic|intolerant) to (?P<value>[\w-]+)"),
        re.compile(r"\b(?:has|have) an? (?P<value>[\w-]+) (?:allergy|intolerance)\b"),
        re.compile(r"\b(?P<value>lactose|gluten|dairy)[- ]intolerant\b"),
        re.compile(r"\b(?:can't|cannot|can not|doesn't|does not|won't|never) eats? (?:any )?"
                   r"(?!(?:a|an|another|the|this|that|it|anything|much|more|enough|yet|now|out"
                   r"|here|there|before|after|until|at|in|on|with|since|when|while)\b)"
                   r"(?P<value>[\w-]+)"),
    ),
    "partner": (  # "the user's girlfriend Maya", "has been married to Sam": whoever it is now
        re.compile(rf"'s {_PARTNER},? (?P<value>[\w-]+)"),
        re.compile(r"\b(?:got )?(?:married|engaged) to (?P<value>[\w-]+)"),
        re.compile(r"\b(?:dating|going out with) (?P<value>[A-Z][\w-]+)"),  # not "seeing Dr Lee"
    ),
}
WORDS = {**ATTRIBUTE_WORDS, "hometown": "grew grow born raised originally hometown",
         "age": "old years year turned turning age birthday",
         "allergy": "allergic allergy allergies intolerant intolerance eat",
         "partner": "boyfriend girlfriend partner wife husband spouse fiance fiancee married "
                    "engaged dating"}
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
SHOWN = 2  # value facts put first: the current value, and the one it may be confused with
# a fact that states the very attribute asked answers the question, in whatever words: its
# relevance (search/relevance.py, fitted on word and vector closeness) is at least this
RELEVANCE = 0.9


def attribute_query(asked: AttributeQuestion) -> str:
    """The words a statement of the asked attributes has, for a lexical query."""
    return " ".join(dict.fromkeys(" ".join(WORDS[n] for n in asked.names).split()))


def value_facts(asked: AttributeQuestion, facts: Iterable[Fact]) -> list[Fact]:
    """The facts that set an asked attribute of the person asked about, the newest first
    (for an earlier value, those a later fact replaced come first; for a year's, those told
    by then)."""
    patterns = {**ATTRIBUTES, **LOOKED_UP}
    table = {name: patterns[name] for name in asked.names}  # only the asked ones: cheaper
    found = [
        fact for fact in {f.id: f for f in facts}.values()
        if is_about(fact, asked.who) and attribute(fact, table)
    ]
    found.sort(key=lambda f: f.valid_from or datetime.min.replace(tzinfo=UTC), reverse=True)
    year = asked.year
    if year is not None:  # the newest told by then: the value held that year
        found.sort(key=lambda f: (told_in(f) or year + 1) > year)
    elif asked.past:
        found.sort(key=lambda f: f.superseded_by is None)
    return found


def told_in(fact: Fact) -> int | None:
    """The year a fact's value dates from: the year its time names, else the year it was told."""
    named = _YEAR.search(fact.when or "")
    if named:
        return int(named[0])
    return fact.valid_from.year if fact.valid_from else None


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
