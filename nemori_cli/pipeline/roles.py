"""What a speaker says they are in passing: "As a teacher, I need ideas" -> "I'm a teacher."."""

from __future__ import annotations

import re

from nemori_cli.pipeline.rewrite import word_set

# "As a nurse, I ...", "Being a lifelong Arsenal fan, my ...", "As someone who hates crowds, ...",
# "As a freelance photographer I charge ..." (no comma: the speaker opens what follows)
_AS_ROLE = re.compile(
    r"^\W*(?:as|being) (?P<role>(?:an?|someone|somebody|a person) [^,;:.!?]{1,60}?)"
    r"(?:\s*,\s*|\s+(?=(?-i:I)(?:'m|'ve|'d|'ll)?\b|(?:my|we)\b))(?P<rest>.+)$",
    re.IGNORECASE,
)
# "someone who's lactose intolerant", "someone with a bad knee": what the speaker is or has
_SOMEONE = re.compile(
    r"^(?:someone|somebody|a person) (?:(?P<has>who has|with|who's(?= (?:been|got|had)\b))"
    r"|(?P<is>who's|who is)|who) (?P<rest>.+)$",
    re.IGNORECASE,
)
_OWN_VERB = {"does": "do", "doesn't": "don't", "goes": "go", "has": "have", "hasn't": "haven't",
             "isn't": "am not", "wasn't": "wasn't", "was": "was"}
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|my|me|mine)\b")
_THIRD_PERSON = re.compile(r"\b(?:he|she|they|his|her|hers|their|him|them)\b", re.IGNORECASE)
# the words after the person a role names: "a mom of two", "a nurse in the ER"
_TAIL = re.compile(r"\s+(?:of|in|at|for|from|with|on|by|who|that|working|living|based)\b.*$",
                   re.IGNORECASE)
PEOPLE = word_set(
    "fan mom mum dad mother father parent wife husband partner nurse vegan chef coach nerd "
    "geek person guy woman man introvert extrovert newbie student patient resident immigrant "
    "veteran native local adult beginner expert pro amateur catholic muslim jew hindu buddhist "
    "atheist twin sibling son daughter grandma grandpa grandmother grandfather aunt uncle "
    "vet doctor dentist surgeon pilot cook host actress waitress hostess nanny boss intern "
    "grad graduate alum alumna alumnus citizen foreigner expat celiac diabetic "
    "millennial boomer owl"
)
# person-like endings that name a thing ("As a reminder, I ...") or another time in life
NOT_PEOPLE = word_set(
    "reminder matter number starter order summer winter dinner letter paper cover filler "
    "sticker poster trailer monitor color colour favor favour mirror error factor motor sensor "
    "counter marker border anchor answer power flower shower tower water weather wrapper "
    "container wonder other checklist playlist wishlist list twist gist median whole kid "
    "child teen teenager boy girl baby toddler youngster newborn"
)
_PERSON_ENDING = re.compile(r"(?:er|or|ist|ian)s?$")


def is_person(role: str) -> bool:
    """Whether "a Manchester City fan", "an engineer", "someone who ..." names a person."""
    if _SOMEONE.match(role):
        return True
    head = _TAIL.sub("", role).split()[-1].lower().strip("'\"")
    if head in NOT_PEOPLE:
        return False
    return head in PEOPLE or bool(_PERSON_ENDING.search(head))


def said_role(sentence: str) -> tuple[str, str] | None:
    """The role a sentence's speaker gives themself in its opening ("I'm a teacher.") and the
    rest of the sentence, else None: the rest must speak of the speaker, or ask something
    and speak of no one else ("As a teacher, she ..." is someone else's), and the role must
    name a person."""
    m = _AS_ROLE.match(sentence.strip())
    if m is None or not is_person(m["role"]):
        return None
    rest = m["rest"]
    if not (_FIRST_PERSON.search(rest) or rest.rstrip().endswith("?")):
        return None
    if _THIRD_PERSON.search(rest) and not _FIRST_PERSON.search(rest):
        return None
    return f"{as_own(m['role'])}.", rest[:1].upper() + rest[1:]


def as_own(role: str) -> str:
    """A role said in the speaker's own words: "a nurse" -> "I'm a nurse", "someone who loves
    spicy food" -> "I love spicy food", "someone with a bad knee" -> "I have a bad knee"."""
    m = _SOMEONE.match(role)
    if m is None:
        return f"I'm {role[:1].lower()}{role[1:]}"
    if m["is"]:
        return f"I'm {m['rest']}"
    if m["has"]:
        return f"I have {m['rest']}" if m["has"] != "who's" else f"I've {m['rest']}"
    verb, _, rest = m["rest"].partition(" ")
    return f"I {own_verb(verb)} {rest}".rstrip()


def own_verb(verb: str) -> str:
    """A third-person verb as the speaker says it: "loves" -> "love", "watches" -> "watch"."""
    lower = verb.lower()
    if lower in _OWN_VERB:
        return _OWN_VERB[lower]
    if re.search(r"[^aeiou]ies$", lower):
        return lower[:-3] + "y"
    if re.search(r"(?:ch|sh|ss|x|z|o)es$", lower):
        return lower[:-2]
    return lower[:-1] if lower.endswith("s") and not lower.endswith("ss") else lower
