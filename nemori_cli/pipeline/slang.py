"""Chat shorthand said in plain words, so a stored fact reads as prose: "my fam" -> "my family".

Only words whose plain form is not in doubt are here ("pup" is a word; "prob" may be
"probably" or "problem"). Asides that say nothing ("lol", "tbh", "ngl") are dropped.
"""

from __future__ import annotations

import re

from nemori_cli.pipeline.contracted import with_is_written_out
from nemori_cli.pipeline.dates import MONTHS, WEEKDAYS
from nemori_cli.pipeline.spoken_years import with_years_in_digits

SHORTHAND = {
    "fam": "family",
    "edu": "education",
    "fave": "favorite",
    "faves": "favorites",
    "fav": "favorite",
    "favs": "favorites",
    "pic": "picture",
    "pics": "pictures",
    "vid": "video",
    "vids": "videos",
    "gonna": "going to",
    "wanna": "want to",
    "kinda": "kind of",
    "sorta": "sort of",
    "bday": "birthday",
    "b-day": "birthday",
    "convo": "conversation",
    "convos": "conversations",
    "rn": "right now",
    "biz": "business",
    "skillz": "skills",
    "b-ball": "basketball",
    "tho": "though",
    "thru": "through",
    "ppl": "people",
    "'cause": "because",
    "cuz": "because",
    "coz": "because",
    "bc": "because",
    "b/c": "because",
    "thx": "thanks",
    "tmrw": "tomorrow",
    "bf": "boyfriend",
    "gf": "girlfriend",
    "bff": "best friend",
    "hubby": "husband",
    "w/": "with",
    "gotta": "have to",  # after "have", "'ve" or "'s": "got to" (_GOT_TO)
    "yr": "year",
    "yrs": "years",
    "hr": "hour",
    "hrs": "hours",
    "wk": "week",
    "wks": "weeks",
    "mths": "months",
}
# "I've gotta" -> "I've got to"; otherwise "I gotta" -> "I have to"
_GOT_TO = re.compile(r"(?:(?<=\bhave )|(?<=\bhas )|(?<='ve )|(?<='s ))gotta\b", re.IGNORECASE)
# ("um", "uh": what voice typing writes down of a pause)
_ASIDE = r"(?:lol|lmao|rofl|haha+|tbh|tbf|ngl|imo|imho|fwiw|btw|omg|to be honest|um+|uh+|uhm|erm)"
# an aside in brackets goes with them; one outside leaves any bracket it ends ("($240, worth
# it tbh)" keeps its ")")
_ASIDES = re.compile(
    rf"\s*\(\s*{_ASIDE}\s*\)|\s*,?\s*\b{_ASIDE}\b(?=[\s,.!?;:)]|$)",
    re.IGNORECASE,
)
# "my knees hurt though", "we moved to Leeds anyway": a contrast with what came before, which a
# fact read alone does not have
_TRAILING = re.compile(r",?\s+\b(?:though|anyway|anyways)\b(?=[\s.!?]*$)", re.IGNORECASE)


def _upper(match: re.Match[str]) -> str:
    """A shorthand capitalised, past a leading apostrophe: "'cause" -> "'Cause"."""
    return match.group(1) + match.group(2).upper()


# lower case or capitalised, not capitals: "RN" is a nurse, "rn" is "right now"
_FORMS = sorted({f for w in SHORTHAND for f in (w, re.sub(r"^('?)(\w)", _upper, w))},
                key=len, reverse=True)
_SHORT = re.compile(
    r"(?<![\w'/-])(?:" + "|".join(re.escape(f) for f in _FORMS) + r")(?![\w/-]|'(?!s\b))"
)  # "pic's" is "picture's"


def _plain(match: re.Match[str]) -> str:
    word = match.group(0)
    plain = SHORTHAND[word.lower()]
    return plain[:1].upper() + plain[1:] if word.lstrip("'")[:1].isupper() else plain


# pictographs a fact read as prose does without: "query is now 4ms 🙏" (not "20°C" or "£")
_EMOJI = re.compile(
    "[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D\U0001F1E6-\U0001F1FF]+\\s*"
)


def plain_words(sentence: str) -> str:
    """Say chat shorthand in plain words and drop empty asides: "my fam, lol" -> "my family",
    "my knees hurt tho" -> "my knees hurt"."""
    text = _GOT_TO.sub("got to", sentence)
    text = _SHORT.sub(_plain, text)
    text = _TRAILING.sub("", _ASIDES.sub("", _EMOJI.sub("", text))).strip()
    return re.sub(r"^[\s,;:-]+", "", text)


# typed without the apostrophe or the capital: "im vegetarian", "i dont eat meat"; only forms
# that are seldom another word ("ill", "id", "its", "wont", "hes" are words, and stay)
APOSTROPHES = {
    "i": "I", "im": "I'm", "ive": "I've", "dont": "don't", "didnt": "didn't",
    "doesnt": "doesn't", "isnt": "isn't", "wasnt": "wasn't", "arent": "aren't",
    "werent": "weren't", "havent": "haven't", "hasnt": "hasn't", "couldnt": "couldn't",
    "wouldnt": "wouldn't", "shouldnt": "shouldn't", "whats": "what's", "thats": "that's",
    "theres": "there's", "youre": "you're", "theyre": "they're", "cant": "can't",
    "whos": "who's", "wheres": "where's", "heres": "here's", "weve": "we've", "youve": "you've",
    "theyve": "they've", "wouldve": "would've", "couldve": "could've", "shouldve": "should've",
    # the apostrophe typed but not the capital: "i'm into architecture", "i’ve been"
    **{f"i{q}{end}": f"I{q}{end}" for q in "'’" for end in ("m", "ve", "d", "ll")},
}
# a phone capitalises a sentence's first letter: "Im a nurse", "Dont worry", "Ive been"
APOSTROPHES |= {k.capitalize(): v[0].upper() + v[1:] for k, v in APOSTROPHES.items() if k != "i"}
_BARE = re.compile(r"(?<![\w'’-])(?:" + "|".join(sorted(APOSTROPHES, key=len, reverse=True))
                   + r")(?![\w'’-]|\.\w)")  # not the "i" of "i.e."


