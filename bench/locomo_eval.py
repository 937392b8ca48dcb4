"""LoCoMo scoring: questions with clean evidence, budgeted recall, raw-turn baselines, facts.

Used by bench/locomo.py. A "hit" here is anything with `title`, `content` and `message_ids`
(nemori's SearchHit, or a raw turn wrapped in Doc), ranked best first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import locomo_data
import Stemmer

from nemori_cli.answer.budget import hit_text, take_budget
from nemori_cli.pipeline.rewrite import word_set

BUDGETS = (500, 1000, 2000)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
THRESHOLDS = (0.65, 0.75, 0.85)
POOL = 90  # candidates per ranker before fusion, as Memory.search takes for k=30
_EVIDENCE = re.compile(r"D:?(\d+):0*(\d+)")
_WORD = re.compile(r"[a-z0-9]+")
_PORTER = Stemmer.Stemmer("porter")
_STOP = word_set(
    "a an the and or but of to in on at for with by from as is are was were be been being it its "
    "this that these those he she they them his her their him i me my we our you your not no "
    "yes do does did so than then there here what which who whom when where why how also just "
    "about into over after before some any all s t"
)


@dataclass(frozen=True)
class Question:
    """One scorable LoCoMo question of categories 1-4."""

    sample: int
    user: str
    category: int
    question: str
    answer: str
    evidence: frozenset[str]


@dataclass(frozen=True)
class Doc:
    """A raw turn as a baseline hit."""

    title: str | None
    content: str
    message_ids: tuple[str, ...]


def dia_ids(sample: dict[str, Any]) -> set[str]:
    """Every dialogue id of a sample."""
    return {str(t["dia_id"]) for _, turns, _ in locomo_data.sessions(sample) for t in turns}


def clean_evidence(raw: Sequence[str], known: set[str]) -> frozenset[str]:
    """Normalise evidence ids ("D8:6; D9:17", "D:11:26", "D30:05"); drop unknown ones."""
    out = set()
    for item in raw:
        for m in _EVIDENCE.finditer(str(item)):
            did = f"D{int(m.group(1))}:{int(m.group(2))}"
            if did in known:
                out.add(did)
    return frozenset(out)


def questions(samples: Sequence[dict[str, Any]], indexes: Sequence[int]) -> list[Question]:
    """The category 1-4 questions of the chosen samples, skipping those left with no evidence."""
    out = []
    for i in indexes:
        sample = samples[i]
        known = dia_ids(sample)
        for qa in sample["qa"]:
            cat = int(qa.get("category") or 0)
            if cat not in CATEGORIES:
                continue
            ev = clean_evidence(qa.get("evidence") or [], known)
            if ev:
                uid = locomo_data.user_id(sample)
                out.append(Question(i, uid, cat, qa["question"], str(qa.get("answer", "")), ev))
    return out


def content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


def content_stems(text: str) -> set[str]:
    """Content words by their Porter stems, as LoCoMo's own scorer compares answer tokens
    (snap-research/locomo, task_eval/evaluation.py): "cats" is "cat", "hiking" "hike"."""
    return set(_PORTER.stemWords(sorted(content_words(text))))


def score(q: Question, hits: Sequence[Any], evidence_text: str = "") -> dict[str, float]:
    """Evidence and answer recall per budget, hit@5/10 and session recall@5/10 of one list.

    Session recall@n: the share of the evidence's sessions among the first n sessions the
    hits come from, in order of first appearance (how one rolls up raw turns to sessions).
    Given the evidence turns' text, also ans+ev@1000: answer recall of the 1000 words with
    that text added, what no better ranking of the same hits could pass. stem@1000 is
    answer recall with words compared by their stems (content_stems).
    """
    out: dict[str, float] = {}
    answer = content_words(q.answer)
    for b in BUDGETS:
        taken = take_budget(hits, b)
        found = {m for h in taken for m in h.message_ids}
        out[f"ev@{b}"] = len(q.evidence & found) / len(q.evidence)
        if answer:
            shown = " ".join(hit_text(h) for h in taken)
            text = content_words(shown)
            out[f"ans@{b}"] = len(answer & text) / len(answer)
            if b == 1000:
                stems = content_stems(q.answer)
                out["stem@1000"] = len(stems & content_stems(shown)) / len(stems)
            if b == 1000 and evidence_text:
                text |= content_words(evidence_text)
                out["ans+ev@1000"] = len(answer & text) / len(answer)
    for n in (5, 10):
        out[f"hit@{n}"] = float(any(q.evidence & set(h.message_ids) for h in hits[:n]))
    wanted = {session_of(e) for e in q.evidence}
    ranked = sessions_ranked(hits)
    for n in (5, 10):
        out[f"sess@{n}"] = len(wanted & set(ranked[:n])) / len(wanted)
    return out


def session_of(dia_id: str) -> str:
    """The session a dialogue id ("D3:12") belongs to ("D3")."""
    return dia_id.split(":", 1)[0]


def sessions_ranked(hits: Sequence[Any]) -> list[str]:
    """Sessions of the hits' messages in order of first appearance (hits rolled up)."""
    return list(dict.fromkeys(session_of(m) for h in hits for m in h.message_ids))


