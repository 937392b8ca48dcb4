"""A place the speaker named, then called "there" or "this city": the sentence is about it.

"Have you been to Italy? I had a blast there last month." says that the speaker had a blast
in Italy; read alone, "had a blast there" is about nowhere. A sentence that says "there",
"this city" or opens on "It's one of my favourite cities" takes the one place the sentences
before it in the message name ("went to Italy", "I was in Chicago", "It's Seattle"), or
else the message before it ("Have you been to Kyoto?" "I've never been there."); two
places, or none, leave it as said, and so do "there is", "out there" and "there for me".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from nemori_cli.pipeline.dates import MONTHS
from nemori_cli.pipeline.rewrite import word_set

# a capitalised name of up to three words ("Rio de Janeiro"), or a common abbreviation
_NAME = (r"(?-i:UK|USA?|UAE|NYC|LA|DC|SF"
         r"|[A-Z][a-z]+(?:[ -](?:(?:de|del|da|do|la|of|upon) )?[A-Z][a-z]+){0,2})")
# "went to Italy", "visited Lisbon", "I was in Chicago", "back from Japan", "It's Seattle";
# "from Phoenix to Tucson", "to Rome and then to Florence": two places
_NAMED = re.compile(
    r"\b(?:(?:been|went|go|goes|going|gone|moved?|moving|travell?(?:ed|ing)?|flew|fly|flying"
    r"|drove|drive|driving|head(?:ed|ing)?|trips?|back|return(?:ed|ing)?|visit(?:ed|ing)?"
    r"|vacation|holiday) (?:back |over |out )?(?:to |in )?|\b(?:in|from) )(?P<the>the )?"
    rf"(?P<place>{_NAME})\b(?!'s| \d)"
    r"(?:(?:,? (?:and|or|&)(?: then)? (?:to )?|,? then (?:to )?| to |, )(?:the )?"
    rf"(?P<more>{_NAME}))?"
    rf"|^(?:it|this|that)(?:'s| is| was) (?P<shown>{_NAME})\b(?!'s)",
    re.IGNORECASE,
)
# "a chapter in Dune", "a scene in Inception": a title, not a place
_TITLED = re.compile(r"\b(?:chapter|scene|episode|article|character|role|season|book|song|line"
                     r"|quote|level|mode)\s+in\s+$", re.IGNORECASE)
NOT_PLACES = word_set(
    " ".join(MONTHS) + " monday tuesday wednesday thursday friday saturday sunday i mom dad "
    "english spanish french german italian chinese japanese christmas easter halloween "
    "thanksgiving spring summer autumn fall winter god grade"
)
_MOTION = (r"been|go|goes|going|gone|went|get|got|getting|moved?|moving|travell?(?:ed|ing)?"
           r"|flew|fly|flying|drove|drive|driving|head(?:ed|ing)?|trips?|come|came|coming|back"
           r"|return(?:ed|ing)?|way")
_MOTION_WORD = re.compile(_MOTION, re.IGNORECASE)
# "there" of a place: "the food there", "anyone there", "went there", "been there for a
# month", "from there", "had a blast there"; not "there is", "is there ...?", "out there",
# "there for me", "not there yet", "almost there", "here and there", "hang in there",
# "been there, done that", "still getting there"
_THERE = re.compile(
    r"\b(?P<noun>(?:(?:the|a|an|my|our|their|some|every) [a-z]+|(?:no|every|some|any)"
    r"(?:thing|one|body)) )there\b(?!')"
    r"|\b(?P<stayed>been) there\b(?=\s+(?:for|since|ever since|a while|now)\b)"
    rf"|(?<!\bstill )(?<!\bslowly )\b(?P<motion>{_MOTION}) there\b(?!'|,? done that)"
    r"|(?P<from>\bfrom )there\b(?!')"
    # "dreamed of visiting there", "stop by there": the place itself, with no "in"
    r"|\b(?P<bare>(?:visit(?:s|ed|ing)?|explor(?:e|es|ed|ing)|by|near|around) )there\b(?!')"
    r"|(?<!\bout )(?<!\bover )(?<!\bup )(?<!\bin )(?<!\bnot )(?<!n't )(?<!\bwe )(?<!\balmost )"
    r"(?<!\bnearly )(?<!\band )(?<!\bgetting )(?<!^is )(?<!^are )(?<!^was )(?<!^were )"
    r"\bthere\b(?!'|,? done that|\s+(?:is|are|was|were|will|would|has|have|had|must|might|may"
    r"|could|should|seems?|goes|you|and back|for (?:me|you|him|her|us|them|each other|my"
    r"|our|his|their|your|people|others|everyone))\b)",
    re.IGNORECASE,
)
_THIS_PLACE = re.compile(r"\b(?:this|that) (?:city|town|country|island|state|village|region)\b",
                         re.IGNORECASE)
_IT_OPENING = re.compile(r"^It(?:'s| is| was)\b(?=.*\b(?:city|cities|town|towns|country"
                         r"|countries|island|islands|place|places|spot|spots)\b)")


def with_places(sentences: list[str], before: Sequence[str] = ()) -> list[str]:
    """Each sentence with its "there" and "this city" said of the one place named before it:
    in the message, or else in the message before (`before`: the places that one names)."""
    out: list[str] = []
    places: list[str] = []  # distinct places named so far in the message
    named: list[str] = []  # those the sentence before names
    for sentence in sentences:
        known = places or before
        own = named_in(sentence)  # "I went to Osaka and stayed there": not the place before
        place = known[0] if len(known) == 1 and set(own) <= set(known) else None
        if place:
            sentence = placed(sentence, place, opening=place in named)
        named = named_in(sentence) if place else own
        places += [p for p in named if p not in places]
        out.append(sentence)
    return out


def says_there(text: str) -> bool:
    """Whether a text says "there" or "this city" at all (else no place before it matters)."""
    return bool(re.search(r"\bthere\b", text, re.IGNORECASE) or _THIS_PLACE.search(text))


def places_named(sentences: Sequence[str]) -> list[str]:
    """The distinct places a message's sentences name, in order."""
    return list(dict.fromkeys(p for sentence in sentences for p in named_in(sentence)))


