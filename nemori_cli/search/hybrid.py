"""Hybrid search: vector and BM25 candidates of each kind, fused, filtered, then refined."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, date, datetime, time
from typing import TYPE_CHECKING, Any

from nemori_cli.errors import UsageError
from nemori_cli.models import KINDS, Episode, Fact, Kind, SearchHit, aware
from nemori_cli.ops.doctor_indexes import ensure_indexes
from nemori_cli.parts import Parts
from nemori_cli.pipeline.facts import between_people
from nemori_cli.search.attributes import (
    SHOWN,
    answering,
    attribute_query,
    value_facts,
    values_first,
)
from nemori_cli.search.focus import DEFAULT, refine
from nemori_cli.search.fusion import SearchFilters, accepts, fuse, to_hit
from nemori_cli.search.kinds_named import members_query
from nemori_cli.search.lexical_lists import (
    lexical_episodes,
    lexical_hits,
    members_lists,
    turn_episodes,
)
from nemori_cli.search.periods import FIRST_OF, Period, event_episode, query_period
from nemori_cli.search.questions import (
    AttributeQuestion,
    asked_attribute,
    asks_advice,
    question_parts,
    recalls_answer,
)
from nemori_cli.search.relevance import annotate
from nemori_cli.search.user_turns import user_turn_order
from nemori_cli.search.word_families import with_family

if TYPE_CHECKING:
    import numpy as np

    from nemori_cli.store.vector_index import VectorIndex

REFINE_POOL = 50  # fused hits reranked by their own match (see focus.py) before the cut to k
MIN_POOL = 50  # candidates each index is asked for, at least
# The first hits come from a fusion where the turn list counts in full: a turn that holds
# the query's rare words puts its episode on top (hit@5 on LoCoMo samples 0-4 0.78 -> 0.83);
# below them, the balanced fusion keeps facts, whose short texts carry multi-hop evidence.
HEAD = 7
# In a chat with an assistant that lead is left out (its turn list scores the long answers'
# words, and the question is mostly about what the user said), unless the question asks
# what the assistant said. The user/assistant haystack, samples 0-4: preference questions
# sess@5 0.619 -> 0.780, two-event questions 0.793 -> 0.868, ev@1000 0.855 -> 0.871, hit@5
# 0.871 -> 0.858 (docs/benchmarks.md has the held-out figures).
LEAD_SAMPLE = 5  # nearest episodes that tell whether the store's chats are between people
# Below the lead, facts count 1.2 against episodes: their short texts fit more evidence in
# a reader's budget (LoCoMo 0-4 evidence recall at 1000 words 0.845 -> 0.858, multi-hop
# 0.588 -> 0.624, open-domain 0.564 -> 0.616 in the replay), and the lead keeps hit@5.
FACT_WEIGHT = 1.2
# The balanced fusion counts a list's first places more (RRF k 20, not 60): a record one
# ranker puts on top outranks one both rankers put midway (LoCoMo 0-4 in the replay:
# answer recall at 1000 words 0.811 -> 0.816, open-domain evidence 0.606 -> 0.642).
BALANCED_K = 20
# A question asking for advice ("Can you suggest a film for tonight?") rests on what the user
# once said of themself, in words the question does not repeat, and long answers that talk
# round the topic outrank that one statement. So, in a chat with an assistant, episodes are
# also ranked by their best user turn's vector alone (a fourth list), and focus scores an
# episode by its user turns only (the other documents' similarity times ADVICE_ANSWER_SIM).
# Preference questions on the haystack (bench/haystack_preferences.py), samples 0-4: session
# recall@5 0.381 -> 0.505, @10 0.649 -> 0.780, hit@5 0.242 -> 0.303; the haystack's own
# questions 0-4: sess@5 0.848 -> 0.854; a chat between people has no user turns: unchanged.
ADVICE_ANSWER_SIM = 0.0
# Advice also rests on the user's tastes and circumstances, which offline extraction files as
# user_profile facts ("The user enjoys dramas", "The user is lactose intolerant"): for an
# advice question the nearest of them are a third fact list, and focus adds this to their
# match. Preference questions on the haystack, samples 0-4: session recall@5 0.561 -> 0.583,
# @10 0.689 -> 0.758, hit@5 0.424 -> 0.455 (held out 0.470 -> 0.500, 0.727 -> 0.864).
ADVICE_PROFILE_WEIGHT = 0.2
# "How many days passed between X and Y?": each event's own episode lists, its best episode
# among the first hits (bench/haystack_pairs.py: sess@5 0-4 0.763 -> 0.817, held out 0.823
# -> 0.913)
PART_LISTS = True
# "Which sports do I do?": the facts and turns that name a sport are one more list each
# (search/kinds_named.py; figures in docs/benchmarks.md)
KIND_MEMBERS = True
ATTRIBUTE_POOL = 200  # facts the lexical query for an asked attribute's words takes


def search(
    parts: Parts,
    query: str,
    *,
    k: int = 10,
    kind: str = "all",
    since: datetime | None = None,
    until: datetime | None = None,
    user: str | None = None,
    conversation_id: str | None = None,
    category: str | None = None,
    include_superseded: bool = False,
    today: date | datetime | None = None,
) -> list[SearchHit]:
    """Return the k best episodes and facts for a query, hybrid-ranked; a time the query
    names relative to `today` (default: the UTC date now) is read against it."""
    filters = SearchFilters(  # a naive datetime from the Python API is read as UTC
        kinds_of(kind, category), aware(since), aware(until), conversation_id, category,
        include_superseded,
    )
    if k < 1:
        raise UsageError("-k/--limit must be at least 1")
    repo = parts.repo(user)
    if not repo.folder.exists() or not query.strip():
        return []
    parts.prefetch_query(query, user)  # a cold model loads while the indexes do
    ensure_indexes(parts, parts.user_id(user))
    pool = max(MIN_POOL, 3 * k) * (4 if filters.narrowing else 1)
    # parsed on demand: a search reads a few hundred records, not the whole store
    episodes: Mapping[str, Episode] = repo.episodes.lookup()
    tables: dict[str, Mapping[str, Episode | Fact]] = {
        "episode": episodes,
        "fact": repo.facts.lookup(),
    }
    kinds = tuple(kd for kd in filters.kinds if tables[kd])
    lexical_query = with_family(query)  # "allergies" asks for "allergic" too
    lexical = {kd: lexical_hits(parts, kd, lexical_query, pool, user) for kd in kinds}
    turns = lexical_hits(parts, "turn", lexical_query, pool, user) if "episode" in kinds else []
    events = question_parts(query) if PART_LISTS and "episode" in kinds else []
    named = members_lists(parts, members_query(query), kinds, pool, user) if KIND_MEMBERS else {}
    qvec, *event_vecs = parts.embedder.embed([query, *events])

    def admitted(kind: Kind, ids: Sequence[str]) -> list[str]:
        if kind == "episode" and not filters.narrowing:  # nothing to check but that it is
            return [rid for rid in ids if rid in episodes]  # stored: no parse of its messages
        out = []
        for rid in ids:
            rec = tables[kind].get(rid)
            if (
                rec is not None
                and accepts(rec, filters)
                and in_conversation(rec, filters.conversation_id, episodes)
            ):
                out.append(rid)
        return out

    vectors = parts.vectors(user)
    # admitted() re-checks every filter; the vector index is asked to filter only when
    # the filters may drop many (superseded facts are few, and metadata costs Chroma)
    wheres = {kd: filters.vector_where(kd) if filters.narrowing else None for kd in kinds}
    nearest = nearest_each(vectors, qvec, pool, wheres)
    candidates: dict[Kind, list[Sequence[str]]] = {}
    advice = asks_advice(query)
    day = today.date() if isinstance(today, datetime) else today or datetime.now(UTC).date()
    period = query_period(query, day)
    dated = (
        admitted("episode", period_order(vectors, qvec, pool, filters, period))
        if "episode" in kinds else []
    )
    asked = asked_attribute(query) if "fact" in kinds else None
    values = (
        attribute_values(parts, asked, [r for r, _ in [*lexical["fact"], *nearest["fact"]]],
                         tables["fact"], filters, episodes, user)
        if asked else []
    )
    event_lists: list[list[Sequence[str]]] = []
    for event, evec in zip(events, event_vecs, strict=True):
        near = finite(parts, "episode", user,
                      vectors.query("episode", evec, pool, where=wheres["episode"]))
        said = lexical_hits(parts, "episode", event, pool, user)
        event_lists.append([admitted("episode", [r for r, _ in ranked]) for ranked in (near, said)])
    for kd in kinds:
        vec = finite(parts, kd, user, nearest[kd])
        worded = [r for r, _ in lexical[kd]]
        candidates[kd] = [
            admitted(kd, [r for r, _ in vec]),
            admitted(kd, lexical_episodes(worded, episodes, query) if kd == "episode" else worded),
        ]
        if kd == "episode" and turns:  # episodes by their best single turn (indexing.py)
            candidates[kd].append(admitted(kd, turn_episodes(turns)))
        if kd == "episode" and dated:
            candidates[kd].append(dated)
        if named.get(kd):
            candidates[kd].append(admitted(kd, named[kd]))
        if kd == "episode":  # each event the question names has its own lists
            candidates[kd].extend(lst for lists in event_lists for lst in lists)
        if kd == "fact" and values:  # the facts that tell the job or home the question asks
            candidates[kd].append([f.id for f in values])
        if kd == "episode" and values:
            candidates[kd].append(admitted(kd, [e for f in values for e in f.source_episode_ids]))
        if kd == "fact" and advice:
            where = replace(filters, category="user_profile").vector_where("fact")
            near = finite(parts, kd, user, vectors.query(kd, qvec, pool, where=where))
            candidates[kd].append(admitted(kd, [r for r, _ in near]))
        if kd == "episode" and advice:
            pooled = dict.fromkeys([*candidates[kd][0], *candidates[kd][1]])
            by_user = user_turn_order(episodes, list(pooled), qvec, vectors)
            if by_user:
                candidates[kd].append(by_user)
    size = max(k, REFINE_POOL)
    balanced = fuse(candidates, size, weights={"fact": FACT_WEIGHT}, k=BALANCED_K)
    hits = [to_hit(kd, tables[kd][rid], s, episodes.get) for kd, rid, s in balanced]
    lead = []
    if (HEAD and turns and "episode" in candidates and len(candidates["episode"]) > 2
            and turn_led(query, candidates["episode"][0], episodes)):
        lead = [
            to_hit(kd, tables[kd][rid], s, episodes.get)
            for kd, rid, s in fuse(candidates, size, scaled=False)
        ]
    if HEAD and dated:  # the day's few episodes lead the head's fusion; their match decides
        fused = {h.id: h for h in hits if h.kind == "episode"}
        pinned = [fused.get(rid) or to_hit("episode", episodes[rid], 0.0, episodes.get)
                  for rid in dated]
        days = set(dated)
        rest = lead or hits  # a chat with an assistant has no turn-led fusion: the balanced one
        lead = [*pinned, *(h for h in rest if not (h.kind == "episode" and h.id in days))]
    params = (
        replace(DEFAULT, answer_sim=ADVICE_ANSWER_SIM, profile_weight=ADVICE_PROFILE_WEIGHT)
        if advice else None
    )
    best = refine(
        hits, episodes, query, qvec, vectors.embeddings, params=params, lead=lead, head=HEAD,
        period=period,
    )
    tops = [
        event_episode(event, [rid for _, rid, _ in fuse({"episode": lists}, FIRST_OF)], episodes)
        for event, lists in zip(events, event_lists, strict=True) if any(lists)
    ]
    best = each_event_early(best, tops)
    if values:
        ranked = {h.id: h for h in best if h.kind == "fact"}
        top = best[0].score if best else 0.0
        best = values_first(best, [ranked.get(f.id) or to_hit("fact", f, top, episodes.get)
                                   for f in values[:SHOWN]])
    best = best[:k]
    out = annotate(best, query, qvec, episodes, vectors.embeddings,
                   parts=list(zip(events, event_vecs, strict=True)), period=period)
    return answering(out, {f.id for f in values[:SHOWN]}) if values else out


def turn_led(query: str, nearest: Sequence[str], episodes: Mapping[str, Episode]) -> bool:
    """Whether the turn-led fusion picks the first hits: the question asks what an assistant
    said, or most of the episodes nearest the question are chats between people."""
    if recalls_answer(query):
        return True
    near = [episodes[rid] for rid in nearest[:LEAD_SAMPLE] if rid in episodes]
    return 2 * sum(between_people(ep.messages) for ep in near) >= len(near)


def attribute_values(
    parts: Parts,
    asked: AttributeQuestion,
    found: Sequence[str],
    facts: Mapping[str, Episode | Fact],
    filters: SearchFilters,
    episodes: Mapping[str, Episode],
    user: str | None,
) -> list[Fact]:
    """The facts that set the attribute a question asks for ("What's my job?"), among those
    found and those a lexical query for the attribute's words finds; the newest first."""
    said = lexical_hits(parts, "fact", attribute_query(asked), ATTRIBUTE_POOL, user)
    # an earlier value is one a later fact replaced: superseded facts answer "my old job",
    # and "my job in 2019"
    earlier = asked.past or asked.year is not None
    wanted = replace(filters, include_superseded=True) if earlier else filters
    return value_facts(asked, [
        rec for rid in dict.fromkeys([*found, *(r for r, _ in said)])
        if isinstance(rec := facts.get(rid), Fact)
        and accepts(rec, wanted)
        and in_conversation(rec, filters.conversation_id, episodes)
    ])