# "id", "ill" and "its" are words too: each is the short form only before a word that cannot
# follow the word ("id love to", "ill be late", "its not far"; not "my id card", "ill health",
# "its own", "its late")
_AFTER_MODAL = (
    r"be|have|like|love|rather|prefer|say|go|get|do|try|need|want|take|make|bet|guess|imagine"
    r"|hate|recommend|suggest|appreciate|see|let|send|check|start|keep|tell|ask|call|buy|bring"
    r"|give|look|use|pick|stick|stay|come|finish|pay|book|probably|definitely|never|always|just"
    r"|also|still|really|totally|gladly|happily"
)
_MODALS = re.compile(rf"(?<![\w'’-])(id|ill)(?= (?:{_AFTER_MODAL})\b)")
# "felt ill just before the race", "my id just expired": the word itself
_NOT_MODAL = re.compile(
    r"\b(?:feel|feels|feeling|felt|fell|fall|falling|was|were|is|am|are|been|be|get|got"
    r"|getting|so|very|too|quite|seriously|terminally|mentally|critically|taken|looks?|looked"
    r"|the|my|your|his|her|our|their|an?|this|that|its|user|photo|apple|steam)\W*$",
    re.IGNORECASE,
)
_IT_IS = re.compile(
    r"(?<![\w'’-])its(?= (?:a|an|the|my|your|our|their|so|not|been|just|really|too|getting"
    r"|going|gonna|also|still|always|never|probably|definitely|quite|super|actually|literally"
    r"|because|what|no|nothing|something|finally|like)\b)"
)


def with_apostrophes(text: str) -> str:
    """Restore the apostrophes and the capital I of casual typing: "im sure i cant" -> "I'm
    sure I can't", "id love to" -> "I'd love to", "Im" -> "I'm" ("IM", "Id", "Ill" and "Its"
    are left alone)."""
    text = _MODALS.sub(
        lambda m: m.group(1) if _NOT_MODAL.search(m.string[: m.start()])
        else {"id": "I'd", "ill": "I'll"}[m.group(1)],
        text,
    )
    text = _IT_IS.sub(
        lambda m: "It's" if re.search(r"(?:^|[.!?]\s+)$", m.string[: m.start()]) else "it's", text
    )
    return _BARE.sub(lambda m: APOSTROPHES[m.group(0)], text)


# the days, months and feasts casual typing leaves in lower case: "in february" -> "in February";
# "may" and "march" only where they are the month ("in may", "march 3rd"), not "I may"
_MONTHS = [m for m in MONTHS if m not in {"may", "march"}]
_FEASTS = ["christmas", "easter", "halloween", "thanksgiving", "ramadan", "diwali", "hanukkah"]
_CALENDAR = re.compile(
    rf"(?<![\w'-])(?:(?:{'|'.join(WEEKDAYS)})s?|{'|'.join(_MONTHS + _FEASTS)})(?![\w'-])"
)
_MAY_MARCH = re.compile(
    r"\b(?:(?<=in )|(?<=since )|(?<=until )|(?<=till )|(?<=by )|(?<=early )|(?<=late )"
    r"|(?<=mid-)|(?<=of )|(?<=next )|(?<=last )|(?<=this ))(?:may|march)\b"
    r"|\b(?:may|march)(?= \d{1,2}(?:st|nd|rd|th)?\b)"
)


def with_calendar_capitals(text: str) -> str:
    """Capitalise the names of days, months and feasts typed in lower case: "on monday in
    february" -> "on Monday in February"."""
    text = _CALENDAR.sub(lambda m: m.group(0).capitalize(), text)
    return _MAY_MARCH.sub(lambda m: m.group(0).capitalize(), text)


# "my 3yo", "a 5 y/o daughter": an age as chat shortens it ("is 7yo" is "is 7 years old")
_AGE = re.compile(r"\b(\d{1,3}) ?(?:yo|y/o|y\.o\.?)(?![\w/])", re.IGNORECASE)
_TOLD_AGE = re.compile(r"\b(?:is|am|are|was|were|'s|turned|turns|turning|now)\s*$", re.IGNORECASE)


def with_ages_written_out(text: str) -> str:
    """Write out a shortened age: "my 3yo" -> "my 3-year-old", "she's 7 y/o" -> "she's 7
    years old"."""
    return _AGE.sub(
        lambda m: f"{m[1]} years old" if _TOLD_AGE.search(m.string[: m.start()])
        else f"{m[1]}-year-old",
        text,
    )


# "Myself Priya, I am doing job in Pune": the name said as Indian English says it
_MYSELF = re.compile(r"(^|[.!?]\s+)Myself ([A-Z][a-z]+)\b,?(?= )")


def as_typed_out(text: str) -> str:
    """Casual typing made plain before a message is read: its apostrophes, capital I, days,
    months, ages, years said in words and a person's "'s" that is "is" ("im off to paris in
    june with my 3yo", "my wife's vegan", "married in nineteen seventy eight")."""
    text = with_calendar_capitals(with_apostrophes(with_ages_written_out(
        with_years_in_digits(_MYSELF.sub(r"\1My name is \2.", text)))))
    return with_is_written_out(text)
