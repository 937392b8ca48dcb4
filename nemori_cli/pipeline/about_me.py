"""What a user lists under "About me:" read as their own statements, as if said whole.

People paste a short profile before a request ("Some background about me:" then "- 29,
software dev", "- live in Austin", "- vegetarian", "- Diet: no pork"). Each item drops its
"I": a verb's item is "I live in Austin", a person's "I'm a nurse", a thing had "I have two
kids", a label's "My diet is no pork", anything else "I'm vegetarian".
"""

from __future__ import annotations

import re

from nemori_cli.pipeline.clauses import OWN_OPENING
from nemori_cli.pipeline.rewrite import capitalised, word_set
from nemori_cli.pipeline.roles import is_person
from nemori_cli.pipeline.subject import restore_subject

_HEADING = re.compile(
    r"^(?:(?:some|a (?:bit|little)|quick|brief|short)\s+)?(?:background|context|info"
    r"|information|details|facts)?\s*(?:about|on)\s+(?:me|myself)\s*:?$"
    r"|^(?:about me|my (?:background|profile|situation|details|context)|a bit of background)"
    r"\s*:?$",
    re.IGNORECASE,
)
# "Me: 35M, 180cm, 90kg", "About me - vegan, two kids": the heading and its item on one line
_INLINE = re.compile(r"^(?:about me|me)\s*(?::|\s[-–])\s*(?P<item>\S.*)$", re.IGNORECASE)
_BULLET = re.compile(r"^\s*(?:[-*•·–]|\d{1,2}[.)])\s+")
_NUMBER = re.compile(r"^\s*(?:[-*•·–]|\d{1,2}[.)])$")  # a marker alone: "1." split off, "-" empty
_OWN = re.compile(rf"^{OWN_OPENING}", re.IGNORECASE)
_LABELLED = re.compile(r"^(?P<label>[A-Za-z][A-Za-z ]{1,20}):\s*(?P<value>\S.*)$")
_HAD = re.compile(r"^(?:\d+|two|three|four|five|six|a|an|one)\s+(?P<noun>[a-z-]+)", re.IGNORECASE)
VERBS = word_set(
    "live work love like enjoy hate have own play speak run cook study teach drive ride prefer "
    "eat drink use know read write walk cycle swim travel go do make need want care hike climb "
    "paint sing dance"
)


def as_said(item: str) -> str:
    """One listed item as the user would say it whole: "live in Austin" -> "I live in
    Austin.", "a nurse" -> "I'm a nurse.", "two kids" -> "I have two kids."."""
    item = item.strip().rstrip(".;,")
    if not item or _OWN.match(item):
        return f"{capitalised(item)}." if item else ""
    if m := _LABELLED.match(item):
        return f"My {m['label'].lower()} is {m['value']}."
    head = capitalised(item)
    if (restored := restore_subject(head)) != head:
        return f"{restored}."
    first = item.split(maxsplit=1)[0].lower()
    if first in VERBS:
        return f"I {item}."
    if (m := _HAD.match(item)) and not is_person(f"a {m['noun']}"):
        return f"I have {item}."
    return f"I'm {item}."


def listed(sentences: list[str]) -> list[tuple[str, bool]]:
    """Each sentence with whether it is an item listed under an "About me:" heading (its
    bullet or number taken off)."""
    out: list[tuple[str, bool]] = []
    listing = numbered = False
    for sentence in sentences:
        if listing and _NUMBER.match(sentence):
            numbered = True  # "1." split off as a sentence of its own: an item may follow
            continue
        bullet = _BULLET.match(sentence)
        if listing and (bullet or numbered):
            out.append((sentence[bullet.end() :] if bullet else sentence, True))
            numbered = False
            continue
        listing, numbered = bool(_HEADING.match(sentence.strip())), False
        if inline := _INLINE.match(sentence.strip()):
            out.append((inline["item"], True))
        elif not listing:
            out.append((sentence, False))
    return out


def with_about_me(sentences: list[str]) -> list[str]:
    """The sentences with each item listed under an "About me:" heading said whole."""
    return [said for s, item in listed(sentences) if (said := as_said(s) if item else s)]


def items_listed(text: str) -> int:
    """How many items a message lists under an "About me:" heading."""
    return sum(item for _, item in listed(text.splitlines())) if ":" in text else 0