def each_event_early(hits: list[SearchHit], tops: Sequence[str]) -> list[SearchHit]:
    """The hits with each event's best episode among the first few: "How many days passed
    between the picnic and the parade?" needs both sessions, and the question as a whole
    matches one of them best."""
    out = list(hits)
    for place, rid in enumerate(tops, start=1):
        at = next((i for i, h in enumerate(out) if h.kind == "episode" and h.id == rid), None)
        if at is not None and at > place:
            out.insert(place, out.pop(at))
    return out


def period_order(
    vectors: VectorIndex, qvec: Any, pool: int, filters: SearchFilters, period: Period | None
) -> list[str]:
    """The episodes of the day or few days a query names ("on 1 May, 2022", "at Easter" in
    any recent year), nearest first.

    Whatever the words of "What movie did I watch on 1 May, 2022?", the episode of that day
    is a candidate, though it speaks of "the Lord of the Rings trilogy", not of a movie. A
    month is left to focus's time weight: "Which states might I be in during September,
    based on my plans?" asks what was said before it.
    """
    if period is None or not period.few_days:
        return []
    stretches = []
    for first_day, last_day in period.days:
        first = datetime.combine(first_day, time.min, tzinfo=UTC)
        last = datetime.combine(last_day, time.max, tzinfo=UTC)
        since = max(first, filters.since) if filters.since else first
        until = min(last, filters.until) if filters.until else last
        if since <= until:
            stretches.append(replace(filters, since=since, until=until).vector_where("episode"))
    if not stretches:
        return []
    where = stretches[0] if len(stretches) == 1 else {"$or": stretches}
    return [rid for rid, _ in vectors.query("episode", qvec, pool, where=where)]


