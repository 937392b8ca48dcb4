"""What a question asks for beyond its words: a time ("when ...", "in which year ..."),
advice that rests on what the asker likes ("Can you suggest ...", "What should I ..."),
several events told apart ("How many days passed between X and Y?"), or a person's job,
home, diet, hometown or age ("What do I do for a living?")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from nemori_cli.pipeline.dates import MONTHS, RULES

_WHEN = re.compile(
    r"^\W*(?:when\b|since when\b|how long ago\b|(?:in |on )?(?:what|which) (?:year|month|date"
    r"|day|week|time)\b"
    # "How many weeks passed between ...", "How many days ago did I ...": two times, or one
    r"|how many (?:days|weeks|months|years) (?:(?:have |had )?passed|lapsed|ago|between|since))",
    re.IGNORECASE,
)
_DATED = re.compile(
    r"\b(?:(?:19|20)\d\d|" + "|".join(m for m in MONTHS if m != "may") + r"|last \w+|next \w+"
    r"|ago|yesterday|today|tonight|tomorrow|weekend|monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday)\b",
    re.IGNORECASE,
)


def asks_when(question: str) -> bool:
    """Whether a question asks for a time."""
    return bool(_WHEN.search(question))


def says_when(text: str) -> bool:
    """Whether a text names a time (a date, a month, a weekday, "last week", "ago")."""
    return bool(_DATED.search(text)) or any(p.search(text) for p, _ in RULES)


_NOW = re.compile(r"\b(?:now(?! that)|currently|at the moment|these days|nowadays|latest)\b",
                  re.IGNORECASE)
_HOW_LONG = re.compile(r"^\W*(?:how (?:long|many (?:days|weeks|months|years))|since when)\b",
                       re.IGNORECASE)


def asks_now(question: str) -> bool:
    """Whether a question asks how things are now ("What car am I driving these days?"); not
    how long they have been so ("How long have I lived here now?"), which an older day tells."""
    return bool(_NOW.search(question)) and not _HOW_LONG.search(question) and not asks_when(
        question)


_ADVICE = re.compile(
    r"\b(?:recommend\w*|suggest\w*|ideas?|tips?|advice|advise|(?:should|could|shall|might) "
    r"(?:I|we)|would I|I should|would (?:fit|suit|help)|suit(?:s|ed)? me|for me"
    r"|I'd (?:enjoy|like|love)|I (?:might|would) (?:enjoy|like|love))\b",
    re.IGNORECASE,
)


# "Can you remind me which hotel you recommended?" asks what the assistant once said, not
# for new advice: the answer is in the assistant's turn, which the advice rule looks past
_RECALLS_ANSWER = re.compile(
    r"\b(?:remind me|tell me again|(?:our|that) (?:previous|earlier|last|past|prior|other)"
    r" (?:chat|conversation|discussion)s?"
    r"|you (?:\w+ )?(?:recommended|suggested|mentioned|told|said|gave|shared"
    r"|listed|described|proposed|provided|wrote|explained|came up with|pointed)"
    r"|did you (?:\w+ )?(?:recommend|suggest|mention|tell|say|give|share|list|describe"
    r"|propose|provide|write|explain|call|name))\b",
    re.IGNORECASE,
)


# the asker in the question: advice is asked for oneself ("What should I cook?", "Any ideas
# for my trip?"); "What advice did Caroline give Melanie?" asks what one person told another
_ASKER = re.compile(
    r"\b(?:I|I'm|I'd|I've|me|my|we|us|our)\b|\b(?:can|could|would|will) you\b|^\W*any\b",
    re.IGNORECASE,
)


def asks_advice(question: str) -> bool:
    """Whether a question asks for a recommendation or advice for the asker (not which
    advice the assistant once gave, nor what one person advised another)."""
    return bool(_ADVICE.search(question) and _ASKER.search(question)) and not recalls_answer(
        question
    )


# "How many days passed between X and Y?", "Which did I do first, X or Y?", "How many days
# before X did I Y?", "Did I X before or after Y?", "In what order did I do these: X, Y and
# Z?": events each told in its own session, and each must be found
_BETWEEN = re.compile(r"^\W*how (?:many|long|much)\b.*?\bbetween (?P<a>.+?) and (?P<b>.+?)\W*$",
                      re.IGNORECASE)
_BEFORE = re.compile(r"^\W*how (?:many|long|much)\b.*?\b(?:before|after) (?P<a>.+?) "
                     r"(?:did|do|had|have|was|were) (?:I|we) (?P<b>.+?)\W*$", re.IGNORECASE)
# "How many weeks had passed since I recovered from the flu when I went jogging?", "How long
# had I been using my binoculars when I saw the goldfinches?"
_SINCE_WHEN = re.compile(r"^\W*how (?:many|long|much)\b.*?\bsince (?P<a>.+?),? when (?P<b>.+?)\W*$",
                         re.IGNORECASE)
_BEEN_WHEN = re.compile(r"^\W*how (?:many \w+|long|much time) (?:have|had|has) (?:I|we) been "
                        r"(?P<a>.+?),? when (?P<b>.+?)\W*$", re.IGNORECASE)
_BEFORE_OR_AFTER = re.compile(r"^\W*(?:did|do|have|had|was|were) (?:I |we )?(?P<a>.+?),? "
                              r"(?:before|after)(?: or (?:before|after))? (?P<b>.+?)\W*$",
                              re.IGNORECASE)
_LISTED = re.compile(r"^\W*(?:which|who|what|in what order|order)\b[^,:]*[,:] (?P<list>.+?)\W*$",
                     re.IGNORECASE)
_LIST_BREAK = re.compile(r",? (?:and|or) (?=[^,]*$)|, ", re.IGNORECASE)
_LIST_END = re.compile(r"\b(?:and|or) [^,]*$", re.IGNORECASE)  # "..., and the third"
MIN_PART_WORDS = 2


def question_parts(question: str) -> list[str]:
    """The events a question compares or spans ("between my trip to Rome and the wedding"),
    or none."""
    for pattern in (_BETWEEN, _BEFORE, _SINCE_WHEN, _BEEN_WHEN, _BEFORE_OR_AFTER):
        m = pattern.search(question)
        if m and all(len(m[p].split()) >= MIN_PART_WORDS for p in ("a", "b")):
            return [m["a"], m["b"]]
    m = _LISTED.search(question)
    listed = _LIST_BREAK.split(m["list"]) if m and _LIST_END.search(m["list"]) else []
    if 2 <= len(listed) <= 4 and all(len(p.split()) >= MIN_PART_WORDS for p in listed):
        return listed
    return []


def recalls_answer(question: str) -> bool:
    """Whether a question asks what the assistant said earlier ("what did you recommend")."""
    return bool(_RECALLS_ANSWER.search(question))


@dataclass(frozen=True)
class AttributeQuestion:
    """A question for a person's single-valued attribute: "What do I do for a living?"."""

    names: tuple[str, ...]  # the attributes that answer it (pipeline/facts.py ATTRIBUTES)
    who: str | None  # the person named, or None for the asker
    past: bool  # asks for an earlier value ("my previous job")
    year: int | None = None  # asks for the value held in that year ("Where did I live in 2019?")


