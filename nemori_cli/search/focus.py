"""Focus a long episode hit on the turns that match the query.

An answering model reads hits under a word budget: a 24-message episode spends it on turns
that have nothing to do with the question. A focused hit keeps the episode's title, a dated
opening that names the speakers, and only the best-matching turns (relative dates resolved);
its message_ids are exactly those turns, so the hit stays honest about its sources.
Turns are scored by the stored vectors of the episode's message windows (see indexing.py)
and by the query words each turn contains; a long episode yields up to two such hits, one
around its best turn and one around the best turn the first leaves out, each ranked on its
own. A hit dated in the time a query names ("in May 2023", "on 3 June, 2023") ranks higher.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from nemori_cli.indexing import WINDOW_MESSAGES
from nemori_cli.models import Episode, Message, SearchHit
from nemori_cli.pipeline.episodes import HUMAN_WORDS, OTHER_WORDS, speaker_label
from nemori_cli.pipeline.facts import is_human
from nemori_cli.pipeline.rewrite import normalise_quotes
from nemori_cli.search.fusion import RRF_K
from nemori_cli.search.kinds_named import stand_ins
from nemori_cli.search.periods import Period, in_period
from nemori_cli.search.questions import asks_now, asks_when, recalls_answer
from nemori_cli.search.turns import (
    best_stretch,
    dated_line,
    names_time,
    spoken,
    standing_in,
    terms,
)
from nemori_cli.search.word_families import family_stand_ins
from nemori_cli.search.works_named import asks_works, names_work

if TYPE_CHECKING:
    import numpy as np

VectorsOf = Callable[[str, Sequence[str]], Mapping[str, Any]]  # (kind, doc ids)


@dataclass(frozen=True)
class FocusParams:
    """How hard to focus: which episodes, how many turns, how words weigh against vectors."""

    min_messages: int = 8  # episodes up to this long are returned whole
    turns: int = 4  # turns kept around each anchor
    before: int = 1  # of which, turns before the anchor
    spans: int = 2  # hits cut from one long episode, each around the best turn left out
    span_floor: float = 0.5  # a further span's anchor must score this share of the best turn
    length_penalty: float = 0.2  # per 100 words of title and content: short hits fit budgets
    idf: bool = True  # weight query words by their rarity among the candidates
    lexical_weight: float = 0.6  # share of query words in a turn or hit, against cosine
    match_weight: float = 2.0  # a hit's own match against its fused rank
    time_weight: float = 0.2  # added to the match of a hit dated in the time the query names
    day_weight: float = 0.4  # the same when that time is a day or a few (NAMED_DAYS)
    diversity: float = 0.0  # taken off a hit per better hit from the same conversation
    when_weight: float = 0.2  # added to a turn or hit naming a time, for a "when" question
    # in a chat with an assistant, the similarity of any document but a user turn's (windows,
    # passages of long answers, the episode's own) is multiplied by this
    answer_sim: float = 1.0
    # words of an assistant's turn shown in a hit, unless the question asks what it said:
    # a question about the user is answered by the user's turns, and a long answer beside
    # them spends the budget that other memories need
    answer_words: int = 25
    profile_weight: float = 0.0  # added to the match of a fact about who the user is
    # for a question of how things are now ("at the moment", "these days"), added in full to
    # the newest hit of the pool and in part to the others, by their rank in time
    recent_weight: float = 0.2
    # added to a turn or hit naming a work, for a question of which books, films, games ...
    works_weight: float = 0.2


DEFAULT = FocusParams()


def term_weights(query: str, texts: Sequence[str]) -> dict[str, float]:
    """Weight each query term by how rare it is among the candidates' texts.

    A word that nearly every candidate contains (the other person's name in a chat between
    two people) says little about which candidate answers.
    """
    qterms = terms(query)
    bags = [terms(t) for t in texts]
    n = len(bags)
    return {t: math.log(1 + (n + 1) / (1 + sum(t in b for b in bags))) for t in qterms}


def refine(
    hits: Sequence[SearchHit],
    episodes: Mapping[str, Episode],
    query: str,
    qvec: np.ndarray,
    vectors_of: VectorsOf | None,
    params: FocusParams | None = None,
    lead: Sequence[SearchHit] = (),
    head: int = 0,
    period: Period | None = None,
) -> list[SearchHit]:
    """Focus long episodes, rerank every hit by how well its text matches, drop repeats.

    The new order mixes the fused rank with the hit's own match (vector similarity of its
    best document plus the share of query words it contains, plus a bonus when it is dated
    in the time the query names, or by how new it is for a question of how things are now),
    which the fused rank of a long episode cannot know; a fact whose turns an earlier hit
    already shows is left out. Two hits cut from one episode share its id and differ in
    content and message_ids. Given a second fused ranking
    (lead), the first `head` hits are those it ranks best, the rest as `hits` ranks them.
    `period`: the time the query names (periods.query_period), which the caller has read.
    """
    import numpy as np

    params = params or DEFAULT
    known = {(h.kind, h.id) for h in hits}
    lead = lead if head > 0 else ()
    pool = [*hits, *(h for h in lead if (h.kind, h.id) not in known)]
    q = np.asarray(qvec, dtype=np.float32)
    ep_hits = [episodes[h.id] for h in pool if h.kind == "episode" and h.id in episodes]
    views = {ep.id: spoken(ep.id, ep.messages) for ep in ep_hits}
    said = {ep.id: [ep.messages[i] for i in views[ep.id].indexes] for ep in ep_hits}
    if params.idf:
        texts = [m.content for ms in said.values() for m in ms]
        weights = term_weights(query, texts + [h.content for h in pool if h.kind == "fact"])
    else:
        weights = dict.fromkeys(terms(query), 1.0)
    total = math.fsum(weights.values())
    kinds = stand_ins(query)
    family = family_stand_ins(query)
    shown = set(weights).union(*family.values())  # the words a long turn is shown around
    wanted = [
        f"{ep.id}#{n}" for ep in ep_hits for n in range(0, 1 + _windows(said[ep.id]))
    ]
    wanted += [d for ep in ep_hits for ds in views[ep.id].passages.values() for d in ds]
    wanted += [d for ep in ep_hits for d in views[ep.id].user_turns.values()]
    fact_ids = [h.id for h in pool if h.kind == "fact"]
    stored = dict(vectors_of("episode", wanted)) if vectors_of and wanted else {}
    stored.update(vectors_of("fact", fact_ids) if vectors_of and fact_ids else {})

    ids = list(stored)  # one product for every stored vector, not one per document
    products = (np.asarray([stored[d] for d in ids], dtype=np.float32) @ q) if ids else ()
    sims = dict(zip(ids, [float(x) for x in products], strict=True))

    def sim(doc_id: str) -> float:
        return sims.get(doc_id, 0.0)

    def lexical(text: str, own: bool = False) -> float:
        if not total:
            return 0.0
        # fsum: a set's order changes from one process to the next, and a plain float sum
        # with it, so a tie at the cut went either way (the same search, two answers)
        found = terms(text)
        if own:  # the user's "futsal" matches "sports"; an assistant's list does not
            found = standing_in(found, kinds)
        found = standing_in(found, family)  # "allergic" matches "allergies"
        return math.fsum(weights[t] for t in found.intersection(weights)) / total

    time_weight = params.day_weight if period and period.few_days else params.time_weight
    when = params.when_weight if asks_when(query) else 0.0
    other_words = OTHER_WORDS if recalls_answer(query) else min(params.answer_words, OTHER_WORDS)

    def dated(text: str) -> float:
        return when if when and names_time(text) else 0.0

    works = params.works_weight if asks_works(query) else 0.0
    people = {m.name for ep in ep_hits for m in ep.messages if m.name} if works else set()

    def titled(text: str) -> float:
        return works if works and names_work(text, people) else 0.0

    newest = newness(pool) if asks_now(query) else {}

    def matched(h: SearchHit, match: float) -> tuple[float, SearchHit]:
        """The hit's own match (and the hit): rank-free, so either ranking can use it."""
        match += params.lexical_weight * lexical(h.content, h.kind == "fact")
        if newest and h.timestamp:
            match += params.recent_weight * newest.get(h.timestamp, 0.0)
        if h.kind == "fact":
            match += dated(h.content) + titled(h.content)
            if h.category == "user_profile":
                match += params.profile_weight
        if period and in_period(period, h):
            match += time_weight
        match *= params.match_weight
        return match - params.length_penalty * len(f"{h.title or ''} {h.content}".split()) / 100, h

    own: dict[tuple[str, str], list[tuple[float, SearchHit]]] = {}
    for h in pool:
        ep = episodes.get(h.id) if h.kind == "episode" else None
        if ep is None:
            own[(h.kind, h.id)] = [matched(h, sim(h.id))]
            continue
        msgs = said[ep.id]
        tails = views[ep.id].passages
        alone = views[ep.id].user_turns

        scale = params.answer_sim if alone else 1.0

        def turn_sim(
            i: int, ep: Episode = ep, tails: Mapping[int, list[str]] = tails,
            alone: Mapping[int, str] = alone, scale: float = scale,
        ) -> float:
            own = [sim(alone[i])] if i in alone else []
            rest = [sim(_window_id(ep, i)), *(sim(d) for d in tails.get(i, ()))]
            return max([*own, *(scale * x for x in rest)])

        sims_of = [turn_sim(i) for i in range(len(msgs))]
        times = [dated(m.content) for m in msgs]  # each turn read once for both rankings
        works_of = [titled(m.content) for m in msgs]
        turn = [
            sims_of[i] + params.lexical_weight * lexical(m.content, is_human(m))
            + times[i] + works_of[i]
            for i, m in enumerate(msgs)
        ]
        if len(ep.messages) <= params.min_messages or not msgs:
            keeps = [list(range(len(msgs)))]
            # a long message that matches beyond what the narrative shows is shown there
            # an LLM's narrative is already short; an offline one is the transcript
            cut = other_words if ep.made_by != "llm" else OTHER_WORDS
            deep = deep_match(msgs, shown, cut)
            parts = [replace(h, content=excerpt(ep, msgs, shown, cut)) if deep else h]
        else:
            keeps = _spans(turn, params)
            parts = [focused_hit(h, ep, [msgs[i] for i in keep], shown, other_words)
                     for keep in keeps]
        own[(h.kind, h.id)] = [
            matched(part, max([scale * sim(f"{ep.id}#0"), *(sims_of[i] for i in keep)])
                    + max((times[i] + works_of[i] for i in keep), default=0.0))
            for keep, part in zip(keeps, parts, strict=True)
        ]

    diversity = params.diversity

    def ranked(order: Sequence[SearchHit], limit: int | None = None) -> list[SearchHit]:
        scored = [
            (RRF_K / (RRF_K + rank) + match, part)
            for rank, h in enumerate(order)
            for match, part in own[(h.kind, h.id)]
        ]
        scored.sort(key=lambda t: -t[0])
        score = {id(part): s for s, part in scored}  # each part is scored once per ranking
        if diversity:
            scored = diversified(scored, diversity)
        kept = without_repeats([h for _, h in scored])[:limit]
        return [replace(h, score=score[id(h)]) for h in kept]

    best = ranked(hits)
    if not lead or head < 1:
        return best
    return without_repeats(ranked(lead, head) + best, also_episodes=True)


