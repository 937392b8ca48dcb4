"""Fast what-if runs of search ranking on LoCoMo: fused candidates cached, refine re-run.

    python bench/locomo_tune.py STORE_ROOT            # score the current focus/search code
    python bench/locomo_tune.py STORE_ROOT -p turns=5 -p spans=1 --pool 30

STORE_ROOT is an ingested all-ten store made by bench/locomo.py (its cache folder). The
per-ranker candidate lists and stored vectors of every question are computed once (pickled
next to the store); each run then fuses, refines and scores them in seconds, as
Memory.search(question, k=30) would with no filters. For tuning only: the numbers to publish
come from bench/locomo.py.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import locomo_data  # noqa: E402
import locomo_eval as ev  # noqa: E402
import locomo_levers as levers  # noqa: E402
import locomo_twostage as twostage  # noqa: E402

from nemori_cli.search.hybrid import FACT_WEIGHT, REFINE_POOL  # noqa: E402

K = 30  # hits scored, as bench/locomo.py asks Memory.search for
POOL = 90
SPLITS = {"tune": range(0, 5), "held_out": range(5, 10), "all": range(0, 10)}


def prepare(root: Path) -> dict[str, Any]:
    """Candidate lists, query vectors and stored vectors for every question (cached)."""
    cache = root / "tune.pkl"
    if cache.exists():
        with open(cache, "rb") as fh:
            return pickle.load(fh)
    from nemori_cli.memory import Memory

    memory = Memory.open(data_dir=root / "data")
    samples = locomo_data.load_samples()
    qs = ev.questions(samples, range(len(samples)))
    vecs = memory.embedder.embed([q.question for q in qs])
    rows = []
    stored: dict[str, dict[str, Any]] = {}
    for q, qvec in zip(qs, vecs, strict=True):
        cands = {}
        for kd in ("episode", "fact"):
            vec = memory.parts.vectors(q.user).query(kd, qvec, POOL)
            lex = memory.parts.lexical(kd, q.user).query(q.question, POOL)
            cands[kd] = [[r for r, _ in vec], [r for r, _ in lex]]
        rows.append((q, qvec, cands))
        if q.user not in stored:
            stored[q.user] = {}
            for kd in ("episode", "fact"):
                index = memory.parts.vectors(q.user)
                stored[q.user].update(index.embeddings(kd, sorted(index.documents(kd))))
    data = {"rows": rows, "stored": stored}
    with open(cache, "wb") as fh:
        pickle.dump(data, fh)
    return data


def feedback_query(question: str, texts: list[str], pool_texts: list[str], n: int) -> str:
    """The question plus the n terms its best lexical documents share most (rarest first)."""
    import math

    from nemori_cli.search.focus import terms

    asked = terms(question)
    bags = [terms(t) for t in pool_texts]
    count: dict[str, int] = {}
    for t in texts:
        for w in terms(t) - asked:
            count[w] = count.get(w, 0) + 1
    def weight(w: str) -> float:
        df = sum(w in b for b in bags)
        return count[w] * math.log(1 + (len(bags) + 1) / (1 + df))
    best = sorted((w for w in count if count[w] > 1), key=lambda w: -weight(w))[:n]
    return " ".join([question, *best])


def evaluate(
    root: Path,
    data: dict[str, Any],
    params: Any,
    pool: int = REFINE_POOL,
    prf: int = 0,
    rocchio: float = 0.0,
    turns: int = 0,
    expand: str = "",
    grow: int = 0,
    turn_mode: str = "add",
    fact_weight: float = FACT_WEIGHT,
    scale_power: float = 1.0,
    fact_share: float = 0.0,
    head: int = 0,
    profile: str = "",
    stage: dict[str, Any] | None = None,
    rrf_k: int | None = None,
) -> dict[str, Any]:
    """Fuse, refine and score every question; aggregate per split."""
    from nemori_cli.memory import Memory
    from nemori_cli.search.focus import refine
    from nemori_cli.search.fusion import fuse, to_hit
    from nemori_cli.search.periods import query_period

    memory = Memory.open(data_dir=root / "data")
    tables: dict[str, dict[str, Any]] = {}
    out: list[tuple[Any, dict[str, float]]] = []
    t = time.perf_counter()
    stage_s = 0.0  # spent making the further lists (their queries included)
    for q, qvec, cands in data["rows"]:
        if q.user not in tables:
            repo = memory.parts.repo(q.user)
            tables[q.user] = {"episode": repo.episodes.all(), "fact": repo.facts.all()}
            if turns:
                tables[q.user]["turns"] = levers.TurnIndex(tables[q.user]["episode"], turns)
            if profile:
                docs = levers.profiles(tables[q.user]["fact"])
                tables[q.user]["profile"] = levers.ProfileIndex(docs, memory.embedder.embed)
                tables[q.user]["fact"] = {**tables[q.user]["fact"], **docs}
                vecs = tables[q.user]["profile"].vectors
                data["stored"][q.user].update(zip(docs, vecs, strict=True))
            if expand:
                tables[q.user]["by_episode"] = levers.facts_by_episode(tables[q.user]["fact"])
        tab = tables[q.user]
        stored = data["stored"][q.user]

        def vectors_of(kind: str, ids: Any, stored: dict[str, Any] = stored) -> dict[str, Any]:
            return {i: stored[i] for i in ids if i in stored}

        episodes = tab["episode"]
        if prf:
            from nemori_cli.indexing import lexical_text

            cands = {kd: list(v) for kd, v in cands.items()}
            for kd in ("episode", "fact"):
                lex = cands[kd][1]
                top = [lexical_text(tab[kd][r]) for r in lex[:3] if r in tab[kd]]
                allt = [lexical_text(tab[kd][r]) for r in lex if r in tab[kd]]
                query = feedback_query(q.question, top, allt, prf)
                if query != q.question:
                    more = memory.parts.lexical(kd, q.user).query(query, POOL)
                    cands[kd].append([r for r, _ in more])
        if rocchio:
            import numpy as np

            cands = {kd: list(v) for kd, v in cands.items()}
            for kd in ("episode", "fact"):
                vecs = memory.parts.vectors(q.user).query(kd, qvec, 3)
                top = [stored.get(r if kd == "fact" else f"{r}#0") for r, _ in vecs]
                top = [v for v in top if v is not None]
                if top:
                    v = np.asarray(qvec, dtype=np.float32) + rocchio * np.mean(top, axis=0)
                    v /= np.linalg.norm(v)
                    more = memory.parts.vectors(q.user).query(kd, v, POOL)
                    cands[kd].append([r for r, _ in more])
        if turns:
            cands = {kd: list(v) for kd, v in cands.items()}
            ranked = tab["turns"].episodes(q.question)
            if turn_mode == "replace":
                cands["episode"][1] = ranked
            else:
                cands["episode"].append(ranked)
            if turn_mode == "facts":  # facts ranked by their source turns, as a third list
                cands["fact"].append(tab["turns"].facts(q.question, tab["fact"]))
        if turn_mode in ("share", "interleave") or scale_power != 1.0:
            fused = levers.fuse_mixed(
                cands, pool, scale_power, fact_share, turn_mode == "interleave"
            )
        elif stage:
            first = (levers.fuse_mixed(cands, pool, 0.0) if stage.get("s2_from", "lead") == "lead"
                     else fuse(cands, pool))

            def search(name: str, text: str, user: str = q.user, tab: Any = tab) -> list[str]:
                if name == "turn":
                    return tab["turns"].episodes(text)
                if name.startswith("vec:"):
                    vec = memory.embedder.embed([text])[0]
                    return [r for r, _ in memory.parts.vectors(user).query(name[4:], vec, POOL)]
                return [r for r, _ in memory.parts.lexical(name, user).query(text, POOL)]

            if "df" not in tab:
                turn_texts = [m.content for ep in episodes.values() for m in ep.messages]
                tab["df"] = {**twostage.doc_freq(turn_texts), "": len(turn_texts)}
            t_stage = time.perf_counter()
            extra, kind_w = twostage.stage_lists(q.question, first, tab, search, tab["df"],
                                                 stage)
            stage_s += time.perf_counter() - t_stage
            kind_w["fact"] = kind_w.get("fact", 1.0) * fact_weight
            fused = twostage.fuse_weighted(cands, extra, pool, kind_w)
        elif turn_mode == "mean" or fact_weight != 1.0:
            fused = levers.fuse_mean(cands, pool, fact_weight, rrf_k)
        else:
            fused = fuse(cands, pool)
        if expand:
            fused = levers.expanded(fused, tab["fact"], tab["by_episode"], expand, pool + grow)
        hits = [to_hit(kd, tab[kd][rid], s, episodes.get) for kd, rid, s in fused]
        if profile:  # profile documents as facts: a third fact list, or two ("vec+lex")
            cands = {kd: list(v) for kd, v in cands.items()}
            vec, lex = tab["profile"].lists(q.question, qvec)
            cands["fact"] += [vec, lex] if profile == "both" else [levers.rrf_ids([vec, lex])]
        lead = []
        q_head = head
        if stage and twostage.hypothetical(q.question) and "hy_head" in stage:
            q_head = int(stage["hy_head"])
        if q_head:  # the first `head` hits from the unscaled fusion, the rest as ranked above
            if stage:
                ranked = twostage.fuse_weighted(
                    cands, extra if stage.get("lead") else {}, pool,
                    kind_w if stage.get("lead") else None, scaled=False)
            else:
                ranked = levers.fuse_mixed(cands, pool, 0.0)
            lead = [to_hit(kd, tab[kd][rid], s, episodes.get) for kd, rid, s in ranked]
        period = query_period(q.question, None)
        hits = refine(hits, episodes, q.question, qvec, vectors_of, params, lead, q_head,
                      period)[:K]
        out.append((q, ev.score(q, hits)))
    per_q_ms = 1000 * (time.perf_counter() - t) / max(1, len(out))
    res = {}
    for split, idx in SPLITS.items():
        res[split] = ev.aggregate([(q, m) for q, m in out if q.sample in idx])
    res["ms_per_question"] = per_q_ms
    res["stage_ms"] = 1000 * stage_s / max(1, len(out))
    res["rows"] = out
    return res


def line(res: dict[str, Any], label: str) -> str:
    cats = ("multi-hop", "temporal", "open-domain", "single-hop")
    parts = [f"{label:<28}"]
    for split in ("tune", "held_out", "all"):
        agg = res[split]
        parts.append(
            f"{split} ev1k {agg['overall']['ev@1000']:.3f} ans1k {agg['overall']['ans@1000']:.3f}"
        )
    parts.append(" ".join(f"{c[:5]} {res['tune'][c]['ev@1000']:.3f}" for c in cats))
    parts.append(" | ho " + " ".join(f"{res['held_out'][c]['ev@1000']:.3f}" for c in cats))
    for split in ("tune", "all"):
        agg = res[split]["overall"]
        parts.append(
            f"{split} hit@5 {agg['hit@5']:.3f} hit@10 {agg['hit@10']:.3f} "
            f"sess@5 {agg['sess@5']:.3f} sess@10 {agg['sess@10']:.3f}"
        )
    parts.append(f"{res['ms_per_question']:.1f}ms (further lists {res['stage_ms']:.1f}ms)")
    return " | ".join(parts)


def parse_value(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("root", help="ingested all-ten store folder (bench/locomo.py cache)")
    p.add_argument("-p", action="append", default=[], help="FocusParams field=value")
    p.add_argument("--label", default="")
    p.add_argument("--pool", type=int, default=REFINE_POOL, help="fused hits refined")
    p.add_argument("--prf", type=int, default=0, help="BM25 feedback terms (third list)")
    p.add_argument("--rocchio", type=float, default=0.0, help="vector feedback weight")
    p.add_argument("--turns", type=int, default=0, help="BM25 over w-turn windows (third list)")
    p.add_argument("--expand", default="", help="fact, episode or both: neighbours in the pool")
    p.add_argument("--turn-mode", default="add",
                   help="add, replace, mean, facts, share or interleave")
    p.add_argument("--scale-power", type=float, default=1.0,
                   help="a kind's RRF scaled by (2/lists)**power (0: unscaled)")
    p.add_argument("--head", type=int, default=0, help="hits taken from the unscaled fusion")
    p.add_argument("--profile", default="", help="profile documents: one or both (lists)")
    p.add_argument("--fact-share", type=float, default=0.0, help="pool share kept for facts")
    p.add_argument("--fact-weight", type=float, default=FACT_WEIGHT,
                   help="facts' RRF weight below the lead (search's FACT_WEIGHT)")
    p.add_argument("--grow", type=int, default=0, help="pool places the expansion may add")
    p.add_argument("--rrf-k", type=int, default=None,
                   help="RRF k of the balanced fusion (search's BALANCED_K)")
    p.add_argument("-s", action="append", default=[],
                   help="seventh-round lever option key=value (bench/locomo_twostage.py)")
    args = p.parse_args(argv)
    from nemori_cli.search.focus import DEFAULT

    data = prepare(Path(args.root))
    changes = dict(kv.split("=", 1) for kv in args.p)
    params = replace(DEFAULT, **{k: parse_value(v) for k, v in changes.items()})
    res = evaluate(
        Path(args.root), data, params, args.pool, args.prf, args.rocchio,
        args.turns, args.expand, args.grow, args.turn_mode,
        args.fact_weight, args.scale_power, args.fact_share,
        args.head, args.profile,
        {k: parse_value(v) for k, v in (kv.split("=", 1) for kv in args.s)} or None,
        args.rrf_k,
    )
    label = ",".join(
        args.p
        + [f"pool={args.pool}"] * (args.pool != REFINE_POOL)
        + [f"prf={args.prf}"] * bool(args.prf)
        + [f"rocchio={args.rocchio}"] * bool(args.rocchio)
        + [f"turns={args.turns}/{args.turn_mode}"] * bool(args.turns)
        + [f"fw={args.fact_weight}"] * (args.fact_weight != FACT_WEIGHT)
        + [f"power={args.scale_power}"] * (args.scale_power != 1.0)
        + [f"share={args.fact_share}"] * bool(args.fact_share)
        + [f"head={args.head}"] * bool(args.head)
        + [f"rrf_k={args.rrf_k}"] * bool(args.rrf_k)
        + [f"profile={args.profile}"] * bool(args.profile)
        + [f"expand={args.expand}+{args.grow}"] * bool(args.expand)
        + args.s
    )
    print(line(res, args.label or label or "default"))


if __name__ == "__main__":
    main()
