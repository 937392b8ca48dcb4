"""Offline facts: first-person statements rewritten about the speaker; duplicate folding."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from nemori_cli.models import Episode, Fact, Message, stable_id, utcnow, with_time
from nemori_cli.pipeline.about_me import items_listed, with_about_me
from nemori_cli.pipeline.clauses import (
    NAMED_LIFE_EVENT,
    NOT_EARNEST,
    SECOND_PERSON,
    SINCE_WE_TALKED,
    SPEAKER,
    attach_dangling,
    thing_then_deed,
    without_addressee,
)
from nemori_cli.pipeline.dates import split_dates
from nemori_cli.pipeline.glosses import glossed
from nemori_cli.pipeline.kin import opens_on_pronoun, own_before, told_before, with_kin
from nemori_cli.pipeline.own_thing import with_own_thing
from nemori_cli.pipeline.pasted import without_pasted
from nemori_cli.pipeline.places import places_named, says_there, with_places
from nemori_cli.pipeline.proper_names import with_name_capitals
from nemori_cli.pipeline.requests import own_words, self_statements, sought
from nemori_cli.pipeline.rewrite import (
    drop_intensifiers,
    normalise_quotes,
    split_sentences,
    strip_interjections,
    to_third_person,
)
from nemori_cli.pipeline.salience import categorize, content_words, salience, short_but_personal
from nemori_cli.pipeline.slang import as_typed_out, plain_words
from nemori_cli.pipeline.subject import restore_subject

if TYPE_CHECKING:
    import numpy as np

NON_HUMAN_ROLES = frozenset({"assistant", "system", "tool", "function", "developer"})
MIN_WORDS = 4
MIN_CONTENT_WORDS = 2

# Reactions to the other speaker, chit-chat and requests: first person, but no fact.
_NO_FACT = re.compile(
    r"^(?:let's|let me|let us|can i|could i|may i|should i|shall i|do i|am i|would i|did i"
    r"|here's|here is|here are|check (?:out|this)|look at|take a look"
    r"|i (?:[\w']+ )?(?:agree|see|understand|bet|guess|mean|know right|hear you|feel you"
    r"|appreciate|thought(?! about| of))\b"
    r"|i(?:'m| am) (?:so |really |very |super |just )?(?:glad|happy|sorry|proud|excited|thrilled"
    r"|sure|curious) (?:for|to hear|that you|you|of you|about your)"
    r"|i (?:hope|wish|bet|think|guess|believe) (?:you|that you|it'll|it will|so|that's)"
    r"|i(?:'d| would) love to (?:see|hear|know|check|read|learn more about your)"
    r"|i can't wait to (?:see|hear)|i(?:'ve)? (?:\w+ )?(?:enjoyed|loved) (?:this|our) (?:chat|conv)"
    r"|(?:please|tell me|show me|help me|give me|remind me|thanks|thank you)\b)",
    re.IGNORECASE,
)
MAX_PER_MESSAGE = 3
MIN_SCORE = 2.1  # on salience's scale


@dataclass(frozen=True)
class Statement:
    """One qualifying sentence and what it says about its speaker."""

    content: str  # third person, relative dates taken out (or made absolute where needed)
    category: str
    confidence: float
    salience: float
    undated: str  # third person, relative dates left as said (for titles)
    when: str | None = None  # what the relative dates resolve to


def is_human(message: Message) -> bool:
    """Whether a person (not the assistant, the system or a tool) wrote the message."""
    return message.role.lower() not in NON_HUMAN_ROLES


def between_people(messages: Iterable[Message]) -> bool:
    """Whether every message is a person's: a chat between people, not with an assistant."""
    return all(map(is_human, messages))


