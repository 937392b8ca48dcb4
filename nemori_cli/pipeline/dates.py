"""Resolve relative dates ("yesterday", "last week") against a message's time; read named ones."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9}
NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
}
PREPOSITIONS = {"since", "until", "till", "from", "by", "before", "after", "of", "to", "through"}

COUNT = (  # a number as people say it in a time ("3 days", "a couple of weeks")
    r"\d{1,2}|a couple of|a couple|couple of|an?|one|two|three|four|five|six|seven|eight|nine"
    r"|ten|eleven|twelve"
)
_NUM = f"({COUNT})"
_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_SEASONS = "spring|summer|fall|autumn"


def fmt_date(d: date) -> str:
    """Format a date the way people write it: 7 May 2023."""
    return f"{d.day} {d:%B} {d.year}"


def fmt_month(d: date) -> str:
    """Format a month: May 2023."""
    return f"{d:%B} {d.year}"


def add_months(d: date, months: int) -> date:
    """The first day of the month that many months after d's (before, when negative)."""
    index = d.year * 12 + d.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def count_of(word: str) -> int | None:
    """The number a COUNT word says ("3", "two", "a couple of"), None for another word."""
    word = word.lower()
    return int(word) if word.isdigit() else NUMBERS.get(word)


def _season_year(ref: date, season: str, which: str) -> int:
    start = SEASONS[season]
    in_or_after = ref.month >= start
    if which == "last":
        # the most recent season that has started and is not the current one
        return ref.year if ref.month >= start + 3 else ref.year - 1
    if which == "next":
        return ref.year if not in_or_after else ref.year + 1
    return ref.year


# Each rule: a pattern and a function giving (absolute phrase, preposition for "replace" mode).
Resolver = Callable[[re.Match[str], date], tuple[str, str] | None]


def _ago(m: re.Match[str], ref: date) -> tuple[str, str] | None:
    n, unit = count_of(m["n"]), m["unit"].lower()
    if n is None:
        return None
    if unit == "day":
        return fmt_date(ref - timedelta(days=n)), "on"
    if unit == "week":
        label = "a week" if n == 1 else f"{m['n'].lower()} weeks"
        return f"{label} before {fmt_date(ref)}", ""
    if unit == "month":
        return fmt_month(add_months(ref, -n)), "in"
    return str(ref.year - n), "in"


def _few_ago(m: re.Match[str], ref: date) -> tuple[str, str]:
    return f"a few {m['unit'].lower()}s before {fmt_date(ref)}", ""


def _weekday(m: re.Match[str], ref: date) -> tuple[str, str]:
    word = "before" if m["which"].lower() in {"last", "this past"} else "after"
    return f"the {m['day'].capitalize()} {word} {fmt_date(ref)}", "on"


def _period(m: re.Match[str], ref: date) -> tuple[str, str]:
    which, unit = m["which"].lower(), m["unit"].lower()
    if unit == "year":
        offset = {"last": -1, "this past": -1, "next": 1}.get(which, 0)
        return str(ref.year + offset), "in"
    if unit == "month":
        offset = {"last": -1, "this past": -1, "next": 1}.get(which, 0)
        return fmt_month(add_months(ref, offset)), "in"
    if which == "this":
        return f"the {unit} of {fmt_date(ref)}", "in" if unit == "week" else "on"
    word = "after" if which == "next" else "before"
    return f"the {unit} {word} {fmt_date(ref)}", "in" if unit == "week" else "on"


def _season(m: re.Match[str], ref: date) -> tuple[str, str]:
    season = m["season"].lower()
    return f"{season} {_season_year(ref, season, m['which'].lower())}", "in"


def _fixed(days: int) -> Resolver:
    return lambda m, ref: (fmt_date(ref + timedelta(days=days)), "on")


RULES: tuple[tuple[re.Pattern[str], Resolver], ...] = tuple(
    (re.compile(p, re.IGNORECASE), f)
    for p, f in (
        (r"\bthe day before yesterday\b", _fixed(-2)),
        (r"\bthe day after tomorrow\b", _fixed(2)),
        (r"\byesterday\b", _fixed(-1)),
        (r"\blast night\b", _fixed(-1)),
        (r"\btoday\b", _fixed(0)),
        (r"\btonight\b", _fixed(0)),
        (r"\bthis (?:morning|afternoon|evening)\b", _fixed(0)),
        (r"\btomorrow\b", _fixed(1)),
        (rf"\b(?P<n>{_NUM}) (?P<unit>day|week|month|year)s? ago\b", _ago),
        (r"\b(?:a few|few|several) (?P<unit>day|week)s ago\b", _few_ago),
        (r"\bthe other day\b", lambda m, ref: (f"a few days before {fmt_date(ref)}", "")),
        (rf"\b(?P<which>last|this past|next) (?P<day>{_DAYS})\b", _weekday),
        (r"\b(?P<which>last|this past|next|this) (?P<unit>week|weekend|month|year)\b", _period),
        (rf"\b(?P<which>last|this past|next|this) (?P<season>{_SEASONS})\b", _season),
    )
)


