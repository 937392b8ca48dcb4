"""Chat shorthand said in plain words, so a stored fact reads as prose: "my fam" -> "my family".

Only words whose plain form is not in doubt are here ("pup" is a word; "prob" may be
"probably" or "problem"). Asides that say nothing ("lol", "tbh") are dropped.
"""

from __future__ import annotations

import re

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
    "bf": "boyfriend",
    "gf": "girlfriend",
    "bff": "best friend",
    "hubby": "husband",
    "w/": "with",
    "gotta": "have to",  # after "have", "'ve" or "'s": "got to" (_GOT_TO)
}
# "I've gotta" -> "I've got to"; otherwise "I gotta" -> "I have to"
_GOT_TO = re.compile(r"(?:(?<=\bhave )|(?<=\bhas )|(?<='ve )|(?<='s ))gotta\b", re.IGNORECASE)
_ASIDES = re.compile(
    r"\s*[,(]?\s*\b(?:lol|lmao|rofl|haha+|tbh|imo|imho|btw|omg|to be honest)\b\s*\)?"
    r"(?=[\s,.!?;:]|$)",
    re.IGNORECASE,
)


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


def plain_words(sentence: str) -> str:
    """Say chat shorthand in plain words and drop empty asides: "my fam, lol" -> "my family"."""
    text = _GOT_TO.sub("got to", sentence)
    text = _SHORT.sub(_plain, text)
    text = _ASIDES.sub("", text).strip()
    return re.sub(r"^[\s,;:-]+", "", text)
