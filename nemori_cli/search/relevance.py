"""What a person reads beside a hit: a 0-1 relevance, an identity per hit, a snippet.

The ranking score only orders the hits of one query. Relevance says how close a hit is at
all: a logistic curve over the best cosine between the query and the hit's stored vectors and
the share of the query's content words the hit contains. Its weights and the STRONG threshold
are fitted on LoCoMo samples 0-4 (answerable questions against the same questions asked of
another conversation) by bench/relevance_calibrate.py; docs/benchmarks.md has the figures.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from nemori_cli.models import Episode, SearchHit
from nemori_cli.search.focus import term_weights
from nemori_cli.search.kinds_named import stand_ins
from nemori_cli.search.people import names_of
from nemori_cli.search.periods import Period, in_period, only_a_time
from nemori_cli.search.questions import asked_name
from nemori_cli.search.turns import standing_in, terms
from nemori_cli.search.word_families import family_stand_ins

if TYPE_CHECKING:
    import numpy as np

VectorsOf = Callable[[str, Sequence[str]], Mapping[str, Any]]  # (kind, doc ids)

# fitted by bench/relevance_calibrate.py on LoCoMo samples 0-4
BIAS = -6.56
COSINE_WEIGHT = 11.59
COVERAGE_WEIGHT = 3.11
STRONG = 0.5  # below this, the best hit is "no strong match"
# a fact naming a member of a kind the question asks for ("Derek is coeliac" for "What pudding
# should I make?", "i have futsal" for "Which sports do I do?"), or the name asked for ("The
# user's sister Anna ..." for "What's my sister's name?"), is relevant in other words than
# the question's, which word and vector closeness do not see
MEMBER_RELEVANCE = 0.6
SNIPPET_CHARS = 160
WINDOW_MESSAGES = 4  # messages per stored vector window (indexing.WINDOW_MESSAGES)


def relevance(cosine: float, coverage: float) -> float:
    """Map the best cosine and the query-word coverage to 0-1."""
    z = BIAS + COSINE_WEIGHT * cosine + COVERAGE_WEIGHT * coverage
    return 1.0 / (1.0 + math.exp(-z))


def coverage(query: str, text: str) -> float:
    """The share of the query's content words (stemmed) that the text contains, a word
    counting as contained when one of its family is ("allergic" for "allergies")."""
    wanted = terms(query)
    found = wanted & standing_in(terms(text), family_stand_ins(query))
    return len(found) / len(wanted) if wanted else 0.0


def vector_ids(hit: SearchHit, episode: Episode | None) -> tuple[str, list[str]]:
    """The vector documents that stand for a hit: a fact's own, an episode's title and windows."""
    if hit.kind == "fact" or episode is None:
        return hit.kind, [hit.id]
    windows = -(-len(episode.messages) // WINDOW_MESSAGES)
    return "episode", [f"{episode.id}#{n}" for n in range(windows + 1)]


def best_cosine(qvec: np.ndarray, vectors: Mapping[str, Any]) -> float:
    """The highest cosine between the query and any of these (unit) vectors; 0 if none."""
    import numpy as np

    q = np.asarray(qvec, dtype=np.float32)
    sims = [float(np.asarray(v, dtype=np.float32) @ q) for v in vectors.values()]
    return max(sims, default=0.0)


def hit_vectors(
    hits: Sequence[SearchHit], eps: Sequence[Episode | None], vectors_of: VectorsOf | None
) -> list[Mapping[str, Any]]:
    """Each hit's stored vectors (see vector_ids), read with one call per kind."""
    wanted = [vector_ids(h, ep) for h, ep in zip(hits, eps, strict=True)]
    stored: dict[str, Mapping[str, Any]] = {}
    for kind in dict.fromkeys(kd for kd, _ in wanted):
        ids = [d for kd, ds in wanted if kd == kind for d in ds]
        stored[kind] = vectors_of(kind, ids) if vectors_of else {}
    return [{d: stored[kd][d] for d in ds if d in stored[kd]} for kd, ds in wanted]