def aggregate(rows: Sequence[tuple[Question, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Mean of every metric, overall and per category name; n = questions counted."""
    groups: dict[str, list[dict[str, float]]] = {"overall": []}
    for q, m in rows:
        groups["overall"].append(m)
        groups.setdefault(CATEGORIES[q.category], []).append(m)
    out = {}
    for name, ms in groups.items():
        keys = sorted({k for m in ms for k in m})
        agg = {k: sum(m[k] for m in ms if k in m) / max(1, sum(k in m for m in ms)) for k in keys}
        agg["n"] = len(ms)
        out[name] = agg
    return out


# --- raw-turn baselines -----------------------------------------------------------------


class RawTurns:
    """One sample's turns as documents ("<session date> <speaker>: <text>"), three rankers."""

    def __init__(
        self,
        sample: dict[str, Any] | None,
        embed: Callable[[Sequence[str]], Any],
        docs: Sequence[Doc] = (),
    ) -> None:
        """Index the sample's turns, or (sample None) the given turn documents."""
        import bm25s
        import numpy as np
        import Stemmer

        self.docs: list[Doc] = list(docs)
        for _, turns, when in locomo_data.sessions(sample) if sample else ():
            for t in turns:
                text = f"[{when}] {t.get('speaker')}: {locomo_data.turn_text(t)}"
                self.docs.append(Doc(None, text, (str(t["dia_id"]),)))
        texts = [d.content for d in self.docs]
        self._stemmer = Stemmer.Stemmer("english")
        self._bm25 = bm25s.BM25()
        self._bm25.index(self._tok(texts), show_progress=False)
        self._embed = embed
        self._matrix = np.asarray(embed(texts), dtype=np.float32)

    def _tok(self, texts: list[str]) -> Any:
        import bm25s

        return bm25s.tokenize(texts, stopwords="en", stemmer=self._stemmer, show_progress=False)

    def lexical(self, query: str, n: int = POOL) -> list[int]:
        res, scores = self._bm25.retrieve(
            self._tok([query]), k=min(n, len(self.docs)), show_progress=False
        )
        return [int(i) for i, s in zip(res[0], scores[0], strict=True) if s > 0]

    def vector(self, query: str, n: int = POOL, qvec: Any = None) -> list[int]:
        import numpy as np

        if qvec is None:
            qvec = self._embed([query])[0]
        sims = self._matrix @ np.asarray(qvec, dtype=np.float32)
        return [int(i) for i in np.argsort(-sims)[:n]]

    def rank(self, method: str, query: str, k: int, qvec: Any = None) -> list[Doc]:
        """The k best turns by "bm25", "embed" or "hybrid" (RRF of both, k=60)."""
        if method == "bm25":
            order = self.lexical(query)
        elif method == "embed":
            order = self.vector(query, qvec=qvec)
        else:
            fused: dict[int, float] = {}
            for ranking in (self.vector(query, qvec=qvec), self.lexical(query)):
                for r, i in enumerate(ranking, start=1):
                    fused[i] = fused.get(i, 0.0) + 1.0 / (60 + r)
            order = sorted(fused, key=lambda i: (-fused[i], i))
        return [self.docs[i] for i in order[:k]]


# --- fact extraction --------------------------------------------------------------------


def gold_facts(sample: dict[str, Any]) -> list[str]:
    """LoCoMo's observation facts of a sample (about both speakers, every session)."""
    out: list[str] = []
    for per_speaker in (sample.get("observation") or {}).values():
        for items in per_speaker.values():
            out.extend(str(item[0]) for item in items if item and item[0])
    return out


def fact_match(gold: Any, extracted: Any) -> dict[str, Any]:
    """Recall/precision matrices at each threshold from normalised gold and extracted vectors."""
    import numpy as np

    if len(gold) == 0 or len(extracted) == 0:
        zeros = dict.fromkeys(THRESHOLDS, 0)
        return {"gold": len(gold), "extracted": len(extracted), "gold_hit": zeros, "ext_hit": zeros}
    sims = np.asarray(gold) @ np.asarray(extracted).T
    best_gold, best_ext = sims.max(axis=1), sims.max(axis=0)
    return {
        "gold": len(gold),
        "extracted": len(extracted),
        "gold_hit": {t: int((best_gold >= t).sum()) for t in THRESHOLDS},
        "ext_hit": {t: int((best_ext >= t).sum()) for t in THRESHOLDS},
    }


def fact_summary(parts: Sequence[dict[str, Any]], turns: int) -> dict[str, Any]:
    """Sum per-sample fact matches into recall, precision and facts per 100 turns."""
    gold = sum(p["gold"] for p in parts)
    ext = sum(p["extracted"] for p in parts)
    out: dict[str, Any] = {"gold": gold, "extracted": ext, "per_100_turns": 100 * ext / turns}
    for t in THRESHOLDS:
        out[f"recall@{t}"] = sum(p["gold_hit"][t] for p in parts) / max(1, gold)
        out[f"precision@{t}"] = sum(p["ext_hit"][t] for p in parts) / max(1, ext)
    return out
