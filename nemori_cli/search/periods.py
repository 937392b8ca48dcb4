"""The time a query names, as days: "on 1 May, 2022", "in May 2023", "in June" (any year), a
holiday ("around Easter"), or a time relative to the day it is asked ("yesterday", "last
week", "three days ago")."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from nemori_cli.models import SearchHit
from nemori_cli.pipeline.dates import (
    COUNT,
    MONTHS,
    SAID_DAYS,
    add_months,
    count_of,
    weekday_index,
)
from nemori_cli.pipeline.holidays import NAMES, YEARS, named_holiday
from nemori_cli.pipeline.named_dates import NAMED_DAYS, TALKED_AFTER, named_period, named_span
from nemori_cli.search.turns import terms

Span = tuple[date, date]
HOLIDAY_YEARS = 10  # a holiday of no year named is looked for in the years before this one


@dataclass(frozen=True)
class Period:
    """The days a query names; `span` when they are one stretch (not "June" of any year)."""

    contains: Callable[[date], bool]
    span: Span | None
    stretches: tuple[Span, ...] = ()  # when it is no one stretch: those it has in recent years

    @property
    def days(self) -> tuple[Span, ...]:
        """The stretches of days the period is made of, as far as they are known."""
        return (self.span,) if self.span else self.stretches

    @property
    def few_days(self) -> bool:
        """Whether each stretch is a day or a few, not a month or more (NAMED_DAYS)."""
        days = self.days
        return bool(days) and all((last - first).days <= NAMED_DAYS for first, last in days)


def query_period(text: str, today: date | None = None) -> Period | None:
    """The period a query names: a named day, range or month first, then a holiday (of
    the year named, or of any year), then a time relative to today (when given), then a
    month of any year; None when it names none, or a day past the calendar's ends."""
    try:
        return _named_period(text, today)
    except (OverflowError, ValueError):  # "on 31 December, 9999": its next day is no date
        return None


def _named_period(text: str, today: date | None) -> Period | None:
    span = named_span(text)
    holiday = named_holiday(text, today) if span is None else None
    if holiday is not None and holiday.year is None:
        if today is None:
            return Period(holiday.contains, None)
        years = range(max(today.year - HOLIDAY_YEARS, YEARS.start), min(today.year + 1, YEARS.stop))
        spans = tuple(s for s in map(holiday.span, years) if s[0] <= today)
        return Period(holiday.contains, None, spans)
    if holiday is not None and holiday.year is not None:
        span = holiday.span(holiday.year)
    if span is None and today:
        span = relative_span(text, today)
    if span is not None:
        first, last = span
        return Period(lambda d: first <= d <= last, span)
    contains = named_period(text)
    return Period(contains, None) if contains else None


_COUNT = rf"(?P<n>{COUNT})"
_UNIT_DAYS = {"day": 1, "week": 7}


def _count(word: str) -> int:
    n = count_of(word)
    if n is None:  # the patterns below admit only COUNT words
        raise ValueError(f"not a count: {word!r}")
    return n


def _month_span(today: date, back: int) -> Span:
    """The whole calendar month `back` months before today's, and the week after it."""
    first = add_months(today, -back)
    return first, min(today, add_months(first, 1) - timedelta(days=1) + TALKED_AFTER)


def _weekday_before(today: date, weekday: int) -> date:
    """The latest day of that weekday before today."""
    return today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)


def _days_ago(m: re.Match[str], today: date) -> Span:
    n = _count(m["n"])
    return today - timedelta(days=n + 1), today - timedelta(days=max(n - 1, 0))


def _weeks_ago(m: re.Match[str], today: date) -> Span:
    middle = today - timedelta(weeks=_count(m["n"]))
    return middle - timedelta(days=3), middle + timedelta(days=3)


def _last_weekday(m: re.Match[str], today: date) -> Span:
    day = _weekday_before(today, weekday_index(m["day"]))
    return day, day


def _last_weekend(m: re.Match[str], today: date) -> Span:
    saturday = _weekday_before(today - timedelta(days=1), 5)  # not the weekend under way
    return saturday, saturday + timedelta(days=1)


def _last_week(m: re.Match[str], today: date) -> Span:
    monday = today - timedelta(days=today.weekday())
    return monday - timedelta(days=7), monday - timedelta(days=1)


def _past(m: re.Match[str], today: date) -> Span:
    n, unit = _count(m["n"]), m["unit"].lower()
    days = 30 * n if unit == "month" else n * _UNIT_DAYS[unit]
    return today - timedelta(days=days), today