def features(
    query: str, qvec: np.ndarray, hit: SearchHit, vectors: Mapping[str, Any]
) -> tuple[float, float]:
    """(best cosine, coverage) of one hit, given its stored vectors."""
    return best_cosine(qvec, vectors), coverage(query, f"{hit.title or ''}\n{hit.content}")


def annotate(
    hits: Sequence[SearchHit],
    query: str,
    qvec: np.ndarray,
    episodes: Mapping[str, Episode],
    vectors_of: VectorsOf | None,
    parts: Sequence[tuple[str, np.ndarray]] = (),
    period: Period | None = None,
) -> list[SearchHit]:
    """Give each hit its relevance, its own identity and a snippet of what matched; given the
    parts of a question (its events, with their vectors), a hit is as relevant as it is to
    the question or to its best part; given the period the question names, a hit of it is
    relevant when the question asks about that time alone."""
    eps = [episodes.get(h.id) if h.kind == "episode" else None for h in hits]
    weights = term_weights(query, [h.content for h in hits])  # a word every hit has says little
    asked = [(query, qvec), *parts]
    members = frozenset().union(*stand_ins(query).values())
    named = asked_name(query)
    of_time = period if period and only_a_time(query) else None
    out = []
    for h, ep, vectors in zip(hits, eps, hit_vectors(hits, eps, vectors_of), strict=True):
        best = max(relevance(*features(text, vec, h, vectors)) for text, vec in asked)
        if h.kind == "fact" and members & terms(h.content):
            best = max(best, MEMBER_RELEVANCE)
        if named and names_of(named, h.content):
            best = max(best, MEMBER_RELEVANCE)
        if of_time and in_period(of_time, h):
            best = max(best, MEMBER_RELEVANCE)
        out.append(
            replace(
                h,
                relevance=round(best, 4),
                hit_id=hit_identity(h, ep),
                snippet=snippet(query, h, weights=weights),
            )
        )
    return out


def hit_identity(hit: SearchHit, episode: Episode | None) -> str:
    """The record id, and for part of an episode the span of its messages: `ep_x:3-6`."""
    if episode is None or not hit.message_ids or tuple(hit.message_ids) == episode.message_ids:
        return hit.id
    position = {m: i for i, m in enumerate(episode.message_ids, start=1)}
    places = sorted(position[m] for m in hit.message_ids if m in position)
    if not places:
        return hit.id
    return f"{hit.id}:{places[0]}-{places[-1]}"


_LINE_LABEL = re.compile(r"^[^:\n]{1,40}:\s")
LEAD_CHARS = 40  # context kept before the first matching word


def snippet(
    query: str,
    hit: SearchHit,
    width: int = SNIPPET_CHARS,
    weights: Mapping[str, float] | None = None,
) -> str:
    """The line of the hit that holds most of the query's words (each counting its weight,
    or 1), from just before the first."""
    if hit.kind == "fact":
        return _cut(hit.content, width)
    wanted = terms(query).union(*family_stand_ins(query).values())
    weight = weights or {}
    lines = [ln for ln in hit.content.splitlines() if ln.strip()]
    body = lines[1:] or lines  # the first line is the dated opening
    best = max(
        body,
        key=lambda ln: math.fsum(weight.get(t, 1.0) for t in wanted & terms(ln)),
        default="",
    )
    label = _LINE_LABEL.match(best)
    head, text = (best[: label.end()], best[label.end() :]) if label else ("", best)
    first = next(
        (w.start() for w in re.finditer(r"[A-Za-z0-9]+", text) if terms(w.group()) & wanted), 0
    )
    if first > LEAD_CHARS:
        text = "…" + text[text.rfind(" ", 0, first - LEAD_CHARS) + 1 :]
    return _cut(head + text, width)


def _cut(text: str, width: int) -> str:
    """Collapse whitespace and cut at a word boundary to width characters."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    cut = flat[: width - 1]
    if " " in cut[width // 2 :]:
        cut = cut[: cut.rfind(" ")]
    return f"{cut}…"
