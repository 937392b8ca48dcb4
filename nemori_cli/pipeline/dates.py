"""Resolve relative dates ("yesterday", "last week") against a message's time; read named ones."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

from nemori_cli.pipeline.holidays import NAMES as HOLIDAY_NAMES
from nemori_cli.pipeline.holidays import YEARS, holiday_named, year_of
from nemori_cli.pipeline.tense import sentence_of, told_as

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9}
NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "couple of": 2,
    "a couple": 2}
# a date after these is part of the sentence ("a table for tomorrow": not "a table for")
PREPOSITIONS = {"since", "until", "till", "from", "by", "before", "after", "of", "to", "through",
                "for"}
COUNT = (  # a number as people say it in a time ("3 days", "a couple of weeks")
    r"\d{1,2}|a couple of|a couple|couple of|an?|one|two|three|four|five|six|seven|eight|nine"
    r"|ten|eleven|twelve"
)
_NUM = f"({COUNT})"
_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
# as people shorten them in a chat ("last Tues", "on Fri"); "mon", "sat", "sun" only after
# "last"/"next", where no other word of theirs goes
SHORT_DAYS = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3,
              "thurs": 3, "fri": 4, "sat": 5, "sun": 6}
_AFTER_LAST_ONLY = {"mon", "sat", "sun"}
SAID_DAYS = f"{_DAYS}|{'|'.join(sorted(SHORT_DAYS, key=len, reverse=True))}"
_ON_DAYS = f"{_DAYS}|{'|'.join(sorted(set(SHORT_DAYS) - _AFTER_LAST_ONLY, key=len, reverse=True))}"
_SEASONS = "spring|summer|fall|autumn"
_PART_OF_DAY = "morning|afternoon|evening|night"
# a hedge on how long ago ("about 6 weeks ago"): said as the time in the fact's when
_HEDGE = (
    r"just over|a little over|a bit over|well over|just under|more than|less than|about|around"
    r"|roughly|approximately|almost|nearly|over|under|like|maybe|probably"
)
HEDGE_SAID = {"around": "about", "roughly": "about", "approximately": "about", "like": "about",
              "maybe": "about", "probably": "about"}
# a word placing or stressing a date ("late last year", "just yesterday"): goes with the date
_PLACED_BEFORE = re.compile(r"\b(?P<word>just|only|early|late|earlier|later|sometime)\s+$", re.I)
STRESS = {"just", "only"}  # says no more of when: left out

_PERIOD = "day|night|week|weekend|month|year"
# how often, not when: "4 days a week", "twice a month", "every other week", "3-4 times a year"
_HOW_OFTEN = re.compile(
    rf"\b(?:once|twice|thrice|(?:{COUNT}|a few|few|several|many|multiple)"
    rf"(?:\s*(?:-|to|or)\s*(?:{COUNT}))? (?:\w+ )?(?:\w+s|time|hour|day|night|session|class"
    rf"|cup|glass|meal|mile|drink))\s+(?:a|an|per|each|every) (?:{_PERIOD})\b"
    rf"|\bevery (?:other |few |couple of |(?:{COUNT}) )?(?:{_PERIOD})s?\b",
    re.IGNORECASE,
)
# a weekday that recurs or is one of several: "on Tuesdays", "Tuesday nights", "every
# Tuesday", "on Tuesdays and Thursdays": a habit, no one date
_WEEKDAY_HABIT = re.compile(
    rf"\b(?:every (?:other )?(?:{_DAYS})|(?:{_DAYS})(?:s| (?:{_PART_OF_DAY})s)\b"
    rf"|(?:{_DAYS})s?(?:\s*(?:,|and|or|&|through|to|-)\s*(?:{_DAYS})s?\b)+)",
    re.IGNORECASE,
)


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
    if m["hedge"] and unit in {"day", "week"}:  # "about 6 weeks ago": no one day or week
        hedge = m["hedge"].lower()
        label = f"{m['n'].lower()} {unit}{'s' if n > 1 else ''}"
        return f"{HEDGE_SAID.get(hedge, hedge)} {label} before {fmt_date(ref)}", ""
    if m["hedge"]:  # "around 3 years ago": about 2019, the year a question asks for
        return f"about {fmt_month(add_months(ref, -n)) if unit == 'month' else ref.year - n}", ""
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


def weekday_index(word: str) -> int:
    """Monday 0 to Sunday 6, of a weekday's name or its short form ("Tues")."""
    word = word.lower()
    return SHORT_DAYS[word] if word in SHORT_DAYS else WEEKDAYS.index(word)