def qualifies(sentence: str) -> bool:
    """Whether a (cleaned) sentence is a statement its speaker makes about themself (or
    about someone they name: "Harriet had her baby")."""
    if not sentence or sentence.rstrip(" \"')").endswith("?"):
        return False
    if not (SPEAKER.search(sentence) or NAMED_LIFE_EVENT.match(sentence)):
        return False
    short = len(sentence.split()) < MIN_WORDS or len(content_words(sentence)) < MIN_CONTENT_WORDS
    if short and not short_but_personal(sentence):
        return False
    if _NO_FACT.match(sentence) or NOT_EARNEST.search(sentence):
        return False
    return not SECOND_PERSON.search(sentence)


def statements(
    message: Message, names: frozenset[str] = frozenset(), to_assistant: bool = False,
    before: Sequence[str] = (), earlier: Sequence[str] = (),
) -> list[Statement]:
    """The facts one human message states about its speaker (none for other roles); `before`:
    the places the message before it names ("Have you been to Kyoto?"); `earlier`: the
    sentences of the speaker's message before, whose one person an opening "She" may be."""
    if not is_human(message):
        return []
    found: list[tuple[bool, Statement]] = []  # (a request, not a statement of self; the fact)
    said = [thing_then_deed(s) for s in sentences_of(without_pasted(message.content))]
    sentences = attach_dangling(
        with_places(with_own_thing(with_kin(own_words(said) if to_assistant else said,
                                            earlier)), before)
    )
    glossed_sentences = [glossed(s) for s in sentences]  # "Biscuit (our dog)": who Biscuit is
    for raw, wish in clauses_of([s for s, _ in glossed_sentences], to_assistant):
        if st := statement_of(raw, message, names):
            found.append((wish, st))
    # a request says less of its speaker than a statement does: it takes a place left over
    order = sorted(range(len(found)), key=lambda i: (found[i][0], -found[i][1].salience))
    best = set(order[: MAX_PER_MESSAGE + items_listed(message.content)])  # "About me:" lists
    glosses = [st for _, gs in glossed_sentences for g in gs if (st := statement_of(g, message))]
    return [st for i, (_, st) in enumerate(found) if i in best] + glosses  # glosses come extra


def statement_of(
    raw: str, message: Message, names: frozenset[str] = frozenset()
) -> Statement | None:
    """One clause as a fact about the message's speaker, or None if it says too little."""
    sentence = strip_interjections(raw, names)
    sentence = re.sub(r"\s*\[shared an? [^\]]*\]\s*", " ", sentence)
    sentence = SINCE_WE_TALKED.sub("", sentence).strip()
    sentence = restore_subject(without_addressee(sentence))
    if not qualifies(sentence):
        return None
    category, confidence = categorize(normalise_quotes(sentence))
    spoken = plain_words(drop_intensifiers(sentence))
    undated = re.sub(r"[\s,;:–-]+$", "", to_third_person(spoken, message.name).strip())
    text, when = split_dates(undated, message.timestamp)
    score = salience(sentence, category, dated=when is not None or text != undated)
    if score < MIN_SCORE:
        return None
    text = re.sub(r"!+$", ".", text)
    if text[-1:] not in {".", "\""}:
        text += "."
    return Statement(text[:1].upper() + text[1:], category, confidence, score, undated, when)


def clauses_of(sentences: list[str], to_assistant: bool) -> Iterator[tuple[str, bool]]:
    """Each clause that speaks of its speaker, and whether its sentence asks for something."""
    for sentence in sentences:
        wish = sought(sentence) is not None  # what the user asks for ("I'm looking for ...")
        for clause in self_statements(sentence, to_assistant):
            yield clause, wish


def normalise(content: str) -> str:
    """The form of a fact's text that its id is derived from."""
    return " ".join(re.sub(r"[^\w\s']", " ", content.lower()).split())


def sentences_of(text: str) -> list[str]:
    """A message's sentences, typed plain (slang.as_typed_out), "About me:" items said whole."""
    return with_about_me(split_sentences(with_name_capitals(as_typed_out(text))))


def fact_id(user_id: str, content: str) -> str:
    """Deterministic fact id: the same statement of the same user gets the same id."""
    return stable_id("fact", user_id, normalise(content))


