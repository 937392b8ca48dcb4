"""A question whose answer is a name, of works ("What books has Tim read?") or of someone
("Who did Maria meet at the shelter?"), and whether a text names one.

Most texts about books, films or people speak of them without a name ("reading a bunch of
fantasy books", "met some great people"); the question asks for the ones that name one: a
quoted title ("Just finished \"A Dance with Dragons\"") or capitalised words mid-sentence that
are no speaker's name, month or day ("reading The Name of the Wind", "met Jean there").
"""

from __future__ import annotations

import re
from collections.abc import Collection

from nemori_cli.pipeline.dates import MONTHS, WEEKDAYS

_WORKS = re.compile(
    r"^\W*(?:what|which)\b(?: [\w'-]+){0,4}? (?:books?|novels?|movies?|films?|shows?|series"
    r"|games?|songs?|albums?|bands?|musicians?|artists?|podcasts?|authors?|plays?)\b",
    re.IGNORECASE,
)
_WHO = re.compile(r"^\W*(?:who|whom|with whom)\b", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“]([^\"“”]{2,60})[\"”]")
# a capitalised run after a lower-case word: "reading The Name of the Wind", "loved Dune"
_CAPITALISED = re.compile(
    r"(?<=[a-z,] )((?:[A-Z][\w'-]*|\d+)(?: (?:of|the|with|and|a|in|on|to|[A-Z][\w'-]*|\d+))*)"
)
_NOT_NAMES = frozenset({"i", "i'm", "i've", "i'd", "i'll", *MONTHS, *WEEKDAYS})


def asks_works(question: str) -> bool:
    """Whether a question asks which books, films, games, songs or bands."""
    return bool(_WORKS.search(question))


def asks_who(question: str) -> bool:
    """Whether a question asks who."""
    return bool(_WHO.search(question))


def names_someone(text: str, people: Collection[str] = ()) -> bool:
    """Whether a text has capitalised words mid-sentence that are no one of `people`'s name
    (the speakers), month or day."""
    for run in _CAPITALISED.findall(text):
        words = [w.removesuffix("'s") for w in run.split() if w[:1].isupper()]
        if any(w not in people and w.lower() not in _NOT_NAMES for w in words):
            return True
    return False


def names_work(text: str, people: Collection[str] = ()) -> bool:
    """Whether a text names a work: a quoted title, or a name as `names_someone` reads one."""
    return bool(_QUOTED.search(text)) or names_someone(text, people)
