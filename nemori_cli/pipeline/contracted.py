"""A person's "'s" that is "is" or "has" written out: "my husband's allergic to nuts" -> "my
husband is allergic to nuts", so a fact does not read "The user's husband's allergic".

Only after "my", "our", "his", "her", "their" (or Mom, Dad) and only where the word after the
"'s" cannot start the thing owned ("my sister's wedding", "my mom's cooking is the best" stay).
"""

from __future__ import annotations

import re

from nemori_cli.pipeline.kin import is_or_has
from nemori_cli.pipeline.rewrite import word_set

_OWNER = re.compile(
    r"(?<![\w'’-])(?:(?:my|our|his|her|their) (?:[a-z-]+ ){0,2}[a-z-]+|mom|mum|dad|grandma|grandpa)"
    r"['’]s (?=([\w-]+)(?: ([\w-]+))?)",
    re.IGNORECASE,
)
# the owner opens a clause ("My wife's vegan", "and my son's a picky eater", "I think my
# dad's retired"), so "I love my son's music" is no statement of the son
_CLAUSE_OPENS = re.compile(
    r"(?:^|[.!?,;:(]\s*|\s[—–-]+\s*|\b(?:and|but|so|or|because|cause|cos|bc|since|as|while"
    r"|when|if|though|although|that|think|guess|know|now|plus|also|btw|fyi|oh|well|yeah|ok"
    r"|okay|hi|hey|hello)\s+)$",
    re.IGNORECASE,
)
_HAS = word_set("been got gotten")
# words that begin what is said of someone, never the thing owned
_STARTS_PREDICATE = word_set(
    "a an the not no so very really super quite too always never still also just now "
    "currently finally actually already gonna going in at on from into away back home out off "
    "over here there like more less all about due with without totally completely such "
    "lactose"
)
# what may end a predicate ("allergic to nuts", "vegetarian and", "retired now")
_ENDS_PREDICATE = word_set(
    "and but so or to of about with for by in at on from that now too again lately already as "
    "after since because though anymore these this yet than"
)
_ADJECTIVES = word_set(
    "vegetarian vegan pregnant sick busy older younger fine okay ok single gay straight "
    "coeliac celiac deaf blind sober bilingual fluent"
)
_ING_NOUNS = word_set(
    "wedding building morning evening ring thing king spring string sibling ceiling pudding "
    "stuffing darling clothing painting drawing meeting cooking baking writing reading "
    "singing offspring earring swing wing"
)
# after these the words before were the subject: "my mom's home is in Ohio"
_FINITE = word_set(
    "is was are were has had have will would can could does did isn't wasn't won't own"
)


def is_predicate(first: str, second: str | None) -> bool:
    """Whether the words after "'s" begin what is said of the person (not a thing of theirs)."""
    first, after = first.lower(), (second or "").lower()
    if after in _FINITE:
        return False
    if first in _HAS or first in _STARTS_PREDICATE or (first in ("kind", "sort") and after == "of"):
        return True
    if first.endswith("ing"):
        # "My mom's cooking and baking": the thing owned, listed
        return bool(second) and first not in _ING_NOUNS and after not in ("and", "or", "but")
    adjective = (first in _ADJECTIVES or first.endswith(("ic", "ous"))
                 or (len(first) >= 6 and first.endswith("ed")))
    return adjective and (not second or after in _ENDS_PREDICATE)


def with_is_written_out(text: str) -> str:
    """ "my wife's vegetarian and my son's a picky eater" -> "my wife is vegetarian and my son
    is a picky eater"; "my wife's car" and "my mom's cooking is great" stay."""
    def written(m: re.Match[str]) -> str:
        named = m[0][:-3].lower().endswith("name")  # "my name's Sam"
        if not _CLAUSE_OPENS.search(text[: m.start()]) or not (named or is_predicate(m[1], m[2])):
            return m[0]
        return f"{m[0][:-3]} {is_or_has(text[m.end():].split()[:6])} "
    return _OWNER.sub(written, text)