def episode_facts(episode: Episode, extractor: str = "offline") -> list[Fact]:
    """Extract the offline facts of an episode, one per qualifying sentence, merged by id."""
    names = frozenset(
        part.lower() for m in episode.messages if m.name for part in m.name.split()
    )
    now = utcnow()
    to_assistant = not between_people(episode.messages)
    facts: dict[str, Fact] = {}
    for i, message in enumerate(episode.messages):
        said_before = episode.messages[i - 1].content if i and is_human(message) else ""
        before = places_named(sentences_of(said_before)) if says_there(message.content) else ()
        earlier = (  # to an assistant, an opening "She" is whom the user's message before named
            told_before(sentences_of(m.content) for m in own_before(episode.messages, i))
            if to_assistant and opens_on_pronoun(message.content) else ()
        )
        for st in statements(message, names, to_assistant, before, earlier):
            fact = Fact(
                id=fact_id(episode.user_id, with_time(st.content, st.when)),
                user_id=episode.user_id,
                content=st.content,
                when=st.when,
                category=st.category,
                source_episode_ids=(episode.id,),
                source_message_ids=(message.id,),
                confidence=st.confidence,
                created_at=now,
                valid_from=message.timestamp or episode.timestamp,
                extractor=extractor,
                subject=message.name,
            )
            facts[fact.id] = facts[fact.id].merged_with(fact) if fact.id in facts else fact
    return list(facts.values())


Nearest = Callable[["np.ndarray"], "list[tuple[Fact, float] | None]"]


def fold_duplicates(
    candidates: list[Fact], vectors: np.ndarray, nearest: Nearest, threshold: float
) -> tuple[list[Fact], list[tuple[str, Fact]], list[int]]:
    """Fold candidates into stored facts and into each other when their cosine >= threshold.

    `nearest` gives each vector's closest stored fact and cosine. Two facts told with different
    times (`when`) stay apart however alike they read: the same thing done on two days.
    Returns the new facts to store, the (stored fact id, candidate merged into it) pairs, and
    the indexes into `vectors` of the kept new facts.
    """
    stored = nearest(vectors) if len(candidates) else []
    target: list[tuple[str, int | str]] = []  # per candidate: ("new", kept slot) or ("old", id)
    kept: list[Fact] = []
    kept_index: list[int] = []
    merged: dict[str, Fact] = {}
    for i, fact in enumerate(candidates):
        best = stored[i]
        earlier = _best_earlier(vectors, i)
        if best is not None and best[1] >= threshold and same_time(fact, best[0]):
            where: tuple[str, int | str] = ("old", best[0].id)
        elif (
            earlier is not None
            and float(vectors[i] @ vectors[earlier]) >= threshold
            and same_time(fact, candidates[earlier])
        ):
            where = target[earlier]  # follow the duplicate it repeats, stored or new
        else:
            where = ("new", len(kept))
        target.append(where)
        kind, key = where
        if kind == "old":
            sid = str(key)
            merged[sid] = merged[sid].merged_with(fact) if sid in merged else fact
        elif key == len(kept):
            kept.append(fact)
            kept_index.append(i)
        else:
            slot = int(key)
            kept[slot] = kept[slot].merged_with(fact)
    return kept, list(merged.items()), kept_index


def same_time(a: Fact, b: Fact) -> bool:
    """Whether two facts could be one telling: neither is dated, or both name the same time."""
    return a.when is None or b.when is None or a.when == b.when


def _best_earlier(vectors: np.ndarray, i: int) -> int | None:
    if i == 0:
        return None
    return int((vectors[:i] @ vectors[i]).argmax())