_WHO = r"(I|[A-Z][\w-]*)"  # the asker or a person named (each pattern's groups are these)
_WHOSE = r"(my|[A-Z][\w-]*'s?)"
_ASKED_ATTRIBUTES: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = (
    (("occupation", "employer"), re.compile(
        rf"\bwhat (?:do|does|did) {_WHO} do (?:for (?:a )?(?:living|work|money)\b(?![- ](?:life"
        rf"|management|balance))|professionally\b|at work\W*$)"
        rf"|\bwhat (?:do|does) {_WHO} do\W*$"
        rf"|\bwhat (?:kind of |sort of |type of |line of )?(?:work|job) (?:do|does|did) {_WHO} do\b"
        rf"|\bwhere (?:do|does|did) {_WHO} work\b(?! (?:out|on|through|best|better|from)\b)"
        rf"|\bwhere(?: (?:was|were|am|is)|'s) {_WHO} working\b"
        rf"|\b(?:who|what company) (?:do|does|did) {_WHO} work for\b"
        rf"|\bwhat (?:do|does|did) {_WHO} work as\b"
        rf"|\bwhat(?:'s| is| was)? {_WHOSE} (?:(?:current|previous|former|old|new|actual|day)"
        r" )?(?:job|occupation|profession|line of work|job title|employer|workplace)"
        r"(?: now| these days| currently| again)?(?:\W*$| before\b)",
        re.IGNORECASE,
    )),
    (("residence",), re.compile(
        rf"\bwhere (?:do|does|did) {_WHO} (?:used? to )?(?:live|reside)\b"
        rf"|\b(?:which|what) (?:city|town|country|state|neighbou?rhood|area|part of \w+) (?:do|does"
        rf"|did) {_WHO} (?:live|reside|move|relocate)\b"
        rf"|\bwhere(?: (?:am|is)|'s) {_WHO} (?:living|based)\b"
        rf"|\bwhere (?:did|have|has) {_WHO} (?:move|moved|relocate|relocated)(?: to| from)?\W*$",
        re.IGNORECASE,
    )),
    (("diet",), re.compile(
        rf"\bwhat(?:'s| is| was)? {_WHOSE} diet\b(?! (?:plan|soda|coke|pills?|app|log|tracker)\b)"
        rf"|\bwhat (?:kind of |sort of )?diet (?:do|does|am|is) {_WHO}\b"
        rf"|^\W*(?:am|is) {_WHO} (?:a |still )?(?:vegetarian|vegan|pescatarian)(?: now| anymore)?"
        r"\W*$",
        re.IGNORECASE,
    )),
)
_NOT_NAMES = frozenset({"he", "she", "they", "we", "you", "it", "his", "her", "their", "our",
                        "your", "its", "one", "someone", "everyone", "people", "the"})