def _weekday(m: re.Match[str], ref: date) -> tuple[str, str]:
    word = "before" if m["which"].lower() in {"last", "this past"} else "after"
    day = WEEKDAYS[weekday_index(m["day"])].capitalize()
    return f"the {day} {word} {fmt_date(ref)}", "on"


def _on_weekday(m: re.Match[str], ref: date) -> tuple[str, str] | None:
    """"I won on Friday" -> 5 January 2024, the Friday before the message (the one
    after it when the sentence tells of what will be); None when its verbs do not say."""
    told = told_as(sentence_of(m))
    gap = (ref.weekday() - weekday_index(m["day"])) % 7
    if told is None or gap == 0:
        return None
    day = ref - timedelta(days=gap) if told == "past" else ref + timedelta(days=7 - gap)
    return fmt_date(day), "on"


def _day_of_month(m: re.Match[str], ref: date) -> tuple[str, str] | None:
    """"We met up on the 15th", said on 17 August -> 15 August; the next 15th when the
    sentence tells of what will be; None when its verbs do not say."""
    told, n = told_as(sentence_of(m)), int(m["n"])
    if told is None or n == ref.day:
        return None
    this_month = n < ref.day if told == "past" else n > ref.day
    offset = 0 if this_month else -1 if told == "past" else 1
    first = add_months(ref.replace(day=1), offset)
    try:
        return fmt_date(first.replace(day=n)), "on"
    except ValueError:  # "the 31st" of a month of 30 days
        return None


# "may" is left out: "last may be" is no month
_MONTH_NAMES = "|".join(m for m in MONTHS if m != "may")


def _named_month(m: re.Match[str], ref: date) -> tuple[str, str]:
    """"july next year" -> July 2025, "last March" -> the March before the message's month."""
    month = MONTHS.index((m["month"] or m["month2"]).lower()) + 1
    which = (m["which"] or m["which2"]).lower()
    if m["year"]:
        year = ref.year + {"next": 1, "last": -1}.get(which, 0)
    else:
        year = ref.year + {"next": month <= ref.month, "last": -(month >= ref.month)}.get(which, 0)
    return fmt_month(date(year, month, 1)), "in"


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


# "have/has ... been", "'ve had", "'s worked": a state that still holds, so "for three
# years" counts back from the message ("I had lived there for years" tells of another time)
_PERFECT = re.compile(
    r"(?:\b(?:have|has)|'ve|'s)(?:n't)?(?:\s+(?:not|never|always|just|also|really|only|now))?\s+"
    r"(?:been|had|known|done|taught|run|kept|owned|grown|worn|\w+ed)\b|^\W*been\b",
    re.IGNORECASE,
)


def _since(m: re.Match[str], ref: date) -> tuple[str, str] | None:
    """A time that lasts until the message: "for three years now" -> "since 2020"."""
    n, unit = count_of(m["n"]), m["unit"].lower()
    clause = re.split(r"[.!?;]", m.string[: m.start()])[-1]
    if n is None or not (m["now"] or _PERFECT.search(clause)):
        return None
    if re.search(r"\bbeen\s*$", clause, re.IGNORECASE):  # "It's been two years now": time gone by
        return None
    about, over = m.groupdict().get("about"), m.groupdict().get("over")  # "for about 2 weeks"
    since = "since about" if about else "since before" if over else "since"
    if unit == "year":
        return f"{since} {ref.year - n}", ""
    if unit == "month":
        return f"{since} {fmt_month(add_months(ref, -n))}", ""
    days = n * (7 if unit == "week" else 1)
    return f"{since} {fmt_date(ref - timedelta(days=days))}", ""


