"""Read the dates people type for --since/--until as whole periods: a day, a month, a year.

`2024-10-17` is the whole day, `2024-06` the whole month, `2024` the whole year, so `--since X
--until X` keeps everything dated X. A date with a time is that instant. Phrases ("yesterday",
"3 weeks ago", "last March", "June 2024") go to dateparser, imported only when one is typed.
Dates without a zone are UTC, like the stored timestamps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from nemori_cli.errors import UsageError

_YEAR = re.compile(r"^\d{4}$")
_MONTH = re.compile(r"^(\d{4})-(\d{1,2})$")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_LAST_MONTH_NAME = re.compile(
    r"^(last|this)\s+(january|february|march|april|may|june|july|august|september|october"
    r"|november|december)$",
    re.I,
)
_ONE = timedelta(microseconds=1)


@dataclass(frozen=True)
class Period:
    """A span of time, start and end inclusive."""

    start: datetime
    end: datetime


@dataclass(frozen=True)
class DateRange:
    """What --since and --until resolved to (either may be open)."""

    since: datetime | None = None
    until: datetime | None = None

    def holds(self, when: datetime | None) -> bool:
        """Whether a record dated `when` is in the range (an undated one only if it is open)."""
        if self.since is None and self.until is None:
            return True
        if when is None:
            return False
        return (self.since is None or when >= self.since) and (
            self.until is None or when <= self.until
        )

    def describe(self) -> str:
        """Say the range in words, for the line above the results ("" when open)."""
        lo = _fmt(self.since) if self.since else None
        hi = _fmt(self.until + _ONE, end=True) if self.until else None
        if lo and hi:
            return f"dates: {lo} through {hi} (UTC)"
        if lo:
            return f"dates: {lo} onwards (UTC)"
        return f"dates: up to and including {hi} (UTC)" if hi else ""


def _fmt(when: datetime, end: bool = False) -> str:
    """The date alone when the bound falls at midnight (the day before, for an end), else the
    time."""
    if when.time() == datetime.min.time():
        return (when - timedelta(days=1) if end else when).strftime("%Y-%m-%d")
    return (when - _ONE if end else when).strftime("%Y-%m-%d %H:%M:%S")


def _month_end(year: int, month: int) -> datetime:
    nxt = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    return nxt - _ONE


def _day(d: date) -> Period:
    start = datetime(d.year, d.month, d.day, tzinfo=UTC)
    return Period(start, start + timedelta(days=1) - _ONE)


def parse_period(text: str, now: datetime | None = None) -> Period:
    """Resolve what a person typed to the period it names; UsageError when it names none."""
    value = text.strip()
    now = now or datetime.now(UTC)
    if not value:
        raise ValueError("empty date")
    if _YEAR.match(value):
        year = int(value)
        return Period(datetime(year, 1, 1, tzinfo=UTC), _month_end(year, 12))
    if m := _MONTH.match(value):
        year, month = int(m[1]), int(m[2])
        if not 1 <= month <= 12:
            raise ValueError(f"no month {month}")
        return Period(datetime(year, month, 1, tzinfo=UTC), _month_end(year, month))
    if _DAY.match(value):
        return _day(date.fromisoformat(value))
    if value[:4].isdigit() and "-" in value[:5]:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
        when = when if when.tzinfo else when.replace(tzinfo=UTC)
        return Period(when, when)
    return _phrase(value, now)


def _phrase(value: str, now: datetime) -> Period:
    """Resolve a phrase with dateparser, to the day, week, month or year it names."""
    if m := _LAST_MONTH_NAME.match(value):  # dateparser reads "last March" as nothing
        month = datetime.strptime(m[2][:3], "%b").month
        year = now.year if m[1].lower() == "this" or month < now.month else now.year - 1
        return parse_period(f"{year}-{month:02d}", now)
    from dateparser.date import DateDataParser

    parser = DateDataParser(
        languages=["en"],
        settings={
            "RETURN_TIME_AS_PERIOD": True,
            "PREFER_DATES_FROM": "past",
            "RELATIVE_BASE": now.replace(tzinfo=None),
            "TIMEZONE": "UTC",
            "RETURN_AS_TIMEZONE_AWARE": False,
        },
    )
    data = parser.get_date_data(value)
    when, period = data.date_obj, data.period
    if when is None:
        raise ValueError(f"cannot read {value!r}")
    if period == "year" and not re.search(r"\b(?:ago|last|next|this)\b", value, re.I):
        return parse_period(str(when.year), now)
    if period == "year" and re.search(r"\b(?:last|this|next) year\b", value, re.I):
        return parse_period(str(when.year), now)
    if period == "month" and not re.search(r"\bago\b", value, re.I):
        return parse_period(f"{when.year}-{when.month:02d}", now)
    if period == "week" and not re.search(r"\bago\b", value, re.I):
        monday = when.date() - timedelta(days=when.weekday())
        return Period(_day(monday).start, _day(monday + timedelta(days=6)).end)
    if period == "time":
        aware = when.replace(tzinfo=UTC)
        return Period(aware, aware)
    return _day(when.date())  # "3 weeks ago", "yesterday", "June 3": that day


def parse_range(
    since: str | None, until: str | None, now: datetime | None = None, *, prefix: str = "--"
) -> DateRange:
    """Resolve --since to the start of its period and --until to the end of its own."""
    lo = _resolve(since, "since", prefix, now).start if since is not None else None
    hi = _resolve(until, "until", prefix, now).end if until is not None else None
    if lo is not None and hi is not None and lo > hi:
        raise UsageError(f"{prefix}since {since!r} is after {prefix}until {until!r}")
    return DateRange(lo, hi)


def parse_today(value: str | None, *, prefix: str = "--") -> datetime | None:
    """The start of the day --today names (a question asked then), or None for today."""
    return _resolve(value, "today", prefix, None).start if value is not None else None


def _resolve(value: str, name: str, prefix: str, now: datetime | None) -> Period:
    try:
        return parse_period(value, now)
    except (ValueError, OverflowError):
        raise UsageError(
            f"{prefix}{name}: {value!r} is not a date (try 2024-10-17, 2024-06, 2024, "
            "'yesterday', '3 weeks ago', 'last March')"
        ) from None
