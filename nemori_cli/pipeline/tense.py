"""Whether a sentence tells of the past or of what is to come, from its verbs alone."""

from __future__ import annotations

import re

_FUTURE = re.compile(  # and an arrangement: "I'm flying home on Friday"
    r"'ll\b|\b(?:will|won't|shall|going to|gonna|plan|planning|can't wait|hope|hoping"
    r"|looking forward|next|(?:am|is|are|'m|'re) (?:flying|driving|leaving|heading|visiting"
    r"|moving|travell?ing|hosting|meeting|starting)"
    # one event said to be on a day: "My interview is on Friday", "the flight's on the 14th"
    r"|(?:is|'s|are) (?:on|this) (?=(?:the \d|mon|tues|wednes|thurs|fri|satur|sun)))\b",
    re.IGNORECASE,
)
_PAST = re.compile(
    r"\b(?:was|were|had|did|went|got|won|made|saw|met|took|came|ran|bought|found|gave|told"
    r"|said|felt|left|began|wrote|heard|brought|thought|sent|spent|lost|sold|became|drove|flew"
    r"|ate|sang|swam|caught|taught|chose|broke|forgot|\w{2,}ed)\b",
    re.IGNORECASE,
)
# "so excited", "I'm interested": a word in -ed after these describes, it does not tell
_STATE = {"am", "is", "are", "be", "been", "so", "very", "really", "super", "pretty", "too",
          "feel", "feeling", "get", "getting"}


def _tells_past(sentence: str, m: re.Match[str]) -> bool:
    """Whether a past-tense match is a verb, not an "-ed" word describing ("I'm excited")."""
    before = sentence[: m.start()].split()
    if not m[0].lower().endswith("ed") or not before:
        return True
    word = before[-1].lower()
    return word not in _STATE and not word.endswith(("'m", "'s", "'re"))


# a habit or another time: "we went to church on Sunday when I was a kid" is no one Sunday
_HABIT = re.compile(
    r"\b(?:used to|every|always|usually|often|when I was|as a (?:kid|child|teen)|back then"
    r"|years ago|growing up|birthday(?! party)|anniversary)\b",
    re.IGNORECASE,
)


def told_as(sentence: str) -> str | None:
    """"past" or "future" when a sentence's verbs say which alone, else None."""
    sentence = sentence.replace("\u2019", "'")
    if _HABIT.search(sentence):
        return None
    future = bool(_FUTURE.search(sentence))
    past = any(_tells_past(sentence, m) for m in _PAST.finditer(sentence))
    return "future" if future and not past else "past" if past and not future else None


def sentence_of(m: re.Match[str]) -> str:
    """The sentence of the text a match was found in."""
    start = max(m.string.rfind(c, 0, m.start()) for c in ".!?") + 1
    ends = [i for i in (m.string.find(c, m.end()) for c in ".!?") if i >= 0]
    return m.string[start : min(ends, default=len(m.string))]
