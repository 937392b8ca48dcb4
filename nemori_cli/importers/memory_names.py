"""The user's name in an assistant's notes about them, and those notes written as of "User".

An assistant's memory names the user ("Arjun is a Senior Advisor", "User's name is Sam.
Sam is a nurse"); a note that opens on the name is written as of "User" so that offline
extraction reads it as the user's own statement.
"""

from __future__ import annotations

import re
from collections import Counter

# a note that opens on someone's name and what they are or do: "Arjun is ...", "Arjun's ..."
_NAMED = re.compile(r"^(?P<name>[A-Z][a-z]+)(?:'s\b|\s+(?:is|was|has|had|[a-z]+(?:s|ed))\b)")
# a note that says the user's name: "User's name is Sam", "Prefers to be called Sam"
_STATED = re.compile(
    r"^(?:the )?user(?:'s)?(?: (?:first|preferred))? name is (?P<a>(?-i:[A-Z][a-z]+))\b"
    r"|\b(?:goes by|prefers to be called|wants to be called|is called|is named)"
    r" (?P<b>(?-i:[A-Z][a-z]+))\b",
    re.IGNORECASE,
)
_NOT_NAMES = frozenset({
    "The", "This", "That", "These", "Those", "They", "Their", "He", "She", "His", "Her", "It",
    "Its", "In", "On", "At", "As", "For", "With", "When", "While", "After", "Before", "Since",
    "During", "Recently", "Currently", "Also", "Both", "Most", "Some", "Many", "Each", "Every",
    "User", "Is", "Has", "Was", "Lives", "Works",
})


def most_named(notes: list[str]) -> str | None:
    """The name most notes open on (notes about one person), if one does, or the first
    note's."""
    names = Counter(m["name"] for s in notes if (m := _NAMED.match(s))
                    and m["name"] not in _NOT_NAMES)
    if not names:
        return None
    name, count = names.most_common(1)[0]
    first = _NAMED.match(notes[0]) if notes else None
    return name if count >= 2 or (first is not None and first["name"] == name) else None


def stated_name(notes: list[str]) -> str | None:
    """The user's name where a note says it ("User's name is Sam.")."""
    for note in notes:
        if (m := _STATED.search(note)) and note.lower().startswith(("user", "the user", "prefers",
                                                                     "goes by", "wants")):
            return m["a"] or m["b"]
    return None


def as_of_user(note: str, name: str | None) -> str:
    """A note that opens on the user's name written as of "User" ("Sam is a nurse" -> "User
    is a nurse"), and the name's possessive as the user's ("Priya is Sam's manager" -> "Priya
    is User's manager"); any other note as it is."""
    if not name:
        return note
    return re.sub(rf"^{re.escape(name)}(?='s\b|\s)|\b{re.escape(name)}(?='s\b)", "User", note)


# someone other than the user a note may bring in, whom a following "She ..." may be
_OTHER_PERSON = re.compile(
    r"(?:'s|\b(?:her|his|their)) (?:\w+ )?(?:son|daughter|wife|husband|partner|boyfriend"
    r"|girlfriend|fianc[ée]e?|spouse|mother|father|mom|mum|dad|parents?|brother|sister|sibling"
    r"|friend|colleague|coworker|boss|manager|kids?|child|children|baby|grand\w+|aunt|uncle"
    r"|cousin|niece|nephew)s?\b|\b(?:named|called)\b|\bwith (?-i:[A-Z])",
    re.IGNORECASE,
)
_PRONOUN = re.compile(r"^(?:he|she)\b(?='s|\s)", re.IGNORECASE)


def pronouns_of_user(notes: list[str]) -> list[str]:
    """The notes with an opening "He"/"She" written as "User" where the note before opened on
    the user and brought in no one else ("User is a nurse. She works nights." -> "User works
    nights."; not after "User's manager is Priya.")."""
    out: list[str] = []
    for note in notes:
        before = out[-1] if out else ""
        if (_PRONOUN.match(note) and re.match(r"User\s", before)
                and not _OTHER_PERSON.search(before)):
            note = _PRONOUN.sub("User", note)
        out.append(note)
    return out
