"""What focus derives from each message, computed once per text and kept in bounded caches.

A search focuses some fifty episodes, and the next questions meet the same messages again:
their spoken turns and passage ids, their stemmed terms, whether they name a time, their
relative dates resolved. Each cache is keyed by what it is derived from (the text, or the
messages themselves), never by an id alone, so an edited or re-ingested message is derived
afresh; each holds at most CACHED entries (terms: 50,000 short texts and single words).
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from nemori_cli.models import Message
from nemori_cli.pipeline.dates import annotate_dates
from nemori_cli.pipeline.passages import passage_ids, user_turn_ids
from nemori_cli.pipeline.segment import embed_text
from nemori_cli.search.questions import says_when
from nemori_cli.store.bm25_query import stemmer, stopwords

CACHED = 4096  # entries per cache: about one user's long messages in a chat-export store
_TOKEN = re.compile(r"[a-z0-9]+")


@functools.lru_cache(maxsize=50_000)
def terms(text: str) -> frozenset[str]:
    """Stemmed content words of a text."""
    stop = stopwords()
    # each word once, in order of first use: the same set, built in the same order, for less
    tokens = dict.fromkeys(_TOKEN.findall(text.lower()))
    words = [w for w in tokens if w not in stop and len(w) > 1]
    return frozenset(stemmer().stemWords(words))


def standing_in(found: frozenset[str], stand_ins: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """The terms found, and each query term one of whose stand-ins is among them ("sport"
    for "futsal", search/kinds_named.py; "allergi" for "allerg", search/word_families.py)."""
    if not stand_ins:  # most queries: no new set per text on a search's hot path
        return found
    return found | {term for term, others in stand_ins.items() if found & others}


@dataclass(frozen=True)
class Spoken:
    """Which of an episode's messages have words, and the vector documents of their parts.

    Indexes, not messages: messages equal as keys may differ in a timestamp's time zone.
    """

    indexes: tuple[int, ...]  # of the messages that have words, in order
    passages: Mapping[int, list[str]]  # spoken-message index -> its tail passages' ids
    user_turns: Mapping[int, str]  # spoken-message index -> its own vector (a user's turn)


@functools.lru_cache(maxsize=CACHED)
def spoken(record_id: str, messages: tuple[Message, ...]) -> Spoken:
    """The messages that have words, their passages' and user turns' ids (do not mutate)."""
    indexes = tuple(i for i, m in enumerate(messages) if embed_text(m))
    kept = [messages[i] for i in indexes]
    return Spoken(indexes, passage_ids(record_id, kept), user_turn_ids(record_id, kept))


@functools.lru_cache(maxsize=CACHED)
def names_time(text: str) -> bool:
    """Whether a text names a time (questions.says_when, remembered)."""
    return says_when(text)


def dated_line(text: str, when: datetime | None) -> str:
    """The text with its relative dates resolved against when's day (dates.annotate_dates)."""
    return dated_on(text, when.date()) if when else text


@functools.lru_cache(maxsize=CACHED)
def dated_on(text: str, day: date) -> str:
    """The text with its relative dates resolved against a day, remembered."""
    return annotate_dates(text, day)


def best_stretch(words: Sequence[str], size: int, wanted: Collection[str]) -> int:
    """The start of the run of size words holding the most wanted terms (0 on a tie).

    Each distinct word's terms are looked at once; and only a run that ends on a wanted word
    can hold more than the runs before it, so those runs are the only ones counted.
    """
    if not wanted or len(words) <= size:
        return 0
    wanted = set(wanted)
    hits = {w for w in dict.fromkeys(words) if not terms(w).isdisjoint(wanted)}
    found = [i for i, w in enumerate(words) if w in hits]
    best, best_start = bisect_left(found, size), 0
    for last in found:
        start = last - size + 1
        if start < 1:
            continue
        count = bisect_left(found, start + size) - bisect_left(found, start)
        if count > best:
            best, best_start = count, start
    return best_start
