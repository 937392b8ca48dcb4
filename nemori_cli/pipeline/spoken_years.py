"""A year said in words, as voice typing writes it ("our wedding from nineteen seventy eight",
"I retired in twenty nineteen"), written in digits so that dates and searches read it."""

from __future__ import annotations

import re

_UNITS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_TEENS = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_VALUES = {**{w: i + 1 for i, w in enumerate(_UNITS)}, **{w: i + 10 for i, w in enumerate(_TEENS)},
           **{w: (i + 2) * 10 for i, w in enumerate(_TENS)}}
_UNIT = "|".join(_UNITS)
# the last two digits: "seventy eight", "seventy-eight", "fifteen", "oh five", "ninety"
_PAIR = rf"(?:(?:{'|'.join(_TENS)})(?:[- ](?:{_UNIT}))?|{'|'.join(_TEENS)}|oh (?:{_UNIT}))"
# only after a word that puts a time before it: "twenty twenty" alone may be eyesight
_YEAR = re.compile(
    rf"\b(?P<before>(?:in|from|since|of|until|till|to|through|by|around|and|or) )"
    rf"(?:(?P<century>nineteen|twenty) (?P<pair>{_PAIR})"
    rf"|two thousand(?: and)?(?: (?P<rest>{_PAIR}|{_UNIT}))?)\b(?![- ](?:{_UNIT}|hundred)\b)",
    re.IGNORECASE,
)


def two_digits(words: str) -> int:
    """The number two words or one say: "seventy eight" -> 78, "oh five" -> 5."""
    return sum(_VALUES.get(w, 0) for w in re.split(r"[- ]", words.lower()))


def with_years_in_digits(text: str) -> str:
    """The text with each year said in words after "in", "since", "from" ... in digits."""
    def year(m: re.Match[str]) -> str:
        if m["century"]:
            value = (19 if m["century"].lower() == "nineteen" else 20) * 100 + two_digits(m["pair"])
        else:
            value = 2000 + (two_digits(m["rest"]) if m["rest"] else 0)
        return f"{m['before']}{value}"

    return _YEAR.sub(year, text)
