"""Turn the many ways archives write a time into an aware UTC datetime."""

from __future__ import annotations

import re
import warnings
from datetime import UTC, datetime, timedelta
from typing import Any

_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
# SillyTavern: "2024-03-11@16h22m30s" or "2024-3-11 @16h 22m 30s 123ms"
_AT_STYLE = re.compile(
    r"(\d{4})-(\d{1,2})-(\d{1,2})\s*@\s*(\d{1,2})h\s*(\d{1,2})m\s*(\d{1,2})s(?:\s*(\d{1,3})ms)?"
)
_MIN_YEAR, _MAX_YEAR = 1971, 2200
_DAY_FIRST = re.compile(r"^\d{1,2}\.\s*\d{1,2}\.")
_PAGE_TIME = re.compile(
    r"(?P<clock>[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M) (?P<zone>[A-Z]{1,5})"
)
# Zone abbreviations that exports print (Google Takeout's "9:50:57 AM CDT"), in hours from UTC.
_ZONES = {
    "UTC": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7,
    "MDT": -6, "PST": -8, "PDT": -7, "AKST": -9, "AKDT": -8, "HST": -10, "WET": 0,
    "WEST": 1, "BST": 1, "CET": 1, "CEST": 2, "MEZ": 1, "MESZ": 2, "EET": 2, "EEST": 3,
    "MSK": 3, "JST": 9, "KST": 9, "AEST": 10, "AEDT": 11, "NZST": 12, "NZDT": 13,
}
_TZINFOS = {name: int(hours * 3600) for name, hours in _ZONES.items()}


def parse_time(value: Any) -> datetime | None:
    """Parse ISO 8601, free-form dates or epoch (s/ms/us/ns); None if absent; ValueError if bad."""
    if isinstance(value, dict):  # MongoDB extended JSON: {"$date": {"$numberLong": "<ms>"}}
        value = _unwrap_mongo(value)
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"not a time: {value!r}")
    if isinstance(value, int | float):
        return _from_epoch(float(value))
    if isinstance(value, datetime):
        return _aware(value)
    if not isinstance(value, str):
        raise ValueError(f"not a time: {value!r}")
    text = value.strip()
    if not text:
        return None
    if _NUMBER.fullmatch(text):
        return _from_epoch(float(text))
    m = _AT_STYLE.fullmatch(text)
    if m:
        y, mo, d, h, mi, s, ms = (int(g) if g else 0 for g in m.groups())
        return datetime(y, mo, d, h, mi, s, ms * 1000, tzinfo=UTC)
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        parsed = _free_form(text)
    return _checked(_aware(parsed), value)


def _unwrap_mongo(value: dict[str, Any]) -> Any:
    date = value.get("$date")
    if isinstance(date, dict):
        date = date.get("$numberLong")
    if isinstance(date, str) and date.strip().lstrip("-").isdigit():
        return int(date)
    if date is None:
        raise ValueError(f"not a time: {value!r}")
    return date


def try_time(value: Any) -> datetime | None:
    """Parse like parse_time, but return None for anything unparseable."""
    try:
        return parse_time(value)
    except (ValueError, OverflowError):
        return None


def try_local_time(text: str) -> datetime | None:
    """Read a time as a page prints it for its reader, e.g. `1. 12. 2025 10:00:00 SEČ`.

    When the text does not parse as it is, a trailing zone name that is not known is dropped
    (the time is then taken as UTC), and dates written `day. month. year` are read day first.
    """
    when = _english_page_time(text) or try_time(text)
    if when is not None:
        return when
    words = text.split()
    while words and not any(c.isdigit() for c in words[-1]):
        words.pop()
    rest = " ".join(words)
    if not rest or rest == text.strip():
        return None
    from dateutil import parser

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = parser.parse(rest, dayfirst=bool(_DAY_FIRST.match(rest)), tzinfos=_TZINFOS)
        return _checked(_aware(parsed), text)
    except (parser.ParserError, OverflowError, TypeError, ValueError):
        return None


def _english_page_time(text: str) -> datetime | None:
    """Read Takeout's English `Nov 13, 2025, 9:50:57 AM CST` without dateutil (it is slow)."""
    m = _PAGE_TIME.fullmatch(text.strip())
    if not m or m["zone"] not in _TZINFOS:
        return None
    try:
        local = datetime.strptime(m["clock"], "%b %d, %Y, %I:%M:%S %p")
    except ValueError:
        return None
    return _checked(local.replace(tzinfo=UTC) - timedelta(seconds=_TZINFOS[m["zone"]]), text)


def _free_form(text: str) -> datetime:
    from dateutil import parser  # lazily: only free-form dates need it

    try:
        with warnings.catch_warnings():  # unknown zone names warn; the time is still read
            warnings.simplefilter("ignore")
            return parser.parse(text, tzinfos=_TZINFOS)
    except (parser.ParserError, OverflowError, TypeError) as exc:
        raise ValueError(f"not a time: {text!r}") from exc


def _from_epoch(number: float) -> datetime:
    size = abs(number)
    if size >= 1e17:
        number /= 1e9  # nanoseconds
    elif size >= 1e14:
        number /= 1e6  # microseconds
    elif size >= 1e11:
        number /= 1e3  # milliseconds
    try:
        parsed = datetime.fromtimestamp(number, UTC)
    except (OverflowError, OSError, ValueError) as exc:
        raise ValueError(f"not a time: {number!r}") from exc
    return _checked(parsed, number)


def _aware(value: datetime) -> datetime:
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def _checked(value: datetime, raw: Any) -> datetime:
    if not _MIN_YEAR <= value.year <= _MAX_YEAR:
        raise ValueError(f"time out of range: {raw!r}")
    return value