def named_in(sentence: str) -> list[str]:
    """The places a sentence names ("went to Italy", "in Chicago"), in order."""
    found = []
    for m in _NAMED.finditer(sentence):
        if m["place"] and _TITLED.search(sentence[: m.start("place") - len(m["the"] or "")]):
            continue
        found.append(f"{m['the'] or ''}{m['place']}" if m["place"] else m["shown"])
        if m["more"]:  # "to Paris and Rome": two places, so "there" is neither
            found.append(m["more"])
    return list(dict.fromkeys(
        p for p in found if p.removeprefix("the ").split()[0].lower() not in NOT_PLACES
    ))


def placed(sentence: str, place: str, opening: bool) -> str:
    """The sentence with "there" and "this city" made the place (and "It's one of my favourite
    cities" too, when the sentence just before named it)."""
    def there(m: re.Match[str]) -> str:
        if m["noun"]:  # "the food there", "a trip there"
            to = "to" if _MOTION_WORD.fullmatch(m["noun"].split()[-1]) else "in"
            return f"{m['noun']}{to} {place}"
        if m["stayed"]:  # "been there for a month": stayed in it
            return f"{m['stayed']} in {place}"
        if m["motion"]:
            return f"{m['motion']} to {place}"
        if m["bare"]:
            return f"{m['bare']}{place}"
        return f"from {place}" if m["from"] else f"in {place}"

    sentence = _THIS_PLACE.sub(place, _THERE.sub(there, sentence))
    m = _IT_OPENING.match(sentence) if opening else None
    if m:  # "It's one of my favourite cities" -> "Seattle is one of my favourite cities"
        sentence = f"{place} {'was' if m[0].endswith('was') else 'is'}{sentence[m.end():]}"
    return sentence
