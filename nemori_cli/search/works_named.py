"""A question whose answer is the names of works ("What books has Tim read?"), and whether a
text names one ("Just finished \"A Dance with Dragons\"", "reading The Name of the Wind").

Most texts about books, films or games speak of them without a title ("reading a bunch of
fantasy books"); the question asks for the ones that name one.
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
_QUOTED = re.compile(r"[\"“]([^\"“”]{2,60})[\"”]")
# a capitalised run after a lower-case word: "reading The Name of the Wind", "loved Dune"
_CAPITALISED = re.compile(
    r"(?<=[a-z,] )((?:[A-Z][\w'-]*|\d+)(?: (?:of|the|with|and|a|in|on|to|[A-Z][\w'-]*|\d+))*)"
)
_NOT_TITLES = frozenset({"i", "i'm", "i've", "i'd", "i'll", *MONTHS, *WEEKDAYS})


def asks_works(question: str) -> bool:
    """Whether a question asks which books, films, games, songs or bands."""
    return bool(_WORKS.search(question))


def names_work(text: str, people: Collection[str] = ()) -> bool:
    """Whether a text names a work: a quoted title, or capitalised words mid-sentence that
    are no one's name, month or day."""
    if _QUOTED.search(text):
        return True
    for run in _CAPITALISED.findall(text):
        words = [w.removesuffix("'s") for w in run.split() if w[:1].isupper()]
        if any(w not in people and w.lower() not in _NOT_TITLES for w in words):
            return True
    return False
