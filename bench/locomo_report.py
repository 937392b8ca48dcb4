"""LoCoMo benchmark output: the stdout table, the docs/benchmarks.md section and the chart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import locomo_facts_round
import locomo_facts_round8
import locomo_facts_round12
import locomo_facts_round19
import locomo_round5
import locomo_round7
import locomo_round9
import locomo_round10
import locomo_round11
import locomo_round13
import locomo_round14
import locomo_round15
import locomo_round16
import locomo_round17
import locomo_round20
import locomo_round21
import locomo_round22
import locomo_round23
import locomo_round24
import locomo_round25
import locomo_round26
import locomo_round27
import locomo_round28
import locomo_round29
import locomo_round30
import locomo_round31
import locomo_round32
from docs_section import replace_section
from locomo_eval import BUDGETS, CATEGORIES, THRESHOLDS
from md_table import LEVER_HEAD, md_table

START, END = "<!-- locomo:start -->", "<!-- locomo:end -->"
GROUPS = ("overall", *CATEGORIES.values())
SYSTEMS = ("nemori", "bm25", "embed", "hybrid")
LABELS = {
    "nemori": "nemori",
    "bm25": "raw turns, bm25",
    "embed": "raw turns, embedder",
    "hybrid": "raw turns, hybrid",
}
SPLIT_NAMES = {"tune": "samples 0-4 (tune)", "held_out": "samples 5-9 (held out)", "all": "all ten"}
COMMAND = "python bench/locomo.py"
# levers measured on samples 0-4 only (evidence recall at 1000 words, offline, all categories)
TUNING = [
    "Levers measured on samples 0-4 (evidence recall at 1000 words): whole episodes 0.674;",
    "focusing long episodes on 4 turns 0.775 (3 turns 0.751, 5 turns 0.768, two spans 0.762,",
    "vectors only 0.723); reranking by each hit's own match 0.800; rarity-weighted query words",
    "0.803; a length penalty 0.812. Kept at the defaults because they measured worse with",
    "focusing: topic_shift_threshold 0.4 (0.792) and max_episode_messages 12 (0.780); reranking",
    "50 or 80 fused hits instead of 30 (+0.000); moving an episode's span off turns a hit",
    "above already shows (+0.002, but answer recall -0.008); lexical weight 0.8 or match",
    "weight 2.5 (within 0.002).",
    "",
    "Second round, from 0.812 (`bench/locomo_tune.py` replays the fused candidates of every",
    "question in seconds), each alone: a long episode cut into two hits, each around its own",
    "best turn 0.816; fact lists weighted 1.2 against episodes in the fusion 0.823 (1.1 0.822,",
    "1.3 0.821, 1.5 0.770: the facts crowd the episodes out of the 30 reranked); a bonus for",
    "hits dated in the time the question names 0.813. Together 0.832, with a length penalty of",
    "0.25 per 100 words 0.838 (0.2 0.838, 0.3 0.837, 0.4 0.833), with the dated bonus 0.843",
    "(held out: 0.783 before, 0.805 after). Measured and left out (final configuration unless",
    "said): the speaker's name among a turn's words 0.841; turns scored up by the candidate",
    "facts drawn from them 0.809 (two spans, before the other changes); BM25 length",
    "normalisation of a turn's words 0.810 (one span); vector:lexical list weights 1:1.25",
    "0.841 or 1.25:1 0.837; a second span only when its anchor scores 0.8 of the best 0.834",
    "(0.3-0.6: 0.842-0.843; kept at 0.5 so an episode with one matching passage gives one",
    "hit); three spans 0.836; the anchor first in its span 0.837 or third 0.834; focused hits",
    "without their title 0.839; match weight 1.5 0.838 or 2.5 0.842. Reranking 50 fused hits",
    "instead of 30 now gains (0.850). But the fact weight and the 0.25 penalty trade rank for",
    "budget: more short facts near the top fit more evidence in 500-2000 words and put it lower",
    "in the list (hit@5 on samples 0-4: 0.764 before, 0.724 with them), which a person reading",
    "`nemori search`'s first ten hits would pay for. So the configuration kept is the best",
    "evidence recall on samples 0-4 whose hit@5 there is not below the starting point: no fact",
    "weight, a length penalty of 0.2 and 50 fused hits reranked, 0.835 with hit@5 0.767",
    "(penalty 0.15: 0.826 and 0.779; 40 hits reranked: 0.832 and 0.771; with penalty 0.15 and",
    "a fact weight of 1.1: 0.834 and 0.758). Held out it gives 0.815 (0.783 before the second",
    "round).",
]
DIVERSITY_ROWS: list[str] = []
ROUND4_ROWS = [  # lever, ev@1000 0-4 / 5-9, multi-hop, open-domain, hit@5 / hit@10, sess@5, kept
    ("replay of the kept configuration (this round's start)", "0.841 / 0.811", "0.599",
     "0.574", "0.768 / 0.850", "0.850", "-"),
    ("BM25 pseudo-relevance feedback, 5 terms (`--prf 5`)", "0.826 / 0.802", "0.544", "0.528",
     "0.803 / 0.868", "0.855", "no"),
    ("the same, 10 terms", "0.825 / 0.803", "0.539", "0.551", "0.801 / 0.868", "0.853", "no"),
    ("vector feedback, weight 0.5 (`--rocchio 0.5`)", "0.827 / 0.795", "0.598", "0.557",
     "0.753 / 0.846", "0.843", "no"),
    ("the same, weight 1.0", "0.827 / 0.794", "0.594", "0.551", "0.751 / 0.846", "0.844", "no"),
    ("conversation diversity 0.05 (focus.py `diversity`)", "0.835 / 0.805", "0.589", "0.585",
     "0.758 / 0.853", "0.850", "no"),
    ("the same, 0.1", "0.828 / 0.797", "0.572", "0.574", "0.755 / 0.850", "0.850", "no"),
    ("expansion: a fact's source episodes after it in the pool", "0.840 / 0.809", "0.597",
     "0.580", "0.771 / 0.847", "0.850", "no"),
    ("expansion both ways (an episode's facts after it too)", "0.806 / 0.765", "0.521",
     "0.530", "0.774 / 0.846", "0.849", "no"),
    ("BM25 over single turns as a third episode list", "0.833 / 0.802", "0.546", "0.568",
     "0.822 / 0.886", "0.868", "no"),
    ("the same over 4-turn windows (step 2)", "0.825 / 0.806", "0.547", "0.540",
     "0.832 / 0.882", "0.866", "no"),
    ("single turns replacing the episode BM25 list", "0.834 / 0.811", "0.579", "0.576",
     "0.764 / 0.846", "0.842", "no"),
    ("single turns, and facts ranked by their turns as a third fact list", "0.837 / 0.803",
     "0.572", "0.559", "0.789 / 0.872", "0.856", "no"),
    ("the same with a length penalty of 0.25", "0.837 / 0.804", "0.584", "0.559",
     "0.782 / 0.861", "0.853", "no"),
    ("single turns as a third episode list, each kind's RRF scaled to two lists",
     "0.844 / 0.818", "0.589", "0.570", "0.770 / 0.863", "0.846", "yes"),
]
# issue 17, measured with bench/locomo_tune.py on samples 0-4 and the full run (see the table)
ROUND3 = [
    "Third round (issue 17), evidence recall at 1000 words (samples 0-4 / held out 5-9),",
    "multi-hop and open-domain on 0-4, hit@5 / hit@10 and session recall@5 on 0-4, from",
    "`bench/locomo_tune.py` replaying a store ingested with passages (before the fact changes,",
    "which touch retrieval little); the tables above are the final full run.",
    "",
    *md_table(LEVER_HEAD, []),
    "| before (previous round, full run) | 0.835 / 0.815 | 0.606 | 0.553 | 0.767 / 0.854 | - | - |",
    "| passages over long messages, full-text BM25 | 0.843 / 0.812 | 0.610 | 0.580 | 0.768 / 0.858"
    " | 0.847 | yes |",
    *DIVERSITY_ROWS,
    "",
    "Fourth round (issue 17), from a store ingested before the turn index, replayed with",
    "`bench/locomo_tune.py`, each lever alone, columns as above:",
    "",
    *md_table(LEVER_HEAD, ROUND4_ROWS),
    "",
    "Every third list (feedback, turns) lifts hit@5 by 0.03-0.06 but, summed into RRF, makes",
    "episodes outscore facts, whose short texts carry multi-hop evidence within the budget;",
    "scaling each kind's RRF sum to two lists keeps the balance and part of the gain in hit@10.",
    "Cost per question in the replay (load 8-9 on 2 cores, baseline 67 ms): feedback +12-17 ms",
    "(a second BM25 query per kind), vector feedback +9-21 ms (a second vector query per kind),",
    "turns +16 ms (an in-memory bm25s there; in `nemori search` one more BM25 query, over the",
    "turn index).",
    "",
    *locomo_round5.LINES,
    "",
    *locomo_facts_round.LINES,
    "",
    *locomo_round7.LINES,
    "",
    *locomo_facts_round8.LINES,
    "",
    *locomo_round9.LINES,
    "",
    *locomo_round10.LINES,
    "",
    *locomo_round11.LINES,
    "",
    *locomo_facts_round12.LINES,
    "",
    *locomo_round13.LINES,
    "",
    *locomo_round14.LINES,
    "",
    *locomo_round15.LINES,
    "",
    *locomo_round16.LINES,
    "",
    *locomo_round17.LINES,
    "",
    *locomo_facts_round19.LINES,
    "",
    *locomo_round20.LINES,
    "",
    *locomo_round21.LINES,
    "",
    *locomo_round22.LINES,
    "",
    *locomo_round23.LINES,
    "",
    *locomo_round24.LINES,
    "",
    *locomo_round25.LINES,
    "",
    *locomo_round26.LINES,
    "",
    *locomo_round27.LINES,
    "",
    *locomo_round28.LINES,
    "",
    *locomo_round29.LINES,
    "",
    *locomo_round30.LINES,
    "",
    *locomo_round31.LINES,
    "",
    *locomo_round32.LINES,
]
METRICS = (
    *(f"ev@{b}" for b in BUDGETS),
    *(f"ans@{b}" for b in BUDGETS),
    "stem@1000",
    "hit@5",
    "hit@10",
    "sess@5",
    "sess@10",
)


def _rows(split: dict[str, Any]) -> list[list[str]]:
    rows = []
    for group in GROUPS:
        for s in SYSTEMS:
            m = split[s].get(group)
            if m is None:
                continue
            rows.append([group, s, str(m["n"]), *(f"{m.get(k, 0):.3f}" for k in METRICS)])
    return rows


def table(results: dict[str, Any]) -> str:
    """Plain-text tables: retrieval per split, then fact extraction."""
    head = ["group", "system", "n", *METRICS]
    lines = []
    for name, split in results["retrieval"].items():
        lines.append(f"\n== retrieval, {SPLIT_NAMES[name]} ==")
        rows = [head, *_rows(split)]
        widths = [max(len(r[c]) for r in rows) for c in range(len(head))]
        lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)) for r in rows]
    lines.append("\n== fact extraction vs LoCoMo observations ==")
    for name, per in results["facts"].items():
        for x, f in per.items():
            rp = ", ".join(
                f"R/P@{t} {f[f'recall@{t}']:.3f}/{f[f'precision@{t}']:.3f}" for t in THRESHOLDS
            )
            lines.append(
                f"{SPLIT_NAMES[name]:24} {x:10} facts {f['extracted']:5} "
                f"({f['per_100_turns']:.1f}/100 turns)  {rp}"
            )
    secs = results["seconds"]
    lines.append(
        f"\ningest {secs['ingest']:.1f} s (when built), search+score "
        f"{secs['search_and_score']:.1f} s, this run {secs['total_this_run']:.1f} s"
    )
    return "\n".join(lines)


def markdown(results: dict[str, Any]) -> str:
    """The docs section (between the locomo markers)."""
    r = results["retrieval"]
    lines = [
        START,
        "## LoCoMo: retrieval and fact extraction (issue: memory quality)",
        "",
        f"`{COMMAND}` (about 2.5 minutes from scratch, 1.5 with a cached ingest; the chart needs",
        "the `bench` extra, matplotlib) converts the 10 LoCoMo conversations (one nemori user",
        "each, one conversation per session), ingests them offline through `Memory`, and runs",
        f"`Memory.search(question, k={results['settings']['k']})` for every question of",
        "categories 1-4. **Evidence recall at B words**: hits are taken in rank order while their",
        "title + content fit in B words (stopping at the first that does not); recall is the",
        "share of the question's evidence turns among the `message_ids` of the hits taken.",
        "**Answer recall**: share of the gold answer's content words in the text taken;",
        "**stem@1000** counts them as LoCoMo's own scorer compares answer tokens, by their",
        "Porter stems (\"cats\" found as \"cat\").",
        "Baselines, in the same run: raw turns (prefixed with session date and speaker) ranked by",
        "bm25s, by the same embedder (int8 MiniLM), and by RRF of both. Samples 0-4 were used",
        "for tuning; 5-9 are held out.",
        "",
        "![LoCoMo recall against budget](locomo.png)",
        "",
        "What search returns (`nemori_cli/search.py`, `nemori_cli/focus.py`): episode and fact",
        "candidates are fused by RRF; the best 50 are reranked by their own match (cosine of",
        "their best stored vector plus the rarity-weighted share of query words they contain,",
        "plus a bonus when the hit is dated in the day or month the question names, minus 0.2",
        "per 100 words); an episode longer than 8 messages is cut into up to two hits of 4",
        "turns, one around its best-matching turn and one around the best turn the first leaves",
        "out (title kept, a dated opening naming the speakers, relative dates resolved), each",
        "with `message_ids` restricted to its turns and ranked on its own; a fact whose turns an",
        "earlier hit already shows is dropped. Since issue 17 an episode also has vector",
        "passages over the rest of each long message and BM25 sees every word of it, and a long",
        "message in a hit is shown at the stretch that holds most query words. Since the fourth",
        "round episodes are also ranked by BM25 over their single turns (a third list; each",
        "kind's RRF sum scaled to two lists). Since the fifth, the first hits (7 since the",
        "seventh round, 6 before) come from a fusion where that list counts in full, and for a",
        "\"when\" question a turn or fact that names a time gets 0.2 more; since the seventh,",
        "facts count 1.2 against episodes in the fusion below them, and since the tenth that",
        "fusion's RRF k is 20 (the lead's 60). Since the eleventh, an offline episode's own",
        "vector is the mean of its title's and its messages' openings'.",
        "",
        *TUNING,
        "",
        *ROUND3,
        "",
    ]
    for name in ("all", "tune", "held_out"):
        if name not in r:
            continue
        lines += [f"### Evidence recall at 1000 words, {SPLIT_NAMES[name]}", ""]
        head = ["system", *GROUPS]
        rows = [
            [LABELS[s], *(f"{r[name][s][g]['ev@1000']:.3f}" for g in GROUPS if g in r[name][s])]
            for s in SYSTEMS
        ]
        lines += [*md_table(head, rows), ""]
    lines += [
        "### Session-level recall (issue 17)",
        "",
        "Hits rolled up to the sessions their messages come from, in order of first appearance;",
        "recall@n is the share of the question's evidence sessions among the first n. Raw-turn",
        "hybrid search is rolled up the same way from its 30 best turns.",
        "",
    ]
    head = ["split", "system", *(f"{g} @5 / @10" for g in GROUPS)]
    rows = []
    for name in ("tune", "held_out", "all"):
        if name not in r:
            continue
        for s in ("nemori", "hybrid"):
            rows.append([SPLIT_NAMES[name], LABELS[s], *(
                f"{r[name][s][g].get('sess@5', 0):.3f} / {r[name][s][g].get('sess@10', 0):.3f}"
                for g in GROUPS if g in r[name][s]
            )])
    lines += [*md_table(head, rows), ""]
    if "all" in r:
        lines += ["### All metrics, all ten samples", ""]
        head = ["group", "system", "n", *METRICS]
        lines += [*md_table(head, _rows(r["all"])), ""]
    lines += ["### Fact extraction against LoCoMo's observation facts", ""]
    lines += [
        "Recall: share of gold facts that some extracted (current) fact matches with cosine at or",
        "above the threshold under the local embedder; precision: share of extracted facts that",
        "match some gold fact.",
        "",
    ]
    head = ["split", "extractor", "facts", "per 100 turns"]
    head += [f"R@{t}" for t in THRESHOLDS] + [f"P@{t}" for t in THRESHOLDS]
    rows = []
    for name, per in results["facts"].items():
        for x, f in per.items():
            rows.append(
                [SPLIT_NAMES[name], x, str(f["extracted"]), f"{f['per_100_turns']:.1f}"]
                + [f"{f[f'recall@{t}']:.3f}" for t in THRESHOLDS]
                + [f"{f[f'precision@{t}']:.3f}" for t in THRESHOLDS]
            )
    lines += [*md_table(head, rows), ""]
    secs = results["seconds"]
    lines += [
        f"Ingest of all samples {secs['ingest']:.0f} s, search and scoring "
        f"{secs['search_and_score']:.0f} s. Settings: `{_settings(results)}`.",
        END,
    ]
    return "\n".join(lines)


def _settings(results: dict[str, Any]) -> str:
    s = {k: v for k, v in results["settings"].items() if k not in ("budgets", "samples")}
    return ", ".join(f"{k}={v}" for k, v in s.items()) or "defaults"


def write_docs(results: dict[str, Any], path: Path) -> None:
    """Replace only the locomo section of docs/benchmarks.md."""
    replace_section(path, START, END, markdown(results))


def chart(results: dict[str, Any], path: Path) -> None:
    """Evidence recall against budget, nemori and each baseline, overall and per category."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    split = results["retrieval"].get("all") or next(iter(results["retrieval"].values()))
    fig, axes = plt.subplots(1, len(GROUPS), figsize=(4 * len(GROUPS), 3.6), sharey=True)
    styles = {
        "nemori": ("C3", "o", 2.5),
        "bm25": ("C0", "s", 1.2),
        "embed": ("C2", "^", 1.2),
        "hybrid": ("C7", "D", 1.5),
    }
    for ax, group in zip(axes, GROUPS, strict=True):
        for s in SYSTEMS:
            m = split[s].get(group)
            if m is None:
                continue
            color, marker, width = styles[s]
            ys = [m[f"ev@{b}"] for b in BUDGETS]
            ax.plot(BUDGETS, ys, marker=marker, color=color, linewidth=width, label=LABELS[s])
        ax.set_title(f"{group} (n={split['nemori'][group]['n']})")
        ax.set_xticks(BUDGETS)
        ax.set_xlabel("budget (words)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("evidence recall")
    axes[0].legend(loc="lower right", fontsize=8)
    fig.suptitle("LoCoMo evidence recall against word budget (all ten samples, offline)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