# Single-valued attributes: a newer statement replaces an older one with another value.
PLACE = r"(?P<value>[A-Z][\w&-]*(?:(?: of| de| upon)? [A-Z][\w&-]*)*)"  # "City of Austin"
# the verbs that set a home or an employer, in both tables below
_LIVES = r"\b(?:lives|living|live|is based|based|settled) in"
_MOVED = r"\b(?:moved|relocated)"
_WORKS = r"(?:works|working|work|started|joined|is employed)"
# "wrapped their first two weeks at Kinetic Health" (not "had their first day at Disneyland")
_FIRST_AT = (r"\b(?:wrapped(?: up)?|finished|completed|survived|started|began|is in|was in)"
             r" (?:their|the user's) (?:first|second|third)(?: (?:\w+|couple of))?"
             r" (?:days?|weeks?|months?) (?:at|with)")
ATTRIBUTES = {
    "residence": (
        re.compile(rf"{_LIVES} (?:the )?{PLACE}"),
        re.compile(rf"{_MOVED}(?: from [A-Z][\w-]*(?: [A-Z][\w-]*)*)? to {PLACE}"),
        re.compile(rf"{_MOVED} into (?:a|the|their)(?: new)? (?:flat|apartment|house) in {PLACE}"),
    ),
    "employer": (
        re.compile(rf"\b(?:{_WORKS}|job) (?:at|for) (?:the )?{PLACE}"),
        re.compile(rf"\b(?:started|joined|got|took|landed) an?(?: new)? job (?:at|with) {PLACE}"),
        re.compile(rf"{_FIRST_AT} (?:the )?{PLACE}"),
    ),
    "occupation": (  # "works as a nurse", "started a new job as a data analyst"
        re.compile(r"\b(?:works|working|work|is employed|(?:started|got|took|landed|found|has)"
                   r"(?: an?)?(?: new)? (?:job|position|role)) as an? (?!(?:team|result|whole|group"
                   r"|way|part|reminder|favou?r|bonus)\b)(?P<value>[A-Za-z][\w-]*"
                   r"(?: [A-Za-z][\w-]*){0,3}?)(?= (?:(?:at|for|in|and|with|since)\b|[-–])|[,.;]"
                   r"|$)"),
        # "is now a curriculum designer at an edtech startup": a role at a workplace
        re.compile(r"\b(?:is now|became) an? (?!(?:regular|member|fan|part|bit|lot|big|huge"
                   r"|little|guest)\b)(?P<value>[a-z][\w-]*(?: [a-z][\w-]*){0,2}?)"
                   r"(?= (?:at|for) )"),
    ),
    "diet": (
        re.compile(r"\b(?:is|went|became|turned|has gone|switched to|eats)"
                   r"(?: now| fully| strictly| completely| mostly)* (?P<value>vegetarian|vegan"
                   r"|pescatarian|flexitarian|keto|paleo|carnivore)\b"),
    ),
}
# A writer who types in lowercase ("i just moved to lisbon", "i work at kinetic health now")
# names a home or an employer without a capital: read so only in a fact with no capital after
# its first letter, and only a name of up to three words that a time, a clause or the
# sentence ends ("lives in fear of spiders" names no home).
_CLAUSE_END = (r"(?:now|last|this|next|since|for|and|but|so|because|with|after|before|until"
               r"|in|on|at|from|to|as|about|again|today|yesterday|recently|soon|then|too"
               r"|though|anymore|already)")
_NOT_NAMED = (r"(?:a|an|the|my|our|his|her|their|your|this|that|these|those|home|work|school"
              r"|night|nights|weekends?|least|first|last|all|it|fear|peace|denial|hope|bed|town"
              r"|one|some|any|what|which|where|here|there|shifts?|remote|remotely|full|part"
              r"|myself|themself|themselves|free|hours|money|food|me|them|us|uni|college|university"
              r"|camp|class|kindergarten|daycare|preschool)")
_LOWER_NAME = (rf"(?P<value>(?!{_NOT_NAMED}\b)[a-z][\w&-]*(?: (?!{_CLAUSE_END}\b)[a-z][\w&-]*)"
               rf"{{0,2}})(?=[,.;:!?)]|$| {_CLAUSE_END}\b)")
