"""Read the dates a text names ("on 3 June, 2023", "in May 2023", "between 3 and 5 June")."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from nemori_cli.pipeline.dates import MONTHS, add_months

_MONTH_NAME = "(?:" + "|".join(MONTHS) + ")"
_MONTH = f"(?P<month>{_MONTH_NAME})"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r",? (?P<year>\d{4})\b"
_DAY_FIRST = re.compile(rf"\b{_DAY} {_MONTH}{_YEAR}", re.I)
_MONTH_FIRST = re.compile(rf"\b{_MONTH} {_DAY}{_YEAR}", re.I)
_MONTH_YEAR = re.compile(rf"\b{_MONTH}{_YEAR}", re.I)
_MONTH_ONLY = re.compile(rf"\b(?:in|during|of|last|this) {_MONTH}\b", re.I)
TALKED_AFTER = timedelta(days=7)  # an event of a month is often told in the days after it
NAMED_DAYS = 9  # a named time this short (a day, a few days) is a day's, not a month's
_ORDINAL = r"\d{1,2}(?:st|nd|rd|th)?"
_POINT = rf"(?:{_ORDINAL} {_MONTH_NAME}|{_MONTH_NAME}(?: {_ORDINAL})?)"
_RANGE = re.compile(
    rf"\b(?:between|from) (?P<start>{_POINT}(?:,? \d{{4}})?|{_ORDINAL})"
    rf" (?:and|to|until|till|through) (?P<end>{_POINT}(?:,? \d{{4}})?)\b",
    re.I,
)
_YEAR_AT_END = re.compile(r",? (\d{4})$")


def named_period(text: str) -> Callable[[date], bool] | None:
    """Whether a day falls in the time a question names ("on 3 June, 2023", "in May 2023").

    A named day matches itself and its neighbours; a month also matches the week after it,
    when people tell each other about it; a month without a year matches it in any year.
    A range ("between August 11 and August 15, 2023") matches its days and the week after.
    None when the text names no day or month.
    """
    if span := named_span(text):
        first, last = span
        return lambda d: first <= d <= last
    for m in _MONTH_ONLY.finditer(text):
        if m["month"] == "may":  # lower-case "this may be" is the verb; "in May" the month
            continue
        month = MONTHS.index(m["month"].lower()) + 1
        return lambda d: (
            d.month == month or (d.month == month % 12 + 1 and d.day <= TALKED_AFTER.days)
        )
    return None


def named_span(text: str) -> tuple[date, date] | None:
    """The first and last day of the dated time a question names, as `named_period` reads
    it; None when it names none, or only a month of any year."""
    if (m := _RANGE.search(text)) and (span := _range_days(m["start"], m["end"])):
        first, last = span
        return first, last + TALKED_AFTER
    for pattern in (_DAY_FIRST, _MONTH_FIRST):
        if m := pattern.search(text):
            try:
                day = date(int(m["year"]), MONTHS.index(m["month"].lower()) + 1, int(m["day"]))
            except ValueError:
                continue
            return day - timedelta(days=1), day + timedelta(days=1)
    if m := _MONTH_YEAR.search(text):
        start = date(int(m["year"]), MONTHS.index(m["month"].lower()) + 1, 1)
        return start, add_months(start, 1) + TALKED_AFTER - timedelta(days=1)
    return None


def _range_days(start: str, end: str) -> tuple[date, date] | None:
    """The first and last day of a range's two ends; the start may take the end's year, and
    its month ("between 3 and 5 June 2023")."""
    year = _YEAR_AT_END.search(end)
    if year is None:
        return None
    if start[:1].isdigit() and not re.search(_MONTH_NAME, start, re.I):
        day = re.match(r"\d+", start)
        month = re.search(_MONTH_NAME, end, re.I)
        if day is None or month is None:
            return None
        start = f"{day[0]} {month[0]}"
    if _YEAR_AT_END.search(start) is None:
        start = f"{start} {year[1]}"
    first, last = _point_days(start), _point_days(end)
    if first is None or last is None or last[1] < first[0]:
        return None
    return first[0], last[1]


def _point_days(text: str) -> tuple[date, date] | None:
    """The first and last day a named day or month stands for."""
    for pattern in (_DAY_FIRST, _MONTH_FIRST):
        if (m := pattern.fullmatch(text)) is not None:
            try:
                day = date(int(m["year"]), MONTHS.index(m["month"].lower()) + 1, int(m["day"]))
            except ValueError:
                return None
            return day, day
    if (m := _MONTH_YEAR.fullmatch(text)) is not None:
        first = date(int(m["year"]), MONTHS.index(m["month"].lower()) + 1, 1)
        return first, add_months(first, 1) - timedelta(days=1)
    return None
