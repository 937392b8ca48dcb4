"""Seventh-round levers (issue 17) for bench/locomo_tune.py: second-stage and split queries.

- salient_terms: the rare words, names and numbers of the first stage's best hits that the
  question does not hold, weighted by their rarity among the user's turns (a second query);
- sub_queries: a question joining two things ("X and Y", "what ... and what ...") split in two;
- hypothetical: a question asking what would, might or could be (inference, not recall);
- fuse_weighted: fuse() with further lists counted at a weight below one.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from nemori_cli.models import Episode, Fact
from nemori_cli.pipeline.rewrite import word_set
from nemori_cli.search.fusion import RRF_K, rrf
from nemori_cli.store.bm25_query import stemmer, stopwords

FUNCTION = word_set(
    "i me my mine we us our you your he him his she her hers they them their its it's this that "
    "these those a an the and or but so to of in on at for with as is am are was were be been "
    "being have has had do does did not no yes what which who whom when where why how there "
    "here then than now can could will would should may might must also just very some any all "
    "more most other another both each about from into over after before during while"
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'-]+|\d{2,4}")
_POSSESSIVE = re.compile(r"'s$")
_HYPO = re.compile(r"\b(?:would|might|could|likely|probably|possibly)\b", re.IGNORECASE)
_CLAUSE = re.compile(r",?\s+and\s+(?=(?:what|which|who|whom|where|when|how|why)\b)",
                     re.IGNORECASE)
_PAIR = re.compile(r"\b(?:both\s+)?([\w'-]+)\s+and\s+([\w'-]+)(?:\s+both)?\b", re.IGNORECASE)


@functools.lru_cache(maxsize=65536)
def words(text: str) -> tuple[tuple[str, str, bool], ...]:
    """(surface, stem, looks like a name or number) of a text's content words."""
    stop = stopwords()
    out = []
    for m in _WORD.finditer(text):
        w = _POSSESSIVE.sub("", m.group().strip("'-"))
        low = w.lower()
        if "'" in low:
            continue
        if low in stop or low in FUNCTION or len(low) < 3:
            continue
        start = m.start()
        opens = start == 0 or text[max(0, start - 2) : start].strip() in (".", "!", "?", "")
        named = w[0].isdigit() or (w[0].isupper() and not opens)
        out.append((low, stemmer().stemWord(low), named))
    return tuple(out)


def best_turns(ep: Episode, question: str, idf: Mapping[str, float], n: int = 2) -> list[str]:
    """The n turns of an episode holding most of the question's words, rarest counting most."""
    asked = {s for _, s, _ in words(question)}
    scored = []
    for i, m in enumerate(ep.messages):
        shared = sum(idf.get(s, 1.0) for s in asked & {s for _, s, _ in words(m.content)})
        if shared:
            scored.append((-shared, i, m.content))
    return [t for _, _, t in sorted(scored)[:n]]


def hit_text(record: Episode | Fact, question: str, idf: Mapping[str, float]) -> str:
    """What the second stage reads of a first-stage hit: a fact whole, an episode's best turns."""
    if isinstance(record, Fact):
        return record.content
    return "\n".join(best_turns(record, question, idf))


def salient_terms(
    question: str,
    top: Sequence[str],
    df: Mapping[str, int],
    docs: int,
    n: int,
    name_boost: float = 2.0,
) -> list[str]:
    """The n words of the top texts most worth a second query: rare in the user's turns
    (df of docs), held by more of the top texts, names and numbers first."""
    asked = {s for _, s, _ in words(question)}
    seen: dict[str, list[float]] = {}  # stem -> [top texts holding it, name?]
    surface: dict[str, str] = {}
    for text in top:
        here: dict[str, bool] = {}
        for low, stem, named in words(text):
            if stem not in asked:
                here[stem] = here.get(stem, False) or named
                surface.setdefault(stem, low)
        for stem, named in here.items():
            got = seen.setdefault(stem, [0.0, 0.0])
            got[0] += 1
            got[1] = max(got[1], float(named))

    def weight(stem: str) -> float:
        count, named = seen[stem]
        idf = math.log(1 + (docs + 1) / (1 + df.get(stem, 0)))
        return count * idf * (name_boost if named else 1)

    best = sorted(seen, key=lambda s: (-weight(s), s))[:n]
    return [surface[s] for s in best]