_LOOKED_UP: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = (
    (("hometown",), re.compile(
        rf"\bwhere (?:am|is|are) {_WHO} (?:originally )?from\b"
        rf"|\bwhere (?:did|does|do) {_WHO} grow up\b"
        rf"|\bwhere (?:was|were) {_WHO} born\b"
        rf"|\bwhat(?:'s| is| was)? {_WHOSE} (?:hometown|home town)\b",
        re.IGNORECASE,
    )),
    (("partner",), re.compile(
        rf"\bwho(?:'s| is| was)? {_WHOSE} (?:boyfriend|girlfriend|partner|wife|husband|spouse"
        rf"|fianc[eé]e?)\b(?!'s)"
        rf"|\bwhat(?:'s| is| was)? {_WHOSE} (?:boyfriend|girlfriend|partner|wife|husband|spouse"
        rf"|fianc[eé]e?)'?s name\b"
        rf"|\bwho (?:am|is|are|was|were) {_WHO} (?:married to|engaged to|dating"
        rf"|going out with)\b"
        rf"|^\W*(?:am|is) {_WHO} (?:married|engaged|single|in a relationship|seeing someone"
        rf"|dating (?:someone|anyone))\W*$",
        re.IGNORECASE,
    )),
    (("diet", "allergy"), re.compile(  # what a person cannot or will not eat
        rf"\bwhat (?:foods?|things|dishes|ingredients) (?:do|does|should|must) {_WHO} (?:avoid"
        rf"|not eat|stay away from)\b"
        rf"|\bwhat (?:can't|cannot|can not|don't|do not|doesn't|does not|won't) {_WHO} eat\b"
        rf"|\bwhat (?:am|is|are) {_WHO} allergic to\b|^\W*(?:am|is) {_WHO} allergic to\b"
        rf"|\b(?:do|does) {_WHO} have (?:any )?(?:food )?(?:allerg(?:y|ies)|intolerances?"
        rf"|dietary (?:restrictions|requirements|needs))\b"
        rf"|\bwhat(?:'s| is| are)? {_WHOSE} (?:food )?(?:allerg(?:y|ies)|intolerances?"
        rf"|dietary (?:restrictions|requirements|needs))\b",
        re.IGNORECASE,
    )),
    (("age",), re.compile(
        rf"^\W*how old (?:am|is) {_WHO}(?: now)?\W*$"
        rf"|\bwhat(?:'s| is)? {_WHOSE} age\W*$",
        re.IGNORECASE,
    )),
)
_IN_YEAR = re.compile(r"\b(?:in|during|back in) ((?:19|20)\d\d)\b", re.IGNORECASE)
_PAST = re.compile(r"\b(?:previous(?:ly)?|former(?:ly)?|(?<!how )old|used to|before|originally"
                   r"|first|(?:move|moved|relocate|relocated) from|when (?:I|he|she|they|we) (?:was"
                   r"|were)|as a (?:kid|child)|growing up|in (?:high school|college|school))\b",
                   re.IGNORECASE)


def asked_attribute(question: str) -> AttributeQuestion | None:
    """The attribute of a person a question asks for (a job, a home, a diet, a hometown, an
    age, a partner), whether it asks for an earlier value, and for the value of which year;
    or None."""
    for names, pattern in (*_ASKED_ATTRIBUTES, *_LOOKED_UP):
        m = pattern.search(question)
        if m:
            name = re.sub(r"'s?$", "", next(w for w in m.groups() if w))
            if name.lower() in _NOT_NAMES:
                return None
            asker = name.lower() in {"i", "my"}
            year = _IN_YEAR.search(question)
            return AttributeQuestion(names, None if asker else name, bool(_PAST.search(question)),
                                     int(year[1]) if year else None)
    return None


# "What's my sister's name?", "What is the name of my dog?", "What did I call my cat?",
# "What's my manager called?", "Who is my dentist?": the name is the answer, so no text shares
# the word "name"
_ASKED_NAME = re.compile(
    r"\bwhat(?:'s| is| was| are| were)? (?:the names? of )?(?:my|our) (?P<a>(?:[\w'-]+ ){0,3}?"
    r"[\w'-]+?)(?: called| named)?\W*$"
    r"|\bwhat (?:did|do) (?:I|we) (?:name|call) (?:my|our) (?P<b>(?:[\w'-]+ ){0,2}?[\w'-]+?)\W*$"
    r"|^\W*who(?:'s| is| was| are| were) (?:my|our) (?P<c>(?:[\w'-]+ ){0,2}?[\w'-]+?)\W*$",
    re.IGNORECASE,
)
_NAME_WORD = re.compile(r"\b(?:names?|called|named|call)\b|^\W*who\b", re.IGNORECASE)


def asked_name(question: str) -> str | None:
    """What a question asks the name of ("sister" for "What's my sister's name?"), or None."""
    m = _ASKED_NAME.search(question)
    if not m or not _NAME_WORD.search(question):
        return None
    words = next(g for g in m.groups() if g).lower().split()
    while len(words) > 1 and words[-1] in {"name", "names"}:
        words.pop()
    head = re.sub(r"'s?$|s'$", "", words[-1])
    return None if head in {"name", "names"} else head