def _fixed(back: int) -> Callable[[re.Match[str], date], Span]:
    return lambda m, today: (today - timedelta(days=back), today - timedelta(days=back))


_RELATIVE: tuple[tuple[re.Pattern[str], Callable[[re.Match[str], date], Span]], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), resolve)
    for pattern, resolve in (
        (r"\bthe day before yesterday\b", _fixed(2)),
        (r"\b(?:yesterday|last night)\b", _fixed(1)),
        (r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", _fixed(0)),
        (rf"\b(?:the )?(?:last|past) {_COUNT} (?P<unit>day|week|month)s?\b", _past),
        (rf"\b{_COUNT} days? ago\b", _days_ago),
        (rf"\b{_COUNT} weeks? ago\b", _weeks_ago),
        (rf"\b{_COUNT} months? ago\b", lambda m, t: _month_span(t, _count(m["n"]))),
        (r"\b(?:(?:a )?few|several|couple of) days ago\b|\bthe other day\b",
         lambda m, t: (t - timedelta(days=6), t - timedelta(days=1))),
        (rf"\b(?:last|this past) (?P<day>{SAID_DAYS})\b", _last_weekday),
        (r"\b(?:last|this past) weekend\b", _last_weekend),
        (r"\b(?:last|this past) week\b", _last_week),
        (r"\bthis week\b",
         lambda m, t: (t - timedelta(days=t.weekday()), t)),
        (r"\b(?:last|this past) month\b", lambda m, t: _month_span(t, 1)),
        (r"\bthis month\b", lambda m, t: (t.replace(day=1), t)),
        (r"\blast year\b", lambda m, t: (date(t.year - 1, 1, 1), date(t.year - 1, 12, 31))),
        (r"\bthis year\b", lambda m, t: (date(t.year, 1, 1), t)),
    )
)


def relative_span(text: str, today: date) -> Span | None:
    """The days a time relative to today names ("last week": Monday to Sunday of the week
    before this one); None when the text names none."""
    for pattern, resolve in _RELATIVE:
        if m := pattern.search(text):
            return resolve(m, today)
    return None


_TOLD_DAY = re.compile(r"\((\d{1,2} [A-Z][a-z]+ \d{4})\)[.!?]?$")


def told_day(fact_text: str) -> date | None:
    """The day a fact says it tells of, "(20 December 2024)." at its end (Fact.dated_content)."""
    m = _TOLD_DAY.search(fact_text)
    try:
        return datetime.strptime(m[1], "%d %B %Y").date() if m else None
    except ValueError:
        return None


def in_period(period: Period, hit: SearchHit) -> bool:
    """Whether a hit is of the period: said in it, or a fact telling of a day in it (said on
    18 December of flying home on the 20th)."""
    if hit.timestamp and period.contains(hit.timestamp.date()):
        return True
    day = told_day(hit.content) if hit.kind == "fact" else None
    return day is not None and period.contains(day)


_TIME_WORDS = re.compile(
    rf"\b(?:{NAMES}|{'|'.join(MONTHS)}|{SAID_DAYS}|(?:19|20)\d\d|\d{{1,2}}(?:st|nd|rd|th)?"
    r"|(?:last|this|next|past|previous) \w+|yesterday|today|tonight|weekends?|weeks?|months?"
    r"|years?|days?|ago|recently|lately)\b",
    re.IGNORECASE,
)
# what a question asking only about a time says besides the time ("Where was I over ...?")
_ASKING = terms(
    "what where who which did do does doing done was were am is are be been have has had i me "
    "my myself we us our go went gone going get got happen happened happening over during in at "
    "on around up to from for the a an of"
)


def only_a_time(query: str) -> bool:
    """Whether a question asks about a time and nothing else ("Where was I over Christmas
    2024?", "What did I do last weekend?"): whatever is of that time answers it."""
    return not terms(_TIME_WORDS.sub(" ", query)) - _ASKING


_FIRST = re.compile(r"\bfirst\b", re.IGNORECASE)
FIRST_OF = 2  # "my first eye operation": the earliest of the event's best this many


def event_episode(event: str, ranked: Sequence[str], episodes: Mapping[str, Any]) -> str:
    """The episode an event of a question names: its best, or for an event told as the first
    of its kind ("Which came first: my first eye operation or ..."), the earliest of its best
    few, as a second operation reads much like the first."""
    if not _FIRST.search(event):
        return ranked[0]
    dated = [r for r in ranked[:FIRST_OF] if r in episodes and episodes[r].timestamp]
    return min(dated, key=lambda r: episodes[r].timestamp) if dated else ranked[0]