def doc_freq(texts: Sequence[str]) -> dict[str, int]:
    """How many of the texts hold each content word (stemmed)."""
    df: dict[str, int] = {}
    for text in texts:
        for stem in {s for _, s, _ in words(text)}:
            df[stem] = df.get(stem, 0) + 1
    return df


def sub_queries(question: str) -> list[str]:
    """Two questions when one joins two clauses or two things; none otherwise."""
    parts = _CLAUSE.split(question, maxsplit=1)
    if len(parts) == 2 and all(p.strip() for p in parts):
        return [p.strip() for p in parts]
    m = _PAIR.search(question)
    if not m:
        return []
    left, right = m.group(1), m.group(2)
    if left.lower() in FUNCTION or right.lower() in FUNCTION:
        return []
    return [question[: m.start()] + side + question[m.end() :] for side in (left, right)]


def hypothetical(question: str) -> bool:
    """Whether a question asks what would, might or could be."""
    return bool(_HYPO.search(question))


def fuse_weighted(
    candidates: Mapping[str, Sequence[Sequence[str]]],
    extra: Mapping[str, Sequence[tuple[Sequence[str], float]]],
    limit: int,
    kind_weight: Mapping[str, float] | None = None,
    scaled: bool = True,
) -> list[tuple[str, str, float]]:
    """fuse(), each kind's further lists added at their weight (scale set by the base lists)."""
    fused: list[tuple[str, str, float]] = []
    for kind, rankings in candidates.items():
        scores = rrf(rankings)
        for ranking, w in extra.get(kind, ()):
            for rank, item in enumerate(ranking, start=1):
                scores[item] = scores.get(item, 0.0) + w / (RRF_K + rank)
        scale = 2 / max(1, len(rankings)) if scaled else 1.0
        scale *= (kind_weight or {}).get(kind, 1.0)
        fused.extend((kind, rid, s * scale) for rid, s in scores.items())
    fused.sort(key=lambda t: (-t[2], t[0], t[1]))
    return fused[:limit]


Lists = dict[str, list[tuple[Sequence[str], float]]]


def stage_lists(
    question: str,
    first: Sequence[tuple[str, str, float]],
    records: Mapping[str, Mapping[str, Episode | Fact]],
    search: Callable[[str, str], list[str]],
    df: Mapping[str, int],
    opts: Mapping[str, Any],
) -> tuple[Lists, dict[str, float]]:
    """The further weighted lists and kind weights the levers in opts add for one question.

    search(list_name, text) ranks ids for a text: list_name is "episode", "fact" or "turn"
    (BM25, the turn list rolled up to episodes), or "vec:episode" / "vec:fact" (embedded);
    df holds the user's turns' document frequencies, their number under "".
    """
    extra: Lists = {}
    names = [n for n in str(opts.get("lists", "episode,fact,turn")).split(",") if n]

    def add(text: str, weight: float) -> None:
        for name in names:
            kind = "episode" if name in ("turn", "vec:episode") else name.split(":")[-1]
            extra.setdefault(kind, []).append((search(name, text), weight))

    top = int(opts.get("s2_top", 0))
    if top and float(opts.get("s2_w", 0.5)) > 0:
        docs = df.get("", 1)
        idf = {s: math.log(1 + (docs + 1) / (1 + df.get(s, 0)))
               for _, s, _ in words(question)}
        src = str(opts.get("s2_src", "all"))
        chosen = [(kd, rid) for kd, rid, _ in first if src in ("all", kd)][:top]
        texts = [hit_text(records[kd][rid], question, idf) for kd, rid in chosen]
        terms = salient_terms(question, texts, df, docs, int(opts.get("s2_terms", 5)),
                              float(opts.get("s2_names", 2.0)))
        if opts.get("s2_mode") == "same":  # control: the question again, at the weight
            terms = [""]
        if terms:
            text = " ".join(terms if opts.get("s2_mode") == "only" else [question, *terms])
            add(text, float(opts.get("s2_w", 0.5)))
    if float(opts.get("dq_w", 0)) > 0:
        for sub in sub_queries(question):
            add(sub, float(opts["dq_w"]))
    weights = {"fact": float(opts.get("fw", 1.0))}
    if float(opts.get("hy_fw", 1.0)) != 1.0 and hypothetical(question):
        weights["fact"] *= float(opts["hy_fw"])
    return extra, weights