# after a date, words that make it the subject or an owner: "Last year was hard", "this year's"
DATE_AS_SUBJECT = re.compile(r"\s+(?:is|was|has|had|will)\b|'s\b")


def _matches(text: str, ref: date) -> list[tuple[int, int, str, str]]:
    """Find non-overlapping relative-date spans: (start, end, absolute phrase, preposition)."""
    found: list[tuple[int, int, str, str]] = []
    for pattern, resolve in RULES:
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e, _, _ in found):
                continue
            result = resolve(m, ref)
            if result:
                found.append((m.start(), m.end(), *result))
    return sorted(found)


def _ref_date(when: datetime | date | None) -> date | None:
    if when is None:
        return None
    return when.date() if isinstance(when, datetime) else when


def annotate_dates(text: str, when: datetime | date | None) -> str:
    """Say after a quoted text what its relative dates were: "… [yesterday: 7 May 2023]".

    The words themselves are left as they were said; "today" (the line's own date) gets no note.
    """
    ref = _ref_date(when)
    if ref is None:
        return text
    notes = [
        f"{text[start:end]}: {phrase}"
        for start, end, phrase, _ in _matches(text, ref)
        if phrase != fmt_date(ref)
    ]
    return f"{text} [{'; '.join(notes)}]" if notes else text


def replace_dates(text: str, when: datetime | date | None) -> str:
    """Replace each relative date by the absolute one: "yesterday" -> "on 7 May 2023"."""
    ref = _ref_date(when)
    if ref is None:
        return text
    out, last = [], 0
    for start, end, phrase, prep in _matches(text, ref):
        before = text[last:start]
        previous = re.search(r"(\w+)\s*$", before)
        if previous and previous.group(1).lower() in PREPOSITIONS | {"on", "in", "at"}:
            prep = ""
        if DATE_AS_SUBJECT.match(text[end:]):
            prep = ""  # the date is the subject or an owner: "Last year was hard", "this year's"
        # keep the capital of a sentence-initial "Yesterday" on the new first word
        words = f"{prep} {phrase}".strip()
        if text[start].isupper() and words[0].islower():
            words = words[0].upper() + words[1:]
        out += [before, words]
        last = end
    return "".join(out) + text[last:]


def split_dates(text: str, when: datetime | date | None) -> tuple[str, str | None]:
    """The text without its relative dates, and what they resolve to: "I ran yesterday" ->
    ("I ran", "7 May 2023"). A date the sentence needs ("since last year", "Last year was
    hard") is replaced in place instead, as replace_dates does, and gives no time.
    """
    ref = _ref_date(when)
    found = _matches(text, ref) if ref is not None else []
    if not found:
        return text, None
    out, last, times = [], 0, []
    for start, end, phrase, _ in found:
        before = text[last:start]
        previous = re.search(r"(\w+)\s*$", before)
        needed = previous is not None and previous.group(1).lower() in PREPOSITIONS
        if needed or DATE_AS_SUBJECT.match(text[end:]):
            return replace_dates(text, when), None
        out.append(re.sub(r"\s*\b(?:on|in|at|during)\s*$", "", before, flags=re.I))
        times.append(phrase)
        last = end
    rest = "".join(out) + text[last:]
    rest = re.sub(r"\s+([,.;:!?])", r"\1", re.sub(r"\s{2,}", " ", rest))
    rest = re.sub(r"^[\s,;:–-]+|[\s,;:–-]+$", "", rest)
    rest = re.sub(r",\s*([.!?])$", r"\1", rest)
    if len(rest.split()) < 3:  # too little left to stand alone: keep the date in the text
        return replace_dates(text, when), None
    if text[:1].isupper():
        rest = rest[:1].upper() + rest[1:]
    return rest, "; ".join(dict.fromkeys(times))


MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
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