def newness(hits: Sequence[SearchHit]) -> dict[datetime, float]:
    """Each time the hits were said at, 1 for the newest to 0 for the oldest, by rank."""
    times = sorted({h.timestamp for h in hits if h.timestamp})
    return {t: i / (len(times) - 1) for i, t in enumerate(times)} if len(times) > 1 else {}


def without_repeats(hits: Sequence[SearchHit], also_episodes: bool = False) -> list[SearchHit]:
    """The hits less each fact (or, also_episodes, any hit) whose turns earlier hits show."""
    seen: set[str] = set()
    shown: set[tuple[str, tuple[str, ...]]] = set()
    out = []
    for h in hits:
        if (h.id, h.message_ids) in shown:
            continue
        if (h.kind == "fact" or also_episodes) and h.message_ids and set(h.message_ids) <= seen:
            continue
        out.append(h)
        seen.update(h.message_ids)
        shown.add((h.id, h.message_ids))
    return out


def _windows(spoken: Sequence[Message]) -> int:
    return -(-len(spoken) // WINDOW_MESSAGES)


def _window_id(ep: Episode, index: int) -> str:
    """The vector document of the window holding the index-th non-empty message."""
    return f"{ep.id}#{index // WINDOW_MESSAGES + 1}"


def _spans(scores: Sequence[float], p: FocusParams) -> list[list[int]]:
    """Up to p.spans disjoint runs of p.turns turns, each around the best turn not yet kept.

    Each run becomes its own hit and is ranked on its own match, so a second passage of a
    long episode competes for the budget instead of riding along with the first.
    """
    n = len(scores)
    out: list[list[int]] = []
    kept: set[int] = set()
    ranked = sorted(range(n), key=lambda i: -scores[i])
    for anchor in ranked:
        if len(out) >= p.spans:
            break
        if anchor in kept:
            continue
        if out and scores[anchor] <= p.span_floor * scores[ranked[0]]:
            break
        start = max(0, min(anchor - p.before, n - p.turns))
        span = [i for i in range(start, min(n, start + p.turns)) if i not in kept]
        out.append(span)
        kept.update(span)
    return out


def focused_hit(
    hit: SearchHit, ep: Episode, messages: Sequence[Message], wanted: Collection[str] = (),
    other_words: int = OTHER_WORDS,
) -> SearchHit:
    """The hit with its content made of these turns only, and their ids as message_ids."""
    if len(messages) == len(ep.messages) and not deep_match(messages, wanted, other_words):
        return hit
    return replace(
        hit,
        content=excerpt(ep, messages, wanted, other_words),
        message_ids=tuple(m.id for m in messages),
        timestamp=messages[0].timestamp or hit.timestamp,
    )


def excerpt(
    ep: Episode, messages: Sequence[Message], wanted: Collection[str] = (),
    other_words: int = OTHER_WORDS,
) -> str:
    """A dated excerpt that names each speaker; "[…]" marks skipped turns and words.

    A message too long to show whole (HUMAN_WORDS, or other_words of any other speaker's)
    is shown where it holds most of the wanted terms.
    """
    when = messages[0].timestamp or ep.timestamp
    people = list(dict.fromkeys(speaker_label(m) for m in messages))
    who = people[0] if len(people) == 1 else f"{', '.join(people[:-1])} and {people[-1]}"
    lines = [f"On {when:%A}, {when.day} {when:%B} {when.year}, {who}:" if when else f"{who}:"]
    position = {m.id: i for i, m in enumerate(ep.messages)}
    last = None
    for m in messages:
        if last is not None and position[m.id] > last + 1:
            lines.append("[…]")
        last = position[m.id]
        text = " ".join(normalise_quotes(m.content).split())
        cap = HUMAN_WORDS if is_human(m) else other_words
        words = text.split()
        if len(words) > cap:
            start = best_stretch(words, cap, wanted)
            text = " ".join(words[start : start + cap])
            text = ("[…] " if start else "") + text + (" […]" if start + cap < len(words) else "")
        lines.append(f"{speaker_label(m)}: {dated_line(text, m.timestamp or when)}")
    return "\n".join(lines)


def deep_match(
    messages: Sequence[Message], wanted: Collection[str], other_words: int = OTHER_WORDS
) -> bool:
    """Whether a message is longer than a hit shows: past OTHER_WORDS (the narrative's
    cut) when it holds wanted terms only beyond it, or past a tighter other_words at all."""
    for m in messages:
        words = m.content.split()
        cap = HUMAN_WORDS if is_human(m) else OTHER_WORDS
        if not is_human(m) and other_words < OTHER_WORDS and len(words) > other_words:
            return True
        if len(words) > cap and best_stretch(words, cap, wanted) > 0:
            return True
    return False


def diversified(
    scored: Sequence[tuple[float, SearchHit]], penalty: float
) -> list[tuple[float, SearchHit]]:
    """Reorder best-first hits so a conversation's second hit yields to other conversations.

    Evidence spread over sessions (multi-hop questions) needs one hit from each before a
    second from any.
    """
    count: dict[str, int] = {}
    out = []
    for score, h in scored:
        key = h.conversation_id or h.id
        out.append((score - penalty * count.get(key, 0), h))
        count[key] = count.get(key, 0) + 1
    out.sort(key=lambda t: -t[0])
    return out