def _holiday(m: re.Match[str], ref: date) -> tuple[str, str] | None:
    """"last Christmas" -> "Christmas 2024": the one before, of, or after the message's year."""
    holiday = holiday_named(m["name"])
    year = year_of(holiday.day, m["which"], ref)
    return (f"{holiday.name} {year}", holiday.prep) if year in YEARS else None


def _fixed(days: int) -> Resolver:
    return lambda m, ref: (fmt_date(ref + timedelta(days=days)), "on")


RULES: tuple[tuple[re.Pattern[str], Resolver], ...] = tuple(
    (re.compile(p, re.IGNORECASE), f)
    for p, f in (
        (r"\bthe day before yesterday\b", _fixed(-2)),
        (r"\bthe day after tomorrow\b", _fixed(2)),
        (rf"\byesterday(?: (?:{_PART_OF_DAY}))?\b|\blast night\b", _fixed(-1)),
        (r"\btoday\b|\btonight\b", _fixed(0)),
        (r"\bthis (?:morning|afternoon|evening)\b", _fixed(0)),
        (rf"\btomorrow(?: (?:{_PART_OF_DAY}))?\b", _fixed(1)),
        (rf"\b(?:(?P<hedge>{_HEDGE}) )?(?P<n>{_NUM}) (?P<unit>day|week|month|year)s? ago\b", _ago),
        (rf"\b(?:for|over|in|during) the (?:past|last) (?P<n>{_NUM}) (?P<unit>day|week|month"
         r"|year)s?(?P<now> now)?\b", _since),
        (rf"\bfor (?:(?P<about>about|around|almost|nearly|roughly)|(?P<over>over|more than"
         rf"|at least)) (?P<n>{_NUM}) (?P<unit>day|week|month|year)s?(?P<now> now)?\b", _since),
        (rf"\bfor (?P<n>{_NUM}) (?P<unit>day|week|month|year)s?(?P<now> now)?\b", _since),
        (rf"\b(?P<n>{_NUM}) (?P<unit>day|week|month|year)s?(?P<now> now)\b", _since),
        (r"\b(?:a few|few|several) (?P<unit>day|week)s ago\b", _few_ago),
        (r"\bthe other day\b", lambda m, ref: (f"a few days before {fmt_date(ref)}", "")),
        (rf"\b(?P<which>last|this past|next) (?P<day>{SAID_DAYS})(?: (?:{_PART_OF_DAY}))?\b",
         _weekday),
        # not with its date said ("on Saturday 15 November", "on Friday the 3rd")
        (rf"(?<=\bon )(?P<day>{_ON_DAYS})(?: (?:{_PART_OF_DAY}))?\b(?!,? (?:the )?\d"
         r"|,? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d)", _on_weekday),
        # a day of the month alone, at a clause's end ("on the 15th after my trip"), not of a
        # month named ("on the 3rd of May") nor a floor ("on the 3rd floor")
        (r"(?<=\bon )the (?P<n>[12]?[1-9]|[123]0|31)(?:st|nd|rd|th)\b(?=\s*(?:[,.!;:)]|$)"
         r"|\s+(?:after|before|and|at|when|so|but|because|with|for|to|too|as|we|i|it|this"
         r"|last|which|then)\b)", _day_of_month),
        (rf"\b(?P<month>{_MONTH_NAMES}) (?P<which>next|last|this) (?P<year>year)\b"
         rf"|\b(?P<which2>next|last|this) (?P<month2>{_MONTH_NAMES})\b(?! \d)", _named_month),
        (r"\b(?P<which>last|this past|next|this) (?P<unit>week|weekend|month|year)\b", _period),
        (rf"\b(?P<which>last|this past|next|this) (?P<season>{_SEASONS})\b", _season),
        (rf"\b(?P<which>last|this past|next|this) (?P<name>{HOLIDAY_NAMES})\b", _holiday),
    )
)


_DATES_JOINED = re.compile(r"\s*,?\s*(?:and|or|&|to)?\s*", re.IGNORECASE)
# after a date, words that make it the subject or an owner: "Last year was hard", "this year's"
DATE_AS_SUBJECT = re.compile(r"\s+(?:is|was|has|had|will)\b|'s\b")
# before a date, words that make it what the sentence says: "My interview was yesterday"
_DATE_AS_COMPLEMENT = re.compile(r"\b(?:is|was|are|were|be|been)(?: on| in| at)?\s*$", re.I)


