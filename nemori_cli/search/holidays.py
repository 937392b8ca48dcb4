"""The days a holiday a query names falls on: "around Easter", "over Christmas 2023",
"last Halloween", "on Valentine's Day this year"."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

from dateutil.easter import easter

# a holiday's plans are told in the days before it and what happened in the days after;
# together under NAMED_DAYS, so a holiday counts as a few days, as a named day does
BEFORE = timedelta(days=5)
AFTER = timedelta(days=4)
YEARS = range(2, 9999)  # years whose holidays, with the days around them, are dates


def _thanksgiving(year: int) -> date:
    """The fourth Thursday of November (the United States')."""
    first = date(year, 11, 1)
    return first + timedelta(days=(3 - first.weekday()) % 7 + 21)


def _fixed(month: int, day: int) -> Callable[[int], date]:
    """A holiday on the same day every year."""
    return lambda year: date(year, month, day)


HOLIDAYS: tuple[tuple[str, Callable[[int], date]], ...] = (
    (r"christmas eve", _fixed(12, 24)),
    (r"(?:christmas|xmas)(?: day)?", _fixed(12, 25)),
    (r"boxing day", _fixed(12, 26)),
    (r"new year'?s eve", _fixed(12, 31)),
    (r"new year'?s(?: day)?", _fixed(1, 1)),  # not "the new year", which may be any time
    (r"valentine'?s(?: day)?", _fixed(2, 14)),
    (r"(?:st\.? |saint )?patrick'?s day", _fixed(3, 17)),
    (r"good friday", lambda year: easter(year) - timedelta(days=2)),
    (r"easter(?: sunday| monday| weekend| holidays?)?", easter),
    (r"(?:the )?fourth of july|july 4th|independence day", _fixed(7, 4)),
    (r"halloween", _fixed(10, 31)),
    (r"thanksgiving", _thanksgiving),
)
_NAMES = "|".join(f"(?:{p})" for p, _ in HOLIDAYS)
_HOLIDAY = re.compile(
    rf"\b(?:(?P<which_one>last|this) )?(?P<name>{_NAMES})\b"
    r"(?:,? (?P<year>\d{4})\b| (?P<which>this|last) year\b)?",
    re.IGNORECASE,
)
_DAY_OF = tuple((re.compile(rf"^(?:{p})$", re.IGNORECASE), day) for p, day in HOLIDAYS)


@dataclass(frozen=True)
class NamedHoliday:
    """A holiday named in a query: its day in a given year, and the year if the query says."""

    day: Callable[[int], date]
    year: int | None

    def span(self, year: int) -> tuple[date, date]:
        """The holiday's days in that year, with those before and after it."""
        day = self.day(year)
        return day - BEFORE, day + AFTER

    def contains(self, when: date) -> bool:
        """Whether a day is near the holiday (of the year named, or of any year)."""
        years = (self.year,) if self.year else (when.year - 1, when.year, when.year + 1)
        spans = map(self.span, (year for year in years if year in YEARS))
        return any(first <= when <= last for first, last in spans)


def named_holiday(text: str, today: date | None = None) -> NamedHoliday | None:
    """The holiday a query names, with its year when the query gives one ("2023", "this
    year", "last year", "this Easter", or "last Christmas": the latest before today); None
    when it names none. A year relative to today is left open when today is not given."""
    m = _HOLIDAY.search(text)
    if m is None:
        return None
    day = next(d for pattern, d in _DAY_OF if pattern.match(m["name"]))
    year = int(m["year"]) if m["year"] and int(m["year"]) in YEARS else None
    if today is not None and m["which"]:
        year = today.year - (m["which"].lower() == "last")
    elif today is not None and m["which_one"]:
        this = m["which_one"].lower() == "this"
        year = today.year if this or day(today.year) < today else today.year - 1
    return NamedHoliday(day, year)