LOWERCASE = {
    "residence": (
        re.compile(rf"{_LIVES} {_LOWER_NAME}"),
        re.compile(rf"{_MOVED} to {_LOWER_NAME}"),
    ),
    "employer": (
        re.compile(rf"\b{_WORKS} (?:at|for) {_LOWER_NAME}"),
        re.compile(rf"{_FIRST_AT} {_LOWER_NAME}"),
    ),
}
# words a statement of each attribute has: a lexical query finds the facts that may set one
ATTRIBUTE_WORDS = {
    "residence": "live lives living based settled moved relocated",
    "employer": "work works working started joined job employed first",
    "occupation": "work works working employed job position role became",
    "diet": "vegetarian vegan pescatarian flexitarian keto paleo carnivore",
}
_NOT_YET = re.compile(
    r"\b(?:will|would|might|may|plan\w*|want\w*|hop\w*|consider\w*|thinking|going to|could"
    r"|if|maybe|used to|before|previously|until)\b",
    re.IGNORECASE,
)


Patterns = Mapping[str, Sequence[re.Pattern[str]]]
# "The user is from Texas but lives in Oregon": a first clause of the subject's own, after
# which the value is the same subject's (not "the user's sister ..." or "... Tom, who ...")
_SAID_BEFORE = (
    r" (?:is|was|grew up|comes|works|worked|lives|lived|moved|started|joined|turned|became)\b"
    r"(?:(?!\b(?:that|who|whose|which|where|says?|said|thinks?|told|tells?)\b)[^.;:!?])*?"
    r",? (?:and|but)"
)


def attribute(fact: Fact, table: Patterns | None = None) -> tuple[str, str] | None:
    """The single-valued attribute (residence, employer, occupation, diet, or one of another
    table's) a fact sets now, with its value."""
    subject = re.compile(
        rf"\b{re.escape(fact.subject or 'the user')}(?:{_SAID_BEFORE})?(?: (?:now|still|also"
        r"|currently|recently|just|finally|has|had|is|been))*\s*$",
        re.IGNORECASE,
    )
    lowercase = not re.search(r"[A-Z]", fact.content[1:])
    for name, patterns in (ATTRIBUTES if table is None else table).items():
        for pattern in (*patterns, *LOWERCASE.get(name, ())) if lowercase else patterns:
            m = pattern.search(fact.content)
            # about the speaker ("the user lives", not "the user's sister lives"), and done
            if m and subject.search(fact.content[: m.start()]) and not _NOT_YET.search(
                fact.content[max(0, m.start() - 30) : m.start()]
            ):
                return name, m["value"].lower()
    return None


def superseded_by(new_facts: Sequence[Fact], related: Sequence[Fact]) -> dict[str, str]:
    """Map older related facts to the new fact that changes their value (moved, new job).

    Of two new facts that both change one ("moved to Lisbon", "now lives in Arroios", one
    message), the later told wins, then the smaller id: the same whatever order the facts
    came in (two ingests at once store what one ingest of both files stores)."""
    out: dict[str, Fact] = {}
    for new in new_facts:
        value = attribute(new)
        if value is None:
            continue
        for old in related:
            if old.id == new.id or old.superseded_by or old.subject != new.subject:
                continue
            if old.valid_from and new.valid_from and old.valid_from > new.valid_from:
                continue
            previous = attribute(old)
            if previous and previous[0] == value[0] and previous[1] != value[1]:
                rival = out.get(old.id)
                if rival is None or told_later(new, rival):
                    out[old.id] = new
    return {old_id: new.id for old_id, new in out.items()}


def told_later(a: Fact, b: Fact) -> bool:
    """Whether fact a was told after b (the same moment: the smaller id counts as later)."""
    when_a, when_b = a.valid_from, b.valid_from
    if when_a and when_b and when_a != when_b:
        return when_a > when_b
    return a.id < b.id