def _with_word_before(text: str, start: int, phrase: str, prep: str) -> tuple[int, str, str]:
    """Take in a word placing or stressing the date: "late last year" -> "late in 2023"."""
    placed = _PLACED_BEFORE.search(text[:start])
    if placed is None:
        return start, phrase, prep
    word = placed["word"].lower()
    if word in STRESS:
        return placed.start(), phrase, prep
    return placed.start(), " ".join(w for w in (word, prep, phrase) if w), ""


def _matches(text: str, ref: date) -> list[tuple[int, int, str, str]]:
    """Find non-overlapping relative-date spans: (start, end, absolute phrase, preposition)."""
    # a habit's words ("4 days a week now", "on Tuesday nights") are no date's
    taken = [m.span() for m in (*_HOW_OFTEN.finditer(text), *_WEEKDAY_HABIT.finditer(text))]
    found: list[tuple[int, int, str, str]] = []
    for pattern, resolve in RULES:
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            result = resolve(m, ref)
            if result:
                start, phrase, prep = _with_word_before(text, m.start(), *result)
                taken.append((start, m.end()))
                found.append((start, m.end(), phrase, prep))
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
        out += [text[last:start], _in_place(text, start, end, phrase, prep)]
        last = end
    return "".join(out) + text[last:]


def _in_place(text: str, start: int, end: int, phrase: str, prep: str) -> str:
    """The words that replace the relative date at text[start:end]: "on 7 May 2023"."""
    previous = re.search(r"(\w+)\s*$", text[:start])
    if previous and previous.group(1).lower() in PREPOSITIONS | {"on", "in", "at", "during"}:
        prep = ""
    if DATE_AS_SUBJECT.match(text[end:]):
        prep = ""  # the date is the subject or an owner: "Last year was hard", "this year's"
    # keep the capital of a sentence-initial "Yesterday" on the new first word
    words = f"{prep} {phrase}".strip()
    if text[start].isupper() and words[0].islower():
        words = words[0].upper() + words[1:]
    return words


def split_dates(text: str, when: datetime | date | None) -> tuple[str, str | None]:
    """The text without its relative dates, and what they resolve to: "I ran yesterday" ->
    ("I ran", "7 May 2023"). A date the sentence needs ("since last year", "Last year was
    hard") is replaced in place instead, as replace_dates does, and gives no time; so is a
    second, other date ("spilled it last night and noticed this morning").
    """
    ref = _ref_date(when)
    found = _matches(text, ref) if ref is not None else []
    if not found:
        return text, None
    out, last, told = [], 0, ""
    for start, end, phrase, prep in found:
        before = text[last:start]
        previous = re.search(r"(\w+)\s*$", before)
        needed = previous is not None and previous.group(1).lower() in PREPOSITIONS
        needed = needed or phrase.startswith("since ")  # "has lived there since 2020"
        needed = needed or bool(_DATE_AS_COMPLEMENT.search(before))  # "The party was on Friday"
        if needed or DATE_AS_SUBJECT.match(text[end:]):
            return replace_dates(text, when), None
        if told and phrase != told:
            if _DATES_JOINED.fullmatch(before):  # "yesterday and today": both as said
                return replace_dates(text, when), None
            # a second time tells of another part: "spilled it last night and only noticed
            # this morning" keeps "on 8 May" where it was said
            out += [before, _in_place(text, start, end, phrase, prep)]
        else:
            out.append(re.sub(r"\s*\b(?:on|in|at|during)\s*$", "", before, flags=re.I))
            told = phrase
        last = end
    rest = "".join(out) + text[last:]
    rest = re.sub(r"\s+([,.;:!?])", r"\1", re.sub(r"\s{2,}", " ", rest))
    rest = re.sub(r"^[\s,;:–-]+|[\s,;:–-]+$", "", rest)
    rest = re.sub(r",\s*([.!?])$", r"\1", rest)
    if len(rest.split()) < 3:  # too little left to stand alone: keep the date in the text
        return replace_dates(text, when), None
    if text[:1].isupper():
        rest = rest[:1].upper() + rest[1:]
    return rest, told

