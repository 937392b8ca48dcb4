"""What a user lists under "About me:" read as their own statements, as if said whole.

People paste a short profile before a request ("Some background about me:" then "- 29,
software dev", "- live in Austin", "- vegetarian", "- Diet: no pork"). Each item drops its
"I": a verb's item is "I live in Austin", a person's "I'm a nurse", a thing had "I have two
kids", a label's "My diet is no pork", anything else "I'm vegetarian". Items written of the
user ("Lives in Lisbon", "User is vegetarian", "The user's sister lives in Lyon": a profile in
the third person, as ChatGPT's memory keeps it) are said in the first person.
"""

from __future__ import annotations

import re

from nemori_cli.pipeline.clauses import OWN_OPENING
from nemori_cli.pipeline.rewrite import capitalised, is_past, word_set
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
_INLINE = re.compile(r"^(?:about me|me|my (?:background|profile|situation|details))"
                     r"\s*(?::|\s[-–])\s*(?P<item>\S.*)$", re.IGNORECASE)
# a field of the user's own typed into a request: "My budget: around 2000 euros"
_OWN_FIELD = re.compile(
    r"^my (?P<label>(?:current |main |weekly |monthly |daily )?(?:experience|budget|goals?|skills?"
    r"|age|job|role|location|diet|kids|children|family|level|schedule|allergies|height|weight"
    r"|hobbies|interests|stack|setup|availability|degree|salary|income|rent|commute|car"
    r"|partner|wife|husband|dog|cat|pets?))\s*:\s*(?P<value>\S.*)$",
    re.IGNORECASE,
)
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
# verbs whose "-s" form opens an item written of the user ("Designs websites"), though their
# plain form would open a noun ("design lead")
_THIRD_VERBS = VERBS | word_set(
    "plan attend follow support collect practice practise volunteer struggle suffer take keep "
    "watch listen value avoid dislike lift bake manage lead rent commute identify find wish hope "
    "believe think spend aim try seek mentor coach tutor create build develop design research "
    "operate host organize organise raise wear meditate visit"
)
_AIMS = word_set("get become lose gain finish save buy move pass switch start improve reach land "
                 "launch retire quit sell open grow earn")
_BE_HAVE = {"is": "am", "has": "have", "does": "do", "was": "was", "had": "had",
            "isn't": "am not", "doesn't": "don't", "hasn't": "haven't", "wasn't": "wasn't",
            "didn't": "didn't", "can": "can", "can't": "can't", "cannot": "cannot",
            "will": "will", "won't": "won't", "would": "would", "should": "should"}
_ADVERBS = word_set(
    "also often usually recently currently now really mostly sometimes still always never "
    "frequently regularly typically generally primarily mainly occasionally already"
)
_THE_USER = re.compile(r"^(?:the )?user(?P<owned>'s?)?\s+(?=\S)", re.IGNORECASE)
# an item that opens on someone else: "Sam is a nurse", "He leads a team", "His son is 7"
_SOMEONE = re.compile(r"^(?:[A-Z][\w'-]*(?: [A-Z][\w'-]*)? (?:is|was|has|had)\b"
                      r"|(?i:he|she|they|it|his|her|their|its|this|that)\b)")
_USERS = re.compile(r"\b(?:the )?user's\b", re.IGNORECASE)
_THEIR = re.compile(r"\b(?:their|theirs|themselves)\b")


def as_said(item: str) -> str:
    """One listed item as the user would say it whole: "live in Austin" -> "I live in
    Austin.", "a nurse" -> "I'm a nurse.", "two kids" -> "I have two kids."."""
    item = item.strip().rstrip(".;,")
    item = first_person(item) or item  # written of the user: "Lives in Lisbon" -> "I live ..."
    if _SOMEONE.match(item):  # "Priya is the user's manager" -> "Priya is my manager"
        return f"{capitalised(_USERS.sub('my', item))}."
    if not item or _OWN.match(item) or _THE_USER.match(item):
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


def first_person(item: str) -> str | None:
    """An item written of the user said by them ("User is vegetarian" -> "I am vegetarian",
    "Lives in Lisbon" -> "I live in Lisbon", "The user's sister ..." -> "My sister ..."), or
    None when it is not written of them."""
    if m := _THE_USER.match(item):
        rest = item[m.end() :]
        if m["owned"]:
            return f"My {rest}"
        words = rest.split(" ")
        verb = next((i for i, w in enumerate(words) if w.lower() not in _ADVERBS), len(words))
        plain = base_form(words[verb]) if verb < len(words) else None
        if plain is None and not (verb < len(words) and is_past(words[verb])):
            return None  # "User directive for ...": not a sentence of what the user does
        if plain is not None:
            words[verb] = plain
        return _THEIR.sub(lambda t: {"their": "my", "theirs": "mine"}.get(t[0], "myself"),
                          "I " + " ".join(words))
    first, _, rest = item.partition(" ")
    plain = base_form(first)
    if plain is None or not (first.lower() in _BE_HAVE or plain in _THIRD_VERBS):
        return None
    return f"I {plain} {rest}".rstrip()


def base_form(verb: str) -> str | None:
    """The first person's form of a third person's verb ("lives" -> "live", "is" -> "am",
    "studies" -> "study"), or None when the word is no such verb."""
    lower = verb.lower()
    if lower in _BE_HAVE:
        return _BE_HAVE[lower]
    if not lower.isalpha() or not lower.endswith("s") or lower.endswith(("ss", "us", "is")):
        return None
    if lower.endswith("ies") and len(lower) > 4:
        return lower[:-3] + "y"
    if lower.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return lower[:-2]
    return lower[:-1]


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
    """The sentences with each item listed under an "About me:" heading said whole, and a
    field of the user's own ("My budget: ...") said as a sentence."""
    return [said for s, item in listed(sentences) if (said := as_said(s) if item else own_field(s))]


def own_field(sentence: str) -> str:
    """"My budget: around 2000 euros" -> "My budget is around 2000 euros"; else as it is."""
    m = _OWN_FIELD.match(sentence.strip())
    if m is None:
        return sentence
    plural = m["label"].endswith(("s", "children")) and not m["label"].endswith("ss")
    first = m["value"].split(maxsplit=1)[0].lower()
    to = "to " if first in _THIRD_VERBS or first in _AIMS else ""  # "My goal: run ..."
    return f"My {m['label'].lower()} {'are' if plural else 'is'} {to}{m['value']}"


def items_listed(text: str) -> int:
    """How many items a message lists under an "About me:" heading."""
    return sum(item for _, item in listed(text.splitlines())) if ":" in text else 0
