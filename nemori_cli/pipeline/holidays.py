"""Holidays: the days one falls on, and the holiday a query names ("around Easter", "over
Christmas 2023", "last Halloween", "on Valentine's Day this year")."""

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


@dataclass(frozen=True)
class Holiday:
    """A holiday: how it is said, its name and preposition in a date, its day in a year."""

    pattern: str
    name: str
    prep: str  # "at Christmas 2024", "on Halloween 2024"
    day: Callable[[int], date]


HOLIDAYS = (
    Holiday(r"christmas eve", "Christmas Eve", "on", _fixed(12, 24)),
    Holiday(r"(?:christmas|xmas)(?: day)?", "Christmas", "at", _fixed(12, 25)),
    Holiday(r"boxing day", "Boxing Day", "on", _fixed(12, 26)),
    Holiday(r"new year'?s eve", "New Year's Eve", "on", _fixed(12, 31)),
    # not "the new year", which may be any time
    Holiday(r"new year'?s(?: day)?", "New Year's Day", "on", _fixed(1, 1)),
    Holiday(r"valentine'?s(?: day)?", "Valentine's Day", "on", _fixed(2, 14)),
    Holiday(r"(?:st\.? |saint )?patrick'?s day", "St Patrick's Day", "on", _fixed(3, 17)),
    Holiday(r"good friday", "Good Friday", "on", lambda year: easter(year) - timedelta(days=2)),
    Holiday(r"easter(?: sunday| monday| weekend| holidays?)?", "Easter", "at", easter),
    Holiday(r"(?:the )?fourth of july|july 4th|independence day", "the Fourth of July", "on",
            _fixed(7, 4)),
    Holiday(r"halloween", "Halloween", "on", _fixed(10, 31)),
    Holiday(r"thanksgiving", "Thanksgiving", "on", _thanksgiving),
)
NAMES = "|".join(f"(?:{h.pattern})" for h in HOLIDAYS)  # any holiday, as a regex
_HOLIDAY = re.compile(
    rf"\b(?:(?P<which_one>last|this) )?(?P<name>{NAMES})\b"
    r"(?:,? (?P<year>\d{4})\b| (?P<which>this|last) year\b)?",
    re.IGNORECASE,
)
_EACH = tuple((re.compile(rf"^(?:{h.pattern})$", re.IGNORECASE), h) for h in HOLIDAYS)


def holiday_named(words: str) -> Holiday:
    """The holiday these words (a match of NAMES) name."""
    return next(h for pattern, h in _EACH if pattern.match(words))


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
    day = holiday_named(m["name"]).day
    year = int(m["year"]) if m["year"] and int(m["year"]) in YEARS else None
    if today is not None and m["which"]:
        year = today.year - (m["which"].lower() == "last")
    elif today is not None and m["which_one"]:
        year = year_of(day, m["which_one"], today)
    return NamedHoliday(day, year)


def year_of(day: Callable[[int], date], which: str, ref: date) -> int:
    """The year of the holiday "last" (or "this past"), "next" or "this" names, said on ref:
    the latest before ref, the first after it, or ref's own."""
    which = which.lower()
    if which in ("last", "this past"):
        return ref.year if day(ref.year) < ref else ref.year - 1
    if which == "next":
        return ref.year if day(ref.year) > ref else ref.year + 1
    return ref.year
