"""Ranking levers tried in bench/locomo_tune.py before any of them reaches search/.

Each works on one question's candidate lists or fused pool, as Memory.search would:
- turn_ranking: a BM25 index over single turns (or windows of w turns) of a user's
  episodes, its ranking rolled up to episodes, as a further episode list;
- expanded: a fused pool where each fact is followed by its source episodes and each
  episode by the facts drawn from it (those not already in the pool).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from nemori_cli.models import Episode, Fact

POOL = 90


class TurnIndex:
    """BM25 over the turns (or w-turn windows) of one user's episodes."""

    def __init__(self, episodes: Mapping[str, Episode], window: int = 1) -> None:
        import bm25s
        import Stemmer

        self.owner: list[str] = []
        self.msgs: list[tuple[str, ...]] = []
        self._by_msg: dict[str, list[str]] | None = None
        texts: list[str] = []
        for ep in episodes.values():
            msgs = [m for m in ep.messages if m.content.strip()]
            step = max(1, window // 2) if window > 1 else 1
            for start in range(0, max(1, len(msgs) - window + 1), step):
                chunk = msgs[start : start + window]
                if chunk:
                    texts.append("\n".join(m.content for m in chunk))
                    self.owner.append(ep.id)
                    self.msgs.append(tuple(m.id for m in chunk))
        self._stemmer = Stemmer.Stemmer("english")
        self._bm25 = bm25s.BM25()
        self._bm25.index(self._tok(texts), show_progress=False)
        self.size = len(texts)

    def _tok(self, texts: list[str]) -> Any:
        import bm25s

        return bm25s.tokenize(texts, stopwords="en", stemmer=self._stemmer, show_progress=False)

    def ranked(self, query: str, n: int = POOL) -> list[int]:
        """Positions of the best-matching turns (or windows), best first."""
        res, scores = self._bm25.retrieve(
            self._tok([query]), k=min(n, self.size), show_progress=False
        )
        return [int(i) for i, s in zip(res[0], scores[0], strict=True) if s > 0]

    def episodes(self, query: str, n: int = POOL) -> list[str]:
        """Episode ids in the order their best turn ranks, up to n turns read."""
        return list(dict.fromkeys(self.owner[i] for i in self.ranked(query, n)))

    def facts(self, query: str, facts: Mapping[str, Fact], n: int = POOL) -> list[str]:
        """Current fact ids in the order their best source turn ranks."""
        if self._by_msg is None:
            self._by_msg = {}
            for f in facts.values():
                if not f.superseded_by:
                    for m in f.source_message_ids:
                        self._by_msg.setdefault(m, []).append(f.id)
        by_msg = self._by_msg
        ids = (f for i in self.ranked(query, n) for m in self.msgs[i] for f in by_msg.get(m, ()))
        return list(dict.fromkeys(ids))


def fuse_mean(
    candidates: dict[str, list[Sequence[str]]], limit: int, fact_weight: float = 1.0,
    k: int | None = None,
) -> list[tuple[str, str, float]]:
    """Search's balanced fusion (each kind's RRF sum scaled to two lists, facts weighted),
    at its RRF k unless given."""
    from nemori_cli.search.fusion import fuse
    from nemori_cli.search.hybrid import BALANCED_K

    return fuse(candidates, limit, weights={"fact": fact_weight}, k=k or BALANCED_K)


def facts_by_episode(facts: Mapping[str, Fact]) -> dict[str, list[str]]:
    """Current facts' ids per source episode, in id order."""
    out: dict[str, list[str]] = {}
    for f in facts.values():
        if f.superseded_by:
            continue
        for e in f.source_episode_ids:
            out.setdefault(e, []).append(f.id)
    return out


def expanded(
    fused: Sequence[tuple[str, str, float]],
    facts: Mapping[str, Fact],
    by_episode: Mapping[str, Sequence[str]],
    mode: str,
    limit: int,
) -> list[tuple[str, str, float]]:
    """The fused pool with neighbours inserted after each hit (mode: fact, episode or both)."""
    seen = {(kd, rid) for kd, rid, _ in fused}
    out: list[tuple[str, str, float]] = []
    for kd, rid, s in fused:
        out.append((kd, rid, s))
        if kd == "fact" and mode in ("fact", "both"):
            more = [("episode", e) for e in facts[rid].source_episode_ids]
        elif kd == "episode" and mode in ("episode", "both"):
            more = [("fact", f) for f in by_episode.get(rid, ())]
        else:
            more = []
        for item in more:
            if item not in seen:
                seen.add(item)
                out.append((*item, s))
    return out[:limit]


def fuse_mixed(
    candidates: dict[str, list[Sequence[str]]],
    limit: int,
    scale_power: float = 1.0,
    fact_share: float = 0.0,
    interleave: bool = False,
) -> list[tuple[str, str, float]]:
    """Fuse with a kind's RRF sum scaled by (2 / lists) ** scale_power (0: unscaled); then
    facts are guaranteed fact_share of the pool, or kinds alternate (interleave)."""
    from nemori_cli.search.fusion import rrf

    by_kind: dict[str, list[tuple[str, str, float]]] = {}
    for kind, rankings in candidates.items():
        scale = (2 / max(1, len(rankings))) ** scale_power
        ranked = sorted(((kind, r, s * scale) for r, s in rrf(rankings).items()),
                        key=lambda t: (-t[2], t[1]))
        by_kind[kind] = ranked
    facts, eps = by_kind.get("fact", []), by_kind.get("episode", [])
    if interleave:
        out = [t for pair in zip(eps, facts, strict=False) for t in pair]
        n = min(len(eps), len(facts))
        return (out + eps[n:] + facts[n:])[:limit]
    merged = sorted(facts + eps, key=lambda t: (-t[2], t[0], t[1]))[:limit]
    want = min(len(facts), int(fact_share * limit))
    have = sum(1 for t in merged if t[0] == "fact")
    if have < want:
        keep_eps = [t for t in merged if t[0] == "episode"][: limit - want]
        merged = sorted(keep_eps + facts[:want], key=lambda t: (-t[2], t[0], t[1]))
    return merged



PROFILE_SIZE = int(__import__("os").environ.get("PROFILE_SIZE", "8"))
THEMES = {
    "likes and wishes": r"\b(?:love|loves|like|likes|enjoy\w*|prefer\w*|favou?rite|fan of|into"
    r"|passion\w*|hobb\w*|looking for|hate\w*|dislike\w*|want\w*|dream\w*|interest\w*)\b",
    "work and learning": r"\b(?:work\w*|job|career|compan\w+|boss|colleague\w*|business|stud\w+"
    r"|school|degree|course|class\w*|volunteer\w*|project\w*|teach\w*)\b",
    "places": r"\b(?:live\w*|moved|from|grew up|born|visit\w*|trip|travel\w*|city|country|home)\b",
    "people": r"\b(?:wife|husband|partner|kids?|children|son|daughter|family|friends?|mom|mother"
    r"|dad|father|sister|brother|pets?|dog|cat|grand\w+)\b",
    "beliefs and health": r"\b(?:believ\w*|support\w*|communit\w*|identit\w*|faith|church"
    r"|politic\w*"
    r"|health\w*|therap\w*|mental|values?|cause)\b",
}


def profiles(facts: Mapping[str, Fact], size: int = PROFILE_SIZE) -> dict[str, Fact]:
    """Per person and theme, documents of up to `size` current facts in time order."""
    import re
    from dataclasses import replace

    groups: dict[tuple[str, str], list[Fact]] = {}
    for f in sorted(facts.values(), key=lambda f: (f.valid_from is None, f.valid_from, f.id)):
        if f.superseded_by:
            continue
        for theme, pattern in THEMES.items():
            if re.search(pattern, f.content, re.IGNORECASE):
                groups.setdefault((f.subject or "the user", theme), []).append(f)
    out: dict[str, Fact] = {}
    for (who, theme), group in groups.items():
        for n in range(0, len(group), size):
            chunk = group[n : n + size]
            pid = f"profile:{who}:{theme}:{n // size}"
            text = f"{who}, {theme}: " + " ".join(f.content for f in chunk)
            out[pid] = replace(
                chunk[0], id=pid, content=text, category="profile",
                source_episode_ids=tuple(dict.fromkeys(e for f in chunk
                                                       for e in f.source_episode_ids)),
                source_message_ids=tuple(dict.fromkeys(m for f in chunk
                                                       for m in f.source_message_ids)),
            )
    return out


class ProfileIndex:
    """BM25 and vectors over one user's profile documents, fused into one ranking."""

    def __init__(self, docs: Mapping[str, Fact], embed: Any) -> None:
        import bm25s
        import numpy as np
        import Stemmer

        self.ids = list(docs)
        texts = [docs[i].content for i in self.ids]
        self._stemmer = Stemmer.Stemmer("english")
        self._bm25 = bm25s.BM25()
        self._bm25.index(self._tok(texts), show_progress=False)
        self.vectors = np.asarray(embed(texts), dtype=np.float32)

    def _tok(self, texts: list[str]) -> Any:
        import bm25s

        return bm25s.tokenize(texts, stopwords="en", stemmer=self._stemmer, show_progress=False)

    def lists(self, query: str, qvec: Any, n: int = 30) -> list[list[str]]:
        """Profile ids by BM25 and by cosine, best first."""
        import numpy as np

        k = min(n, len(self.ids))
        res, scores = self._bm25.retrieve(self._tok([query]), k=k, show_progress=False)
        lex = [self.ids[int(i)] for i, s in zip(res[0], scores[0], strict=True) if s > 0]
        sims = self.vectors @ np.asarray(qvec, dtype=np.float32)
        vec = [self.ids[int(i)] for i in np.argsort(-sims)[:k]]
        return [vec, lex]


def rrf_ids(rankings: Sequence[Sequence[str]]) -> list[str]:
    """Ids of several rankings fused by RRF, best first."""
    from nemori_cli.search.fusion import rrf

    scores = rrf(rankings)
    return sorted(scores, key=lambda i: (-scores[i], i))
