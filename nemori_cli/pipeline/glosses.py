"""A name the speaker glosses as theirs: "Biscuit (our border terrier) dug up the carrots".

The gloss says who or what the name is, a lasting fact whatever the rest of the sentence
says, and one that a question asks in other words ("What's our dog called?"). It is stated
on its own ("Our border terrier is called Biscuit."); a gloss of family is also put before
the name in the sentence, so that what the sentence says stays the speaker's: "Marcus, my
youngest, is allergic" -> "My youngest Marcus is allergic".
"""

from __future__ import annotations

import re

from nemori_cli.pipeline.dates import MONTHS, WEEKDAYS
from nemori_cli.pipeline.kin import FEMALE, MALE
from nemori_cli.pipeline.rewrite import word_set

# "Biscuit (our border terrier, a complete menace) ...", "Tom, my manager, ..."
_GLOSS = re.compile(
    r"(?<![\w'])(?P<name>[A-Z][a-z]+)(?:(?P<paren>\s*\(\s*)|,\s+)(?P<own>my|our)\s+"
    r"(?P<what>[a-z-]+(?: [a-z-]+){0,2}?)\s*(?P<end>[,)])"
)
# "my boss, Karen, asked ...", "I adopted our dog, Rex.": the name after its gloss (not a list:
# "my sister, Tom and Anna came", "my sister, Tom, and Anna"; not one of many, "one of my
# students, Mia, has ADHD")
_NAME_AFTER = re.compile(
    r"(?<![\w'])(?<!\bof )(?P<own>my|our)\s+(?P<what>[a-z-]+(?: [a-z-]+){0,2}?),\s+"
    r"(?P<name>[A-Z][a-z]+)"
    r"(?=(?P<verb>,\s+(?:is|was|has|had|keeps|just|always|never|still)\b)?)"
    r"(?=\s*[,)](?!\s*(?:and|or)\b)|\s*[.!?]*\s*$)"
)
# "Priya is my manager", "Biscuit's our dog": a sentence that says whose the name is
_IS_MINE = re.compile(
    r"^(?P<name>[A-Z][a-z]+)(?: is|'s) (?P<own>my|our) (?P<what>[a-z-]+(?: [a-z-]+){0,2}?)"
    r"(?=\s*(?:[,.!;]|\b(?:and|who|which|from|since)\b|$))"
)
_REST_OF_PAREN = re.compile(r"[^)]*\)\s*")
# the speaker's own people: what is said of them is said of the speaker's life ("Marcus, my
# youngest, is allergic to peanuts"); of a manager or a nurse, it is theirs
_FAMILY = FEMALE | MALE | word_set(
    "kid kids child children baby toddler twin youngest eldest oldest middle partner dog cat "
    "puppy pup kitten pet"
)
# whom a name after a gloss may be: "my business, Jon." is more often said to Jon
_PEOPLE = _FAMILY | word_set(
    "boss manager colleague coworker co-worker neighbour neighbor teacher doctor therapist "
    "landlord landlady roommate flatmate housemate mentor coach client trainer vet dentist tutor "
    "bf gf cousin"
)
# capitalised words that open a sentence, greet or date it ("Last Tuesday, my gf ..."): no names
_NOT_NAMES = frozenset(WEEKDAYS) | frozenset(MONTHS) | word_set(
    "hey hi hello thanks thank yes yeah yep no nope well oh wow sorry so and but or honestly "
    "seriously okay ok sure right also anyway actually plus then now today yesterday tomorrow "
    "lol haha omg dear congrats this that it he she there here who what which"
)
# "my goodness", "my bad", "my friend" said to the listener: no gloss of a name
_NOT_GLOSSES = frozenset(
    {"goodness", "god", "gosh", "bad", "pleasure", "dear", "friend", "dear friend", "word", "lord"}
)


def glossed(sentence: str) -> tuple[str, list[str]]:
    """The sentence with each gloss of family before its name, and every gloss as a
    sentence."""
    glosses: list[str] = []
    out, start = [], 0
    for m in _GLOSS.finditer(sentence):
        what = m["what"]
        if m["name"].lower() in _NOT_NAMES or what in _NOT_GLOSSES:
            continue
        glosses.append(f"{m['own'].capitalize()} {what} is called {m['name']}.")
        end = m.end()
        if m["paren"] and m["end"] == ",":  # the rest of the aside goes with it
            rest = _REST_OF_PAREN.match(sentence, end)
            end = rest.end() if rest else end
        if what.split()[-1] not in _FAMILY:
            continue
        own = m["own"].capitalize() if m.start() == 0 else m["own"]
        out += [sentence[start:m.start()], f"{own} {what} {m['name']} "]
        start = end
    if (mine := _IS_MINE.match(sentence)) and mine["name"].lower() not in _NOT_NAMES:
        whom = mine["what"].split()[-1]  # "my older sister", "my brother-in-law"
        if {whom, whom.split("-")[0]} & (_PEOPLE | {"friend"}):
            glosses.append(f"{mine['own'].capitalize()} {mine['what']} is called {mine['name']}.")
    for m in _NAME_AFTER.finditer(sentence):
        # "my starter, Gaston, has been sluggish": a verb after, so no one is spoken to
        if m["name"].lower() not in _NOT_NAMES and (m["verb"] or m["what"].split()[-1] in _PEOPLE):
            glosses.append(f"{m['own'].capitalize()} {m['what']} is called {m['name']}.")
    if not out:
        return sentence, glosses
    out.append(sentence[start:].lstrip())
    return "".join(out).replace(" ,", ","), glosses
