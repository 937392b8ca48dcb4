"""What a question asks for beyond its words: a time ("when ...", "in which year ..."),
advice that rests on what the asker likes ("Can you suggest ...", "What should I ..."), or
several events told apart ("How many days passed between X and Y?")."""

from __future__ import annotations

import re

from nemori_cli.pipeline.dates import RULES
from nemori_cli.pipeline.named_dates import MONTHS

_WHEN = re.compile(
    r"^\W*(?:when\b|since when\b|how long ago\b|(?:in |on )?(?:what|which) (?:year|month|date"
    r"|day|week|time)\b"
    # "How many weeks passed between ...", "How many days ago did I ...": two times, or one
    r"|how many (?:days|weeks|months|years) (?:(?:have |had )?passed|lapsed|ago|between|since))",
    re.IGNORECASE,
)
_DATED = re.compile(
    r"\b(?:(?:19|20)\d\d|" + "|".join(m for m in MONTHS if m != "may") + r"|last \w+|next \w+"
    r"|ago|yesterday|today|tonight|tomorrow|weekend|monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday)\b",
    re.IGNORECASE,
)


def asks_when(question: str) -> bool:
    """Whether a question asks for a time."""
    return bool(_WHEN.search(question))


def says_when(text: str) -> bool:
    """Whether a text names a time (a date, a month, a weekday, "last week", "ago")."""
    return bool(_DATED.search(text)) or any(p.search(text) for p, _ in RULES)


_ADVICE = re.compile(
    r"\b(?:recommend\w*|suggest\w*|ideas?|tips?|advice|advise|(?:should|could|shall|might) "
    r"(?:I|we)|would I|I should|would (?:fit|suit|help)|suit(?:s|ed)? me|for me"
    r"|I'd (?:enjoy|like|love)|I (?:might|would) (?:enjoy|like|love))\b",
    re.IGNORECASE,
)


# "Can you remind me which hotel you recommended?" asks what the assistant once said, not
# for new advice: the answer is in the assistant's turn, which the advice rule looks past
_RECALLS_ANSWER = re.compile(
    r"\b(?:remind me|you (?:\w+ )?(?:recommended|suggested|mentioned|told|said|gave|shared"
    r"|listed|described|proposed|provided|wrote|explained|came up with|pointed)"
    r"|did you (?:\w+ )?(?:recommend|suggest|mention|tell|say|give|share|list|describe"
    r"|propose|provide|write|explain|call|name))\b",
    re.IGNORECASE,
)


# the asker in the question: advice is asked for oneself ("What should I cook?", "Any ideas
# for my trip?"); "What advice did Caroline give Melanie?" asks what one person told another
_ASKER = re.compile(
    r"\b(?:I|I'm|I'd|I've|me|my|we|us|our)\b|\b(?:can|could|would|will) you\b|^\W*any\b",
    re.IGNORECASE,
)


def asks_advice(question: str) -> bool:
    """Whether a question asks for a recommendation or advice for the asker (not which
    advice the assistant once gave, nor what one person advised another)."""
    return bool(_ADVICE.search(question) and _ASKER.search(question)) and not recalls_answer(
        question
    )


# "How many days passed between X and Y?", "Which did I do first, X or Y?", "How many days
# before X did I Y?", "In what order did I do these: X, Y and Z?": events each told in its own
# session, and each must be found
_BETWEEN = re.compile(r"^\W*how (?:many|long|much)\b.*?\bbetween (?P<a>.+?) and (?P<b>.+?)\W*$",
                      re.IGNORECASE)
_BEFORE = re.compile(r"^\W*how (?:many|long|much)\b.*?\b(?:before|after) (?P<a>.+?) "
                     r"(?:did|do|had|have|was|were) (?:I|we) (?P<b>.+?)\W*$", re.IGNORECASE)
_LISTED = re.compile(r"^\W*(?:which|who|what|in what order|order)\b[^,:]*[,:] (?P<list>.+?)\W*$",
                     re.IGNORECASE)
_LIST_BREAK = re.compile(r",? (?:and|or) (?=[^,]*$)|, ", re.IGNORECASE)
_LIST_END = re.compile(r"\b(?:and|or) [^,]*$", re.IGNORECASE)  # "..., and the third"
MIN_PART_WORDS = 2


def question_parts(question: str) -> list[str]:
    """The events a question compares or spans ("between my trip to Rome and the wedding"),
    or none."""
    for pattern in (_BETWEEN, _BEFORE):
        m = pattern.search(question)
        if m and all(len(m[p].split()) >= MIN_PART_WORDS for p in ("a", "b")):
            return [m["a"], m["b"]]
    m = _LISTED.search(question)
    listed = _LIST_BREAK.split(m["list"]) if m and _LIST_END.search(m["list"]) else []
    if 2 <= len(listed) <= 4 and all(len(p.split()) >= MIN_PART_WORDS for p in listed):
        return listed
    return []


def recalls_answer(question: str) -> bool:
    """Whether a question asks what the assistant said earlier ("what did you recommend")."""
    return bool(_RECALLS_ANSWER.search(question))