def nearest_each(
    vectors: VectorIndex,
    qvec: np.ndarray,
    pool: int,
    wheres: Mapping[Kind, dict[str, Any] | None],
) -> dict[Kind, list[tuple[str, float]]]:
    """Each kind's nearest records, the kinds searched side by side.

    Chroma and numpy release the GIL while they search, so on two cores the second kind's
    search costs no wall time (100k + 100k: 6.5 -> 3.5 ms).
    """
    if not wheres:
        return {}
    first, *rest = wheres
    pending = {
        kd: side_pool().submit(vectors.query, kd, qvec, pool, where=wheres[kd]) for kd in rest
    }
    out = {first: vectors.query(first, qvec, pool, where=wheres[first])}
    out.update({kd: job.result() for kd, job in pending.items()})
    return out


@functools.cache
def side_pool() -> ThreadPoolExecutor:
    """The thread a search runs its second vector query on."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="nemori-search")


if hasattr(os, "register_at_fork"):  # a forked child has none of its parent's threads
    os.register_at_fork(after_in_child=side_pool.cache_clear)


def finite(
    parts: Parts, kind: Kind, user: str | None, hits: list[tuple[str, float]]
) -> list[tuple[str, float]]:
    """Vector candidates with a usable score: a NaN is never ranked (the index is marked)."""
    kept = [(r, s) for r, s in hits if math.isfinite(s)]
    if len(kept) < len(hits):
        parts.found_broken(
            parts.user_id(user),
            f"the {kind} vector index gave scores that are not numbers: those hits are left "
            "out; `nemori doctor --repair` rebuilds it",
        )
    return kept


def in_conversation(
    record: Episode | Fact, conversation_id: str | None, episodes: Mapping[str, Episode]
) -> bool:
    """Whether a record comes from the conversation (a fact: through one of its episodes)."""
    if conversation_id is None or isinstance(record, Episode):
        return True
    return any(
        (ep := episodes.get(e)) is not None and ep.conversation_id == conversation_id
        for e in record.source_episode_ids
    )


def kinds_of(kind: str, category: str | None = None) -> tuple[Kind, ...]:
    """The kinds a --kind value asks for; a fact category asks for facts only."""
    if kind not in ("all", *KINDS):
        raise UsageError(f"unknown kind {kind!r}: use episode, fact or all")
    if category and kind == "episode":
        raise UsageError("--category picks facts: it cannot be used with --kind episode")
    if category:
        return ("fact",)
    return KINDS if kind == "all" else (kind,)  # type: ignore[return-value]
