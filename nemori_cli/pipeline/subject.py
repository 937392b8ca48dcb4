"""The speaker a chat sentence leaves out, given back: "Took a trip to Rome" -> "I took a trip
to Rome", "Working on my thesis" -> "I'm working on my thesis"."""

from __future__ import annotations

import re

from nemori_cli.pipeline.rewrite import is_past, word_set

# "Been a while since we talked": the time, not the speaker, is the subject
_TIME_BEEN = re.compile(
    r"been (?:(?:a|an) (?:\w+ )?(?:while|week|weeks|month|months|year|years|day|days|time|ride"
    r"|road|journey|minute|bit|few \w+|couple(?: of \w+)?)|ages|forever|(?:so|too) long)\b",
    re.IGNORECASE,
)
# what chat says without "I'm": "Working on my thesis", "Hoping to move in May"
PROGRESSIVE = word_set(
    "trying hoping planning thinking working looking getting staying heading doing taking "
    "learning reading watching researching preparing studying training practicing practising "
    "saving building writing making enjoying loving feeling starting "
    "flying driving moving travelling traveling visiting leaving hosting organising organizing "
    "applying hiking cycling packing renovating buying selling"
)
# a finite verb after the gerund makes it the subject: "Taking time for us is vital"
_FINITE = re.compile(
    r"\b(?:is|was|are|were|has|have|had|can|could|will|would|should|must|might|makes|made"
    r"|helps|helped|gives|gave|brings|brought|keeps|kept|feels|seems|sounds|means|takes|lets|becomes)\b",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"[,;:(]|\s[-–—]+\s")  # "Researching agencies - it's been a dream"
ADJECTIVE_ED = word_set(
    "tired excited bored scared married interested blessed stressed pleased thrilled amazed "
    "surprised worried delighted exhausted relieved overwhelmed inspired motivated determined "
    "obsessed impressed stoked psyched pumped engaged divorced unemployed"
)
# "Not a fan of cilantro", "Big fan of jazz", "Really into bouldering": a taste, the "I'm" dropped
_TASTE_OPENING = re.compile(
    r"^(?P<neg>not\s+)?(?P<what>(?P<how>(?:much\s+of\s+)?(?:a\s+)?(?:(?:big|huge|massive|real"
    r"|total|really|super|totally|so|very)\s+)?)(?P<fan>fan of|into)\s)",
    re.IGNORECASE,
)


def own_taste(sentence: str) -> str:
    """"Not a fan of cilantro" -> "I'm not a fan of cilantro", "Big fan of jazz" -> "I'm a
    big fan of jazz" ("Into the woods we went" is no taste: a bare "into" stays)."""
    m = _TASTE_OPENING.match(sentence)
    if m is None or not (m["neg"] or m["how"]):
        return sentence
    what = m["what"][:1].lower() + m["what"][1:]
    if m["fan"].lower() == "fan of" and not re.match(r"(?:a|much)\b", what, re.IGNORECASE):
        what = f"a {what}"
    return f"I'm {'not ' if m['neg'] else ''}{what}{sentence[m.end():]}"


# "No longer vegan", "No longer eat meat": a state or habit given up, the "I" dropped
_NO_LONGER = re.compile(r"^no longer (?P<next>[\w'-]+)", re.IGNORECASE)
_HABIT_VERBS = word_set("eat drink smoke vape live work need use own drive run play go take do")


def given_up(sentence: str) -> str:
    """"No longer vegan" -> "I'm no longer vegan", "No longer eat meat" -> "I no longer eat
    meat" ("No longer works for me" is said of a thing: it stays)."""
    m = _NO_LONGER.match(sentence)
    if m is None:
        return sentence
    after = m["next"].lower()
    lowered = sentence[:1].lower() + sentence[1:]
    if after in _HABIT_VERBS:
        return f"I {lowered}"
    if after.endswith(("s", "ed")) and after not in {"less", "nervous", "jealous", "anxious"}:
        return sentence
    return f"I'm {lowered}"


_TASTE_OBJECT = re.compile(r"(?:\w+ing|my|our)$", re.IGNORECASE)  # not "Love the pic!"


# how a speaker steers a talk, not what they are doing: "Moving on, ...", "Leaving aside ..."
_DISCOURSE = {("moving", "on"), ("moving", "forward"), ("going", "forward"),
              ("leaving", "aside"), ("starting", "with"), ("getting", "back")}
_DROPPED_I_OPENING = (
    r"((?:just|finally|recently|also|actually|really|currently|still)\s+)*([A-Za-z]+)\b"
)


def restore_subject(sentence: str) -> str:
    """Give back the "I" that chat drops: "Took a trip to Rome" -> "I took a trip to Rome",
    "Not a fan of cilantro" -> "I'm not a fan of cilantro"."""
    for said in (own_taste, given_up):
        if (plain := said(sentence)) != sentence:
            return plain
    m = re.match(_DROPPED_I_OPENING, sentence, re.IGNORECASE)
    if not m or not sentence[:1].isupper():
        return sentence
    head, word = sentence[: m.start(2)], m.group(2).lower()
    rest = sentence[m.start(2) :]
    lowered = (head[:1].lower() + head[1:]) if head else rest[:1].lower() + rest[1:]
    tail = rest if head else ""
    if word == "been":
        if _TIME_BEEN.match(rest):
            return f"It's {lowered}{tail}"
        return f"I've {lowered}{tail}"
    after = rest[len(word) :].split()
    if word in {"gonna", "going"} and "be" in after[:2]:
        return sentence  # "Gonna be a great night": chat leaves out who or what
    if (word, after[0].strip(",").lower() if after else "") in _DISCOURSE:
        return sentence  # "Moving on, what about the budget?": no news of the speaker
    if word in {"love", "adore", "hate"} and _TASTE_OBJECT.match(" ".join(after[:1])):
        return f"I {lowered}{tail}"  # "Love experimenting with spices": a taste, not an order
    if word == "wanna" or word in {"want", "hope", "plan", "need"} and after[:1] == ["to"]:
        return f"I {lowered}{tail}"  # "want to learn piano this year": the speaker's wish
    if word == "used" and after[:1] == ["to"]:
        return f"I {lowered}{tail}"  # "Used to play the violin": the speaker's past
    if word in ADJECTIVE_ED or word == "gonna":
        return f"I'm {lowered}{tail}"
    clause = _CLAUSE_END.split(rest[len(word) :], 1)[0]
    if word == "going":  # "Going to have surgery" (not "Going on walks is my favourite")
        clause = re.sub(r"^\s*to \w+", "", clause)
    if (word in PROGRESSIVE or word == "going") and not _FINITE.search(clause):
        return f"I'm {lowered}{tail}"  # "Trying to get it fixed" (not "Taking time is vital")
    past = is_past(word)
    if past and after[:1] and after[0].lower() in {"me", "us"}:
        return f"It {lowered}{tail}"  # "Made me think": the speaker is the object
    return f"I {lowered}{tail}" if past else sentence
