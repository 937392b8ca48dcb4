"""Someone the speaker named as theirs, then called "she" or "he": the sentence is about them.

"I need a gift for my sister. She's turning 30 and loves pottery." says that the speaker's
sister is turning 30; read alone, "She's turning 30" is about nobody. A sentence that opens
on "She" or "He" takes the one person of the speaker's that the sentence before it names
("my sister", "a greyhound named Pixel"), when the pronoun fits them; two people there, or
none, leave it as said.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from nemori_cli.models import Message
from nemori_cli.pipeline.rewrite import is_past, word_set
from nemori_cli.pipeline.subject import ADJECTIVE_ED

FEMALE = word_set(
    "sister mom mother mum wife girlfriend daughter grandma grandmother aunt niece "
    "stepmom stepmother stepdaughter fiancee"
)
MALE = word_set(
    "brother dad father husband boyfriend son grandpa grandfather uncle nephew stepdad "
    "stepfather stepson fiance"
)
EITHER = word_set(
    "partner friend boss manager cousin kid child baby toddler roommate colleague coworker "
    "neighbor neighbour teacher therapist doctor coach mentor dog cat puppy pup kitten pet"
)
# "my sister", "my best friend", "my older brother": up to two words between
_MINE = re.compile(
    r"\bmy ((?:[a-z-]+ ){0,2}?)(" + "|".join(sorted(FEMALE | MALE | EITHER)) + r")\b"
    r"((?-i:,? [A-Z][a-z]+\b)?)",  # "my son Leo", "my sister, Ana"
    re.IGNORECASE,
)
# "I adopted a greyhound named Pixel", "we have a friend called Sam": one of the speaker's
_NAMED_ONE = re.compile(
    r"\b(?:i|we) (?:\w+ )?(?:have|had|got|adopted|rescued|own) an? ((?:[a-z-]+ ){0,2}?)"
    r"([a-z-]+),? (?:named|called) ((?-i:[A-Z][a-z]+))\b",
    re.IGNORECASE,
)
_OPENING = re.compile(r"^([Ss]he|[Hh]e)(?:(?P<s>'s)|(?P<ll>'ll)|(?P<d>'d))?\b")
_HAS = word_set("been got gotten had done gone")
# between "'s" and its verb: "She's never been", "my son's just started"
_BETWEEN = word_set("never already just always still also ever really finally recently only")
_GENDERED = re.compile(r"\b(?:she|he|her|him)\b", re.IGNORECASE)


# "its for my girlfriend Lotte, she is vegetarian": the clause after the comma is about her
_COMMA_PRONOUN = re.compile(r",\s+(?=(?:she|he)(?:'s|'ll|'d)?\s)", re.IGNORECASE)


def with_kin(sentences: list[str], earlier: Sequence[str] = ()) -> list[str]:
    """Each "She ..." / "He ..." opening (typed "she" or "he" too) said of the speaker's one
    person named just before, in the sentence before or before a comma; the first sentence's
    of the one person the speaker's message before names (`earlier`, its sentences)."""
    out: list[str] = []
    for sentence in (part for s in sentences for part in at_their_pronoun(s)):
        m = _OPENING.match(sentence)
        who = None
        if m:
            pronoun = m[1].capitalize()
            who = one_of_theirs(out[-1], pronoun) if out else only_one(earlier, pronoun)
        if m and who:
            sentence = who + verb_of(m, sentence[m.end():]) + sentence[m.end():]
        out.append(sentence)
    return out


def opens_on_pronoun(text: str) -> bool:
    """Whether a message opens on "She" or "He" (whom the message before may name)."""
    return bool(_OPENING.match(text.lstrip()))


def own_before(messages: Sequence[Message], i: int) -> list[Message]:
    """The speaker's messages an opening "She" of the i-th may reach back through, oldest
    first: their message before it, and before that while each opens on a pronoun too."""
    out: list[Message] = []
    for m in reversed(messages[:i]):
        if m.role == messages[i].role:
            out.append(m)
            if not opens_on_pronoun(m.content):
                break
    return out[::-1]


def told_before(said: Iterable[list[str]]) -> list[str]:
    """The last of a speaker's messages (each its sentences, oldest first), its "She ..."
    said of whom the ones before name."""
    out: list[str] = []
    for sentences in said:
        out = with_kin(sentences, out)
    return out


def only_one(sentences: Sequence[str], pronoun: str) -> str | None:
    """The one person of the speaker's that these sentences name and the pronoun can be."""
    found = {one_of_theirs(s, pronoun) for s in sentences} - {None}
    return found.pop() if len(found) == 1 else None


def at_their_pronoun(sentence: str) -> list[str]:
    """The sentence cut in two before ", she ..." / ", he ..." when what comes before names
    the speaker's one person the pronoun can be; else the sentence whole."""
    m = _COMMA_PRONOUN.search(sentence)
    if not m:
        return [sentence]
    head, tail = sentence[: m.start()], sentence[m.end() :]
    pronoun = re.split(r"[\s']", tail, maxsplit=1)[0].capitalize()
    return [f"{head}.", tail] if one_of_theirs(head, pronoun) else [sentence]


def one_of_theirs(sentence: str, pronoun: str) -> str | None:
    """"My sister", "My greyhound Pixel": the speaker's one person or animal a sentence
    names that the pronoun can be, or None."""
    mine = _MINE.findall(sentence)
    if mine:
        words, relative, name = mine[0]
        if len(mine) == 1 and fits(relative.lower(), pronoun):
            return f"My {words}{relative}{name.lstrip(',')}"
        return None
    named = [(w, noun, name) for w, noun, name in _NAMED_ONE.findall(sentence)
             if noun.lower() not in (MALE if pronoun == "She" else FEMALE)]
    if len(named) == 1:
        words, noun, name = named[0]
        return f"My {words}{noun} {name}"
    return None


def without_own_pronouns(sentence: str) -> str:
    """The sentence less its "she"/"he"/"her"/"him" when each can be the speaker's one
    person named before them ("My daughter started school and she's shy")."""
    first = _GENDERED.search(sentence)
    named = _MINE.findall(sentence[: first.start()]) if first else []
    if len(named) != 1:
        return sentence
    relative = named[0][1].lower()
    pronouns = [p.lower() for p in _GENDERED.findall(sentence)]
    if not all(fits(relative, "She" if p in {"she", "her"} else "He") for p in pronouns):
        return sentence
    return _GENDERED.sub("", sentence)


def fits(relative: str, pronoun: str) -> bool:
    """Whether "she" or "he" can be this relative."""
    return relative in EITHER or relative in (FEMALE if pronoun == "She" else MALE)


def is_or_has(following: Sequence[str]) -> str:
    """What a contracted "'s" is before these words: "has" before "been" or "got", or a past
    after an adverb ("She's never been", "my son's just started school"), else "is" ("She's
    just 5", "my dad's retired", "my mom's always tired")."""
    words = [w.lower().strip(",.;!?") for w in following]
    at = next((i for i, w in enumerate(words) if w not in _BETWEEN), len(words))
    verb = words[at] if at < len(words) else ""
    past = at > 0 and is_past(verb) and verb not in ADJECTIVE_ED
    return "has" if verb in _HAS or past else "is"


def verb_of(m: re.Match[str], rest: str) -> str:
    """The contraction written out for a noun subject: "She's" -> " is" (or " has")."""
    if m["s"]:
        return f" {is_or_has(rest.split())}"
    return " will" if m["ll"] else " would" if m["d"] else ""
