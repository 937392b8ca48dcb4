"""Offline episodes: an extractive title and a dated, speaker-named narrative."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from nemori_cli.models import Conversation, Episode, Message, stable_id, utcnow
from nemori_cli.pipeline.dates import annotate_dates, fmt_date, replace_dates
from nemori_cli.pipeline.facts import between_people, is_human, statements
from nemori_cli.pipeline.requests import IMPERATIVES
from nemori_cli.pipeline.rewrite import (
    normalise_quotes,
    split_sentences,
    strip_interjections,
    to_third_person,
    word_set,
)
from nemori_cli.pipeline.salience import content_words
from nemori_cli.pipeline.subject import restore_subject
from nemori_cli.pipeline.titles import meaningful

if TYPE_CHECKING:
    import numpy as np

TITLE_WORDS = 10
# a request to an assistant this much longer is kept whole, or cut at a clause break in it;
# between people, where titles are statements, longer titles only took LoCoMo's word budget
# (docs/benchmarks.md)
TITLE_SLACK = 3
DANGLING_SLACK = 2  # a sentence this much longer whose cut would end on "of", "to", ... stays whole
HUMAN_WORDS = 250  # longer messages are cut in the narrative (the episode keeps them whole)
OTHER_WORDS = 120  # assistant, system and tool messages
_REQUEST = re.compile(
    r"^(?:(?:can|could|would|will) (?:you|u) (?:please )?(?:help me (?:to )?|tell me |show me "
    r"|explain )?|please |help me (?:to )?|i (?:need|want|would like|'d like) (?:some )?help "
    r"(?:with |to )?|i(?:'m| am) trying to |i (?:want|need|would like|'d like) to "
    r"|how (?:do|can|should) i |what(?:'s| is) the best way to )",
    re.IGNORECASE,
)
# the speaker as subject or owner (not "me" or "us": "validate us phone numbers")
_SPEAKER = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|my|we|we're|we've|our)\b", re.IGNORECASE)
_ASIDE = re.compile(r"\s*\([^()]*\)|\s*\([^()]*$")  # "my cat Tofu (13, grumpy)": no title's
_CLAUSE = re.compile(r",\s|\s[-–—]\s|;\s|:\s|\s(?:and|but|because|so|which|since|while)\s")
_TRAILING = word_set(
    "a an the and or but so to of in on at for with my our your their his her its from by as "
    "that this is are was were be when where while because since if who which what how"
)


def speaker_label(message: Message) -> str:
    """How the narrative names who said a message: the name, else the role."""
    return message.name or message.role.capitalize()


def episode_id(user_id: str, conversation_id: str, messages: Sequence[Message]) -> str:
    """Deterministic episode id from the user, the conversation and its first and last message."""
    return stable_id("ep", user_id, conversation_id, messages[0].id, messages[-1].id)


def trim_phrase(text: str, limit: int = TITLE_WORDS, slack: int = 0) -> str:
    """Cut a sentence to a short phrase, at a clause break when one comes early enough; a
    sentence up to `slack` words longer than the limit, with no break in it, is kept whole
    rather than left dangling ("... to a colleague whose reports")."""
    text = " ".join(_ASIDE.sub("", text).split()).strip(" .!?…,;:-")
    words = text.split()
    cut_short = len(words) > limit
    if cut_short:
        breaks = []  # (words before, where)
        for m in _CLAUSE.finditer(text):
            before = text[: m.start()].split()
            if m[0].strip() == "and" and "between" in map(str.lower, before[-4:]):
                continue  # "the difference between a tax credit and a deduction": one thing
            if 4 <= len(before) <= limit + slack:
                breaks.append((len(before), m.start()))
        early = [at for n, at in breaks if n <= limit]
        # "... are both big fans of jazz": a cut at "of" would drop what the phrase is about
        dangling = words[limit - 1].lower() in _TRAILING or words[limit].lower() in _TRAILING
        if early:
            text = text[: early[-1]]
        elif len(words) <= limit + max(slack, DANGLING_SLACK if dangling else 0):
            cut_short = False
        else:
            text = text[: breaks[-1][1]] if breaks else " ".join(words[:limit])
    words = text.strip(" .!?…,;:-").split()
    while cut_short and len(words) > 3 and (
        words[-1].lower() in _TRAILING or words[-1].endswith("'s")
    ):
        words.pop()
    phrase = " ".join(words)
    return phrase[:1].upper() + phrase[1:]


def _asks(sentence: str) -> bool:
    """Whether a sentence asks something: a question, a request, an instruction."""
    opens = sentence.split(maxsplit=1)[0].lower() if sentence.split() else ""
    return sentence.endswith("?") or bool(_REQUEST.match(sentence)) or opens in IMPERATIVES


def _opening_request(message: Message) -> str | None:
    """What a message to an assistant opens by asking ("How does a PhD viva work?", "Can you
    help me write a letter ..."), when it says enough to name the conversation's topic."""
    sentences = split_sentences(message.content)
    if not sentences:
        return None
    # a question ends at its "?" even when what follows starts in lower case
    first = re.split(r"(?<=\?)\s", strip_interjections(sentences[0]), maxsplit=1)[0]
    asked = _REQUEST.sub("", first)
    return asked if _asks(first) and len(content_words(asked)) > 2 else None


def _title_phrase(
    message: Message, names: frozenset[str], to_assistant: bool = False
) -> str | None:
    """The most telling sentence of a message as a short phrase: a fact it states, a request.

    Said to an assistant, the request a message opens with names the topic best, and else
    the first thing it states ("My daughter turns 12 in April. She's into k-pop ...").
    """
    best: str | None = _opening_request(message) if to_assistant else None
    found = [] if best else statements(message, names)
    if found:
        best = (found[0] if to_assistant else max(found, key=lambda st: st.salience)).undated
    elif best is None:
        most = 2
        for raw in split_sentences(message.content):
            sentence = restore_subject(strip_interjections(raw, names))
            sentence = re.sub(r"\s*\[shared an? [^\]]*\]\s*", " ", sentence).strip()
            asked = _REQUEST.sub("", sentence)  # "Can you help me plan a trip?" -> "Plan a trip"
            if len(content_words(asked)) > most:
                best, most = asked, len(content_words(asked))
                # told of the speaker ("I did my first 18 mile run"): the third person, as a
                # fact says it
                if _SPEAKER.search(sentence) and not _asks(sentence):  # "Donna and I ..." too
                    best = to_third_person(sentence, message.name)
    if best is None:
        return None
    # trim first, then date: "yesterday" becomes "on 7 May 2023" without being cut in half
    slack = TITLE_SLACK if to_assistant else 0
    return replace_dates(trim_phrase(best, slack=slack), message.timestamp)


def _salient_order(messages: Sequence[Message], vectors: np.ndarray | None) -> list[Message]:
    """Human messages, most representative first, preferring ones that state facts."""
    humans = [m for m in messages if is_human(m) and m.content.strip()] or list(messages)
    if not between_people(messages):
        return humans  # in a chat with an assistant, the user's opening states the topic
    names = frozenset(p.lower() for m in messages if m.name for p in m.name.split())
    typical: dict[str, float] = {}  # closeness to the episode's centroid
    if vectors is not None and len(humans) > 2:
        index = {m.id: i for i, m in enumerate(messages)}
        total = vectors.sum(axis=0)
        norm = float((total @ total) ** 0.5)
        if norm:
            typical = {m.id: float(vectors[index[m.id]] @ total) / norm for m in humans}

    def score(m: Message) -> float:
        found = statements(m, names)
        bonus = 1.0 + 0.15 * max(st.salience for st in found) if found else 0.0
        return typical.get(m.id, 0.0) + bonus

    return sorted(humans, key=lambda m: -score(m))


def episode_title(
    conversation: Conversation, messages: Sequence[Message], vectors: np.ndarray | None = None
) -> str:
    """An extractive title: a short phrase from the most salient human message."""
    names = frozenset(p.lower() for m in messages if m.name for p in m.name.split())
    to_assistant = not between_people(messages)
    phrase = None
    for message in _salient_order(messages, vectors)[:8]:
        phrase = _title_phrase(message, names, to_assistant)
        if phrase:
            break
    title = meaningful(conversation.title) or ""
    if title and (not phrase or len(messages) == len(conversation.messages)):
        return title
    if title and phrase:
        return f"{title}: {phrase}"
    if phrase:
        return phrase
    when = _first_time(messages) or conversation.timestamp
    return f"Conversation on {fmt_date(when)}" if when else "Conversation"


def _first_time(messages: Sequence[Message]) -> datetime | None:
    return next((m.timestamp for m in messages if m.timestamp), None)


def _last_time(messages: Sequence[Message]) -> datetime | None:
    return next((m.timestamp for m in reversed(messages) if m.timestamp), None)


def _cap(text: str, words: int) -> str:
    parts = text.split()
    return text if len(parts) <= words else " ".join(parts[:words]) + " […]"


def message_cap(message: Message) -> int:
    """How many words of a message the narrative keeps."""
    return HUMAN_WORDS if is_human(message) else OTHER_WORDS


def _day(when: datetime) -> str:
    return f"{when:%A}, {fmt_date(when)}"


def _participants(messages: Sequence[Message]) -> str:
    people = list(dict.fromkeys(speaker_label(m) for m in messages))
    if len(people) == 1:
        return f"{people[0]} wrote"
    return f"{', '.join(people[:-1])} and {people[-1]} talked"  # names keep their capitals


def narrative(
    conversation: Conversation, messages: Sequence[Message], when: datetime | None
) -> str:
    """A dated transcript that names each speaker, relative dates made absolute."""
    title = meaningful(conversation.title)
    about = f' ("{title}")' if title else ""
    opening = f"{_participants(messages)}{about}."
    lines = [f"On {_day(when)} at {when:%H:%M}, {opening}" if when else opening]
    day = when.date() if when else None
    for m in messages:
        if m.timestamp and day and m.timestamp.date() != day:
            day = m.timestamp.date()
            lines.append(f"[{_day(m.timestamp)}]")
        text = " ".join(normalise_quotes(m.content).split())
        if not text:
            continue
        text = _cap(text, message_cap(m))
        lines.append(f"{speaker_label(m)}: {annotate_dates(text, m.timestamp or when)}")
    return "\n".join(lines)


def build_episode(
    user_id: str,
    conversation: Conversation,
    messages: Sequence[Message],
    vectors: np.ndarray | None = None,
    extractor: str = "offline",
) -> Episode:
    """Build the episode for one segment: id, title, narrative, times, sources."""
    messages = tuple(messages)
    if not messages:
        raise ValueError("an episode needs at least one message")
    start = _first_time(messages) or conversation.timestamp
    return Episode(
        id=episode_id(user_id, conversation.id, messages),
        user_id=user_id,
        conversation_id=conversation.id,
        title=episode_title(conversation, messages, vectors),
        content=narrative(conversation, messages, start),
        timestamp=start,
        end_timestamp=_last_time(messages) or start,
        message_ids=tuple(m.id for m in messages),
        messages=messages,
        created_at=utcnow(),
        extraction={"extractor": extractor, "status": "pending"},
    )
