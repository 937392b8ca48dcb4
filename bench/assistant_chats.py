"""Hand-written user/assistant chat histories: nemori against raw-turn search.

    python bench/assistant_chats.py             # all six sets; writes docs/benchmarks.md
    python bench/assistant_chats.py --no-write  # tables only (and the results JSON)
    python bench/assistant_chats.py --misses    # also every question nemori's sess@5 misses
    python bench/assistant_chats.py --data FILE # one file of the same shape, table only

bench/assistant_chats.json holds three users' histories with an AI assistant (30 sessions
each, ChatGPT-style requests: recipes, code, trips, emails...), in which the user mentions
things about themselves in passing, and 20 questions a user about what they said or prefer
(LongMemEval's kinds: single-session-user, single-session-preference, temporal-reasoning,
knowledge-update, multi-session). It was written by hand by a session that had not seen
nemori's pipeline or search rules; search is not tuned on it (two rules came from its
misses: see the docs section). bench/assistant_chats_b.json is a second set of the same
shape (three users, 28 sessions each), written blind to nemori by another session (no access
to its code, docs or benchmarks); two of its users' misses were read once, the third is held
out. bench/assistant_chats_c.json is a third, written blind the same way in the shape of
LongMemEval's histories: two users, 36 sessions of 4-10 turns each, the user's statements
mostly in a later turn of a session about something else; user c1's misses were read, c2
is held out. bench/assistant_chats_d.json and bench/assistant_chats_e.json are a fourth and a
fifth, written blind the same way (d1's and e1's misses read; d2 and e2 held out), and
bench/assistant_chats_f.json a sixth (both users' misses read). Each user
is ingested
offline through Memory (cached, keyed by the ingest code and the data file); every question
is searched with Memory.search(question, k=30, user=..., today=the day after the user's last
session) and scored on its evidence sessions:
sess@n is the share of them among the first n sessions the hits come from, in order of first
appearance. Raw turns ("[date] role: text", one document a turn) ranked by bm25s, by the same
embedder and by RRF of both are scored the same way.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import assistant_haystack as hay  # noqa: E402
import locomo_eval as ev  # noqa: E402
from docs_section import replace_section, save_results  # noqa: E402
from haystack_data import Session, Turn  # noqa: E402
from locomo import disk_cached  # noqa: E402
from md_table import md_table  # noqa: E402
from run_options import run_options  # noqa: E402

DATA = HERE / "assistant_chats.json"
OUT = HERE / "results" / "assistant_chats.json"
DATA_B = HERE / "assistant_chats_b.json"  # the second set, written blind
OUT_B = HERE / "results" / "assistant_chats_b.json"
DATA_C = HERE / "assistant_chats_c.json"  # the third, written blind, LongMemEval's shape
OUT_C = HERE / "results" / "assistant_chats_c.json"
DATA_D = HERE / "assistant_chats_d.json"  # the fourth, written blind: terse and chatty typists
OUT_D = HERE / "results" / "assistant_chats_d.json"
DATA_E = HERE / "assistant_chats_e.json"  # the fifth, written blind in the fifty-first stop
OUT_E = HERE / "results" / "assistant_chats_e.json"
DATA_F = HERE / "assistant_chats_f.json"  # the sixth: a learner of English, a voice typist
OUT_F = HERE / "results" / "assistant_chats_f.json"
CACHE = "nemori-chats-cache"  # under the temp dir
SYSTEMS = ("nemori", "bm25", "embed", "hybrid")
LABELS = {"nemori": "nemori", "bm25": "raw turns, bm25", "embed": "raw turns, embedder",
          "hybrid": "raw turns, hybrid"}
TYPES = ("single-session-user", "single-session-preference", "temporal-reasoning",
         "knowledge-update", "multi-session")
METRICS = ("sess@5", "sess@10", "hit@5", "hit@10", "ev@1000")
K = 30
START, END = "<!-- assistant-chats:start -->", "<!-- assistant-chats:end -->"
COMMAND = "python bench/assistant_chats.py"


def load(path: Path, chosen: Sequence[str] | None = None) -> tuple[
        dict[str, list[Session]], list[dict[str, Any]]]:
    """The users' sessions (by user id) and their questions, from the data file."""
    data = json.loads(path.read_text("utf-8"))
    users = {}
    for uid, user in data["users"].items():
        if chosen and uid not in chosen:
            continue
        users[uid] = [
            Session(s["id"], datetime.fromisoformat(s["date"].replace("Z", "+00:00")),
                    tuple(Turn(t["id"], t["role"], t["text"]) for t in s["turns"]))
            for s in user["sessions"]
        ]
    return users, [q for q in data["questions"] if q["user"] in users]


def raw_docs(sessions: list[Session]) -> list[ev.Doc]:
    """One raw document a turn: "[date] role: text"."""
    return [ev.Doc(None, f"[{s.start:%d %B %Y}] {t.role}: {t.text}", (t.id,))
            for s in sessions for t in s.turns]


def sessions_ranked(hits: Sequence[Any], session_of: dict[str, str]) -> list[str]:
    """The sessions of the hits' messages in order of first appearance."""
    return list(dict.fromkeys(session_of[m] for h in hits for m in h.message_ids
                              if m in session_of))


def score(q: dict[str, Any], hits: Sequence[Any], session_of: dict[str, str]
          ) -> tuple[dict[str, float], list[int | None]]:
    """locomo_eval's hit@n and ev@budget on the evidence turns, sess@n on the evidence
    sessions; and the 1-based rank of each evidence session (None: not among the hits)."""
    question = ev.Question(0, q["user"], 0, q["question"], q["answer"],
                           frozenset(q["evidence_turns"]))
    base = ev.score(question, hits)
    out = {k: v for k, v in base.items() if k.startswith(("hit@", "ev@"))}
    ranked = sessions_ranked(hits, session_of)
    wanted = q["evidence_sessions"]
    for n in (5, 10):
        out[f"sess@{n}"] = len(set(wanted) & set(ranked[:n])) / len(wanted)
    ranks = [ranked.index(s) + 1 if s in ranked else None for s in wanted]
    return out, ranks


def aggregate(rows: list[tuple[dict[str, Any], dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Mean of every metric, overall and per question type; n = questions counted."""
    groups: dict[str, list[dict[str, float]]] = {"overall": []}
    for q, m in rows:
        groups["overall"].append(m)
        groups.setdefault(q["type"], []).append(m)
    out = {}
    for name in ("overall", *TYPES):
        ms = groups.get(name)
        if not ms:
            continue
        keys = sorted({k for m in ms for k in m})
        agg = {k: sum(m[k] for m in ms if k in m) / max(1, sum(k in m for m in ms)) for k in keys}
        agg["n"] = len(ms)
        out[name] = agg
    return out


def asked_on(sessions: list[Session]) -> date:
    """The day a user's questions are asked: the day after their last session ("this year"
    and "last week" are read against it, as they would be by the user asking then)."""
    return max(s.start for s in sessions).date() + timedelta(days=1)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Build (or reuse) the store, search and score every question; return the results."""
    from nemori_cli.memory import Memory

    started = time.perf_counter()
    chosen = args.users.split(",") if args.users else None
    users, questions = load(Path(args.data), chosen)
    root = hay.build_store(args, users)
    memory = Memory.open(data_dir=root / "data")
    embed = disk_cached(memory.embedder, Path(args.cache_dir) / "raw-vectors")
    t = time.perf_counter()
    rows: dict[str, list[tuple[dict[str, Any], dict[str, float]]]] = defaultdict(list)
    per_question = []
    latencies: list[float] = []
    for uid, sessions in users.items():
        session_of = {t.id: s.id for s in sessions for t in s.turns}
        raw = ev.RawTurns(None, embed, raw_docs(sessions))
        asked = asked_on(sessions)
        for q in (q for q in questions if q["user"] == uid):
            t_q = time.perf_counter()
            hits = memory.search(q["question"], k=K, user=uid, today=asked)
            latencies.append(time.perf_counter() - t_q)
            metrics, ranks = score(q, hits, session_of)
            rows["nemori"].append((q, metrics))
            record: dict[str, Any] = {
                "id": q["id"], "type": q["type"], "question": q["question"],
                "evidence_sessions": q["evidence_sessions"], "ranks": {"nemori": ranks},
                "sess@5": {"nemori": metrics["sess@5"]},
                "top5": [" ".join(ev.hit_text(h).split())[:100] for h in hits[:5]],
            }
            if q.get("superseded_sessions"):
                ranked = sessions_ranked(hits, session_of)
                record["superseded_ranks"] = [ranked.index(s) + 1 if s in ranked else None
                                              for s in q["superseded_sessions"]]
            qvec = embed([q["question"]])[0]
            for method in SYSTEMS[1:]:
                m, r = score(q, raw.rank(method, q["question"], K, qvec), session_of)
                rows[method].append((q, m))
                record["ranks"][method] = r
                record["sess@5"][method] = m["sess@5"]
            per_question.append(record)
    latencies.sort()
    types: dict[str, int] = defaultdict(int)
    for q in questions:
        types[q["type"]] += 1
    return {
        "settings": {"k": K, "users": list(users), "data": str(Path(args.data).name)},
        "data": {
            "users": len(users),
            "sessions": sum(len(s) for s in users.values()),
            "turns": sum(len(x.turns) for s in users.values() for x in s),
            "words": sum(len(t.text.split()) for s in users.values() for x in s
                         for t in x.turns),
            "questions": {k: types[k] for k in TYPES if k in types},
        },
        "seconds": {
            "ingest": float((root / "complete").read_text() or 0),
            "search_and_score": round(time.perf_counter() - t, 1),
            "search_p50_ms": round(1000 * latencies[len(latencies) // 2], 1) if latencies else 0,
            "total_this_run": round(time.perf_counter() - started, 1),
        },
        "retrieval": {s: aggregate(rows[s]) for s in SYSTEMS},
        "questions": per_question,
    }


def table(results: dict[str, Any]) -> str:
    """The results as one markdown table (a row per group and system), then the data's size."""
    out = []
    for group in ("overall", *TYPES):
        for s in SYSTEMS:
            m = results["retrieval"][s].get(group)
            if m is not None:
                out.append([group, LABELS[s], str(m["n"]),
                            *(f"{m.get(k, 0):.3f}" for k in METRICS)])
    data, secs = results["data"], results["seconds"]
    counts = ", ".join(f"{k} {v}" for k, v in data["questions"].items())
    return "\n".join([
        *md_table(["group", "system", "n", *METRICS], out),
        "",
        f"Data: {data['users']} users, {data['sessions']} sessions, {data['turns']} turns, "
        f"{data['words']} words. Questions: {counts}.",
        f"Ingest {secs['ingest']:.0f} s (when built); search and scoring "
        f"{secs['search_and_score']:.0f} s; nemori search p50 {secs['search_p50_ms']} ms.",
    ])


def misses(results: dict[str, Any]) -> str:
    """Every question whose evidence sessions nemori's first 5 sessions miss."""
    lines = []
    for r in results["questions"]:
        if r["sess@5"]["nemori"] >= 1:
            continue
        ranks = ", ".join(f"{s} {k if k else '-'}"
                          for s, k in zip(r["evidence_sessions"], r["ranks"]["nemori"],
                                          strict=True))
        raw = " ".join(f"{m} {r['sess@5'][m]:.2f}" for m in SYSTEMS[1:])
        lines.append(f"{r['id']} [{r['type']}] {r['question']}\n  evidence session rank: "
                     f"{ranks}" + (f"; superseded rank {r['superseded_ranks']}"
                                   if "superseded_ranks" in r else "")
                     + f"; raw sess@5: {raw}")
        lines += [f"  {i}. {t}" for i, t in enumerate(r["top5"], 1)]
    return "\n".join(lines) or "no misses"


def markdown(results: dict[str, Any], second: dict[str, Any], third: dict[str, Any],
             fourth: dict[str, Any], fifth: dict[str, Any], sixth: dict[str, Any]) -> str:
    """The docs section (between the assistant-chats markers)."""
    return "\n".join([
        START,
        "## Hand-written user/assistant chat histories",
        "",
        f"`{COMMAND}` (`--no-write` leaves this file alone, `--misses` lists the questions",
        "nemori's sess@5 misses) scores `bench/assistant_chats.json`: three users' histories",
        "with an AI assistant, 30 sessions each over about eight months, of the requests people",
        "make of a chat assistant (recipes, code bugs, trips, emails, workouts, budgeting...).",
        "About half the sessions carry something the user says about themselves in passing",
        "inside a request (\"I'm vegetarian so no meat please\", \"we moved to Leeds in March\"),",
        "some of it changed in a later session; the rest are ordinary sessions, several on the",
        "same topics. Each user has 20 questions in LongMemEval's kinds (single-session-user,",
        "single-session-preference, temporal-reasoning, knowledge-update, multi-session),",
        "asked in the first person without repeating the statement's words. The data was",
        "written by hand by a session that had not seen nemori's pipeline or search rules.",
        "Search is not tuned on it; reading the facts it gave did show wording bugs in",
        "offline extraction (a frequency read as a date, \"about\" left dangling, a question",
        "typed without its \"?\" kept as a fact), fixed as general rules with tests of their",
        "own. One search rule did come from two of its misses, \"What do I do for a living?\"",
        "and \"What's my job?\" (no word of the statement's, and every raw system missed the",
        "second): a question for a person's job, home, diet, hometown or age is answered by",
        "the facts that tell it (`search/attributes.py`, with tests of its own). Before it,",
        "nemori's sess@5 was 0.906 overall, single-session-user 0.917, knowledge-update 0.917;",
        "those two questions are no blind measure since. A second rule came from one miss",
        "(\"Can you suggest a few songs I could practise this week?\", whose session says",
        "\"Practice\"): a British spelling finds the American one in every lexical index",
        "(`store/spelling.py`); single-session-preference 0.917 -> 1.000, overall sess@5",
        "0.939 -> 0.956. Each user is ingested offline through",
        "`Memory`",
        "(`facts=True`) and every question searched with `Memory.search(question, k=30,",
        "user=..., today=...)`, asked the day after the user's last session (\"this year\"",
        "is read against it); raw turns (`[date] role: text`, one document a turn) are",
        "ranked by bm25s, the same embedder and RRF of both. sess@n: share of the",
        "question's evidence sessions",
        "among the first n sessions the hits come from (hits rolled up in order; a knowledge",
        "update's evidence is only its latest session); hit@n: an evidence turn among the",
        "first n hits; ev@1000: evidence turns among the hits that fit 1000 words.",
        "",
        table(results),
        "",
        "The second set, `bench/assistant_chats_b.json` (run by the same command): three",
        "more users (an illustrator who moves from Valencia to Lisbon, a firefighter and",
        "father of two, a developer training for a marathon), 28 sessions each and 20",
        "questions each in the same five kinds, written by a session blind to nemori (no",
        "access to its code, docs or benchmarks). Its first run, on the code before the",
        "rule below, gave nemori sess@5 / sess@10 0.839 / 0.889 against raw-turn search by",
        "the embedder alone 0.833 / 0.914: below raw search at ten sessions, most of all on",
        "multi-session questions (\"What pets have I had, and what were they called?\"),",
        "where BM25 over a whole episode matched an assistant's answer (\"pet passports\" in",
        "a moving checklist) and the vector lists had the evidence first. Reading the misses",
        "of users b1 and b2 (b3 held out) gave one rule, checked on every other benchmark",
        "before it was kept (the user/assistant haystack section): in a chat with an",
        "assistant the whole-episode BM25 list leaves the episode to the turn list, unless",
        "the question asks what the assistant said (`search/lexical_lists.py`). It moved",
        "this set 0.839 -> 0.844 (b1 and b2 0.821 -> 0.829, b3 0.875 either way); a",
        "second lever, dropping every BM25 list whose best document holds under 40% of the",
        "query's IDF mass, gave 0.861 here but lowered the haystack (0-4 sess@5 0.888 ->",
        "0.878, held out 0.894 -> 0.889): not kept. Two later rules were checked on every",
        "benchmark the same way. In a chat with an assistant the first hits now come from",
        "the balanced fusion, not the turn-led one (`search/hybrid.py turn_led`): 0.844 ->",
        "0.842, multi-session 0.681 -> 0.750 (its gains are the haystack's preference and",
        "two-event questions). A holiday in a question is its days (`pipeline/holidays.py`),",
        "and questions are asked the day after the user's last session (before, a question",
        "of \"this year\" was read against the day the benchmark ran): the two questions that",
        "name one, \"around Easter this year\" (b1: its window of five days before Easter",
        "was set on it) and \"around Halloween\" (b3, held out, whose wording was seen),",
        "moved from sessions 21 and 15 to 1 and 5: sess@5 / sess@10 0.842 / 0.894 -> 0.875",
        "/ 0.928. Reading its three single-session-preference misses (advice whose evidence",
        "is a health condition said in passing: a herniated disc for a gym routine) showed",
        "offline extraction filing such conditions as experiences, or dropping them (\"I get",
        "really seasick on ferries\" gave no fact); as profile facts (`pipeline/salience.py`",
        "HEALTH) they join an advice question's profile list: sess@10 0.928 -> 0.944, sess@5",
        "unchanged (a list of those conditions for every advice question gave sess@5 0.892",
        "here but lowered the haystack's preference questions 0.780 -> 0.765: not kept).",
        f"Now {second['retrieval']['nemori']['overall']['sess@5']:.3f} / "
        f"{second['retrieval']['nemori']['overall']['sess@10']:.3f} against the embedder's "
        f"raw turns {second['retrieval']['embed']['overall']['sess@5']:.3f} / "
        f"{second['retrieval']['embed']['overall']['sess@10']:.3f}.",
        "Later, two facts its b3 misses lacked: \"just wrapped my first two weeks at kinetic",
        "health\" tells an employer (so it replaces the old one), and the dropped \"I\" of",
        "\"had my left cataract done yesterday\" is given back: 0.875 / 0.944 -> 0.892 / 0.961.",
        "A later round (advice on where to go looks for what limits travel, in",
        "`search/kinds_named.py`) found b1's \"i get horribly motion sick\" for \"Any ideas for",
        "a weekend getaway from Lisbon?\": sess@5 0.897 -> 0.914; and advice on exercise",
        "looks for injuries, on food for \"prediabetic\" too (b2's gym routine and snacks):",
        "0.914 / 0.961 -> 0.947 / 0.978. The fiftieth stop made health problems a kind too",
        "(`search/kinds_named.py`: \"What health problems have I mentioned to you?\" looks",
        "for conditions told in passing, \"i tore my meniscus\", \"night calls wreck my",
        "sleep\"): b1's and b2's questions 0.67 -> 1.00, 0.947 / 0.978 -> 0.958 / 0.983; and",
        "hobbies (a question of fact, not advice on one): held-out b3's hobbies question",
        "reaches its second session at ten, sess@10 0.983 -> 0.992.",
        "",
        table(second),
        "",
        "The third set, `bench/assistant_chats_c.json` (run by the same command), was written",
        "blind the same way in the shape of LongMemEval's histories: two users (a retired",
        "chemistry teacher in York, a marine-biology PhD student in Galway), 36 sessions each",
        "of 4 to 10 turns (about 160 words an answer), the user's statements mostly in a later",
        "turn of a session about something else (a fifth of the evidence turns open their",
        "session), 23 sessions with nothing about the user, and 25 questions each in the same",
        "five kinds. Its first run (the code of the employer rule above) gave nemori sess@5 /",
        "sess@10 0.790 / 0.880 against 0.733 / 0.847 for the embedder's raw turns and 0.707 /",
        "0.877 for raw hybrid; below raw search in multi-session questions at five sessions",
        "(0.800 against 0.833) and at ten in knowledge-update and temporal questions (one",
        "question each). Read for user c1 (c2 held out), its misses are words the evidence",
        "does not use (\"our dog\" for \"Biscuit (our border terrier)\", \"wild visitors\" for",
        "goldfinches and a nuthatch, \"my first eye operation\" for a cataract) and advice",
        "resting on someone else's condition (\"Derek is coeliac\" for a pudding). Kept, as",
        "offline facts: a life event or condition of a person the user names, said to an",
        "assistant (\"Harriet had her baby on Tuesday\", \"Derek is coeliac\"; not \"Python is",
        "slow\"), and \"add that ...\" / \"mention that ...\" for a letter being written: sess@10",
        "0.887 -> 0.907, every other set and LoCoMo's facts unchanged. Measured and not kept:",
        "leaving a question's own words (what, how, many, have, our, called, mentioned...)",
        "out of the words a hit's match counts (`search/focus.py`): this set sess@5 / sess@10",
        "0.790 / 0.887 -> 0.787 / 0.907, the second 0.892 -> 0.903, but the first 0.961 ->",
        "0.944 and the haystack's preference questions 0.780 -> 0.750; only the words about",
        "the telling (called, named, mentioned, told, said, reported, ever): this set sess@5",
        "0.790 -> 0.810, but the second 0.892 -> 0.886 and assistant recall on 0-4 0.842 ->",
        "0.816. A later round kept one search rule: an event told as the first of its kind",
        "(\"Which came first: my first eye operation or ...\") is the earlier of its two best",
        "episodes (`search/periods.py event_episode`): sess@5 0.790 -> 0.800 (the haystack's",
        "two-event questions gain too). It measured and did not keep: for a question of how",
        "things stand now (\"... at the moment?\", \"these days\"), the best few of each kind",
        "newest first as one more fused list (no question moved on any set); and a hit's own",
        "match weighed against its fused rank 1.5 or 3.0 times instead of 2.0 (this set",
        "0.777 / 0.780, the haystack's assistant recall on 0-4 0.842 / 0.868, its preference",
        "questions 0.795 / 0.765, the first and second sets within 0.005: no better overall).",
        "Offline facts it gained (someone's doing to the user, \"he's 70\" typed in lower case",
        "after \"my husband\"; see the assistant-facts section) moved no question here.",
        "The twenty-seventh round reached two of the misses read above: a name the user",
        "glosses as theirs is a fact of its own (\"The user's border terrier is called",
        "Biscuit.\"), sess@5 0.800 -> 0.820, and advice on what to cook, eat or order looks for",
        "what people cannot eat (\"Derek is coeliac\" for the pudding), 0.820 -> 0.840; held-out",
        "c2 unchanged. The fiftieth stop read c2's misses (so c2 is no blind measure of what",
        "came of it): \"Where was I over Christmas 2024?\" had no fact to find, as \"flying",
        "home to Chile on friday for three weeks\" dropped its \"I'm\"; now it is the fact of",
        "a flight dated 20 December, and a fact counts as dated in a period by the day it tells",
        "of (`search/periods.py told_day`): rank 16 -> 1, c2 0.787 -> 0.827, sess@10 0.907 ->",
        "0.933. c1's \"How many grandchildren have I got?\" went 5th -> 6th when the husband's",
        "\"he's got all the cricket books going\" became a fact (a message opening \"He\" read",
        "as the husband the user's message before named): 0.860 -> 0.840.",
        f"Now {third['retrieval']['nemori']['overall']['sess@5']:.3f} / "
        f"{third['retrieval']['nemori']['overall']['sess@10']:.3f} against the embedder's "
        f"raw turns {third['retrieval']['embed']['overall']['sess@5']:.3f} / "
        f"{third['retrieval']['embed']['overall']['sess@10']:.3f}.",
        "",
        table(third),
        "",
        "The fourth set, `bench/assistant_chats_d.json` (run by the same command), was written",
        "blind the same way for two typing styles the others lack: d1, a Brazilian developer in",
        "Rotterdam who types terse, lower-case, non-native English between pasted code and error",
        "logs (\"how i abort and go back like before\", \"im here since september last year\"),",
        "and d2, a night-shift nurse in Ohio who writes long, chatty messages with several",
        "details in each; 38 sessions each (20 with nothing about the user), 25 questions each",
        "in the five kinds. Its first run, on the code of the round that added it, gave nemori",
        "sess@5 / sess@10 0.923 / 0.987 against 0.860 / 0.907 for the embedder's raw turns and",
        "0.873 / 0.957 for raw hybrid; at five sessions below raw search in preference",
        "questions (0.900 against hybrid's 0.950), temporal questions (0.900 against 1.000) and",
        "multi-session questions (0.817 against the embedder's 0.850). Only d1's misses were",
        "read (d2 is held out): \"How long had I been living in the Netherlands when I passed",
        "my A2 exam?\" (the evidence says \"im here since september\") and \"Which sports do I",
        "do?\" (futsal, told as \"wednesday evenings i have futsal and im the keeper\"). Its",
        "facts showed rules for such typing, kept as general rules with tests (see the",
        "assistant-facts section); they moved no question here or elsewhere. A later round",
        "kept one search rule from the futsal miss: a question naming a kind with well-known",
        "members (sports, pets, instruments, languages, and later countries, which moved no",
        "question here; `search/kinds_named.py`) adds the facts",
        "and the episodes (by their turns) that name a member, one more list each, and in",
        "focus a user's turn or a fact naming one matches the kind's word. In one run against",
        "the code before: this set 0.923 -> 0.930 (\"Which sports do I do?\" 0.67 -> 1.00), the",
        "second 0.892 -> 0.897, the first and third unchanged, held-out users b3, c2 and d2",
        "unchanged; the haystack's preference questions 0.780 -> 0.811 on 0-4 (held out 0.727",
        "either way), its assistant-recall questions 0.842 -> 0.868 (held out 0.846 either",
        "way); LoCoMo 0-4 ev@1000 0.867 and ans@1000 0.830 unchanged, multi-hop 0.670 ->",
        "0.673. Hobbies and activities as kinds too were measured and left out: the first set",
        "0.961 -> 0.956, held-out preference questions 0.727 -> 0.697 and assistant recall",
        "0.846 -> 0.821 (their members are in every other answer an assistant gives; their",
        "gain was LoCoMo multi-hop 0.673 -> 0.688). The forty-eighth stop made words of one",
        "family that the stemmer keeps apart one word to a search (`search/word_families.py`:",
        "\"allergies\" and \"allergic\", \"Netherlands\" and \"Dutch\"): \"How long had I been",
        "living in the Netherlands when I passed my A2 exam?\" finds the Dutch exam's session,",
        "this set 0.930 -> 0.940; the other sets and held-out users unchanged. The fiftieth",
        "stop's facts and kinds moved held-out d2 0.880 -> 0.913: \"She still lives by herself",
        "...\" is the mother the message before named (\"How long had Kayla had her license",
        "when she hit the light pole?\" 6th -> 4th), and its health question 0.33 -> 0.67.",
        f"Now {fourth['retrieval']['nemori']['overall']['sess@5']:.3f} / "
        f"{fourth['retrieval']['nemori']['overall']['sess@10']:.3f} against the embedder's "
        f"raw turns {fourth['retrieval']['embed']['overall']['sess@5']:.3f} / "
        f"{fourth['retrieval']['embed']['overall']['sess@10']:.3f}.",
        "",
        table(fourth),
        "",
        "The fifth set, `bench/assistant_chats_e.json` (run by the same command), was written",
        "blind the same way in the fifty-first stop: e1, a paramedic in Melbourne who types",
        "terse, lower-case messages with typos (\"sat the n5 on sunday!!\"), and e2, a baker in",
        "Montreal who writes full, punctuated English; 36 sessions each (about a third with",
        "nothing about the user), 25 questions each in the five kinds, with traps (a friend's",
        "car, a hypothetical move, pasted letters about others, a value corrected in the same",
        "session). Its first run, on the code of that stop, gave nemori sess@5 / sess@10",
        "0.880 / 0.960 against 0.827 / 0.907 for the embedder's raw turns and 0.833 / 0.920",
        "for raw hybrid (the code the stop began with gave the same); e1 0.927 / 0.987 (raw",
        "hybrid 0.907 / 0.947), e2 0.833 / 0.933 (0.760 / 0.893). At five sessions nemori is",
        "below raw search in knowledge updates (0.800 against 0.900 for the embedder and",
        "hybrid) and level in single-session questions (0.800). Only e1's misses were read (e2",
        "is held out): \"What does my partner do for a living?\" (the user never says",
        "\"partner\", only \"jonno's doing sound at the arts centre\"), \"Which came first:",
        "buying my road bike or sitting my first JLPT exam?\" (\"sat the n5 on sunday\") and",
        "\"Which races have I completed so far?\" (a half marathon told as \"the run melbourne",
        "half on the 21st\"): each needs knowledge no rule of nemori's has, and none was added.",
        "A rule of the same stop, decided on the other four sets, the haystack and LoCoMo before",
        "this set was run with it: a question of how things are now (\"at the moment\", \"these",
        "days\", \"now\", not \"now that\" nor \"how long ... now\") adds up to 0.2 to a hit's",
        "match by how new it is among the hits (`search/questions.py asks_now`,",
        "`FocusParams.recent_weight`), as a knowledge update's latest telling is the answer. It",
        "moved this set 0.880 -> 0.920 (held-out e2 0.833 -> 0.913; knowledge updates 0.800 ->",
        "1.000, above raw search's 0.900), the third set 0.840 -> 0.860 (c1's \"How much do I",
        "pay per year for the allotment at the moment?\" 7th -> 5th), and no other figure (the",
        "haystack's \"How long have I had my current group of friends for?\" lost its session",
        "until \"current\" and \"how long\" questions were left out).",
        f"Now {fifth['retrieval']['nemori']['overall']['sess@5']:.3f} / "
        f"{fifth['retrieval']['nemori']['overall']['sess@10']:.3f} against the embedder's "
        f"raw turns {fifth['retrieval']['embed']['overall']['sess@5']:.3f} / "
        f"{fifth['retrieval']['embed']['overall']['sess@10']:.3f}.",
        "",
        table(fifth),
        "",
        "The sixth set, `bench/assistant_chats_f.json` (run by the same command), was written",
        "blind the same way in the fifty-sixth stop: f1, a Polish backend developer in the",
        "Netherlands who writes a learner's English and pastes code and error logs (\"I am on",
        "Fedora 39 (I only use Linux, never liked Mac ...)\"), and f2, a retired railroad",
        "conductor in Minnesota who dictates by voice, lower case and run-on, numbers spelled",
        "out (\"our wedding from nineteen seventy eight\"); 35 sessions each (15 with no",
        "evidence, five of them traps: a partner's CV and a landlord's letter pasted, a",
        "colleague's allergy, hypothetical moves), 25 questions each in the five kinds. Its",
        "first run, on the code of that stop before the rules below, gave nemori sess@5 /",
        "sess@10 0.893 / 0.940 against 0.743 / 0.830 for the embedder's raw turns and 0.787 /",
        "0.867 for raw hybrid (f1 0.887, f2 0.900; raw hybrid 0.773 and 0.800). Both users'",
        "misses were read. Two showed facts that were not the user's: the partner's CV, pasted",
        "after \"She wrote it herself:\", gave \"In free time the user is running marathons\",",
        "and \"If we would move to Haarlem, ...\" a commute the user does not have; one showed",
        "a preference lost (\"I am on Fedora 39 (I only use Linux, never liked Mac) ...,",
        "maybe conflict?\" was read as a question). Each became a general rule with tests of",
        "its own (`pipeline/pasted.py`; a few words of doubt after what is told; a learner's",
        "\"If we would\"). The others need what no rule has: \"wedding\" for \"married\" with",
        "the year spelled out, \"the eagan townhouse\" for where the user lives now.",
        f"Now {sixth['retrieval']['nemori']['overall']['sess@5']:.3f} / "
        f"{sixth['retrieval']['nemori']['overall']['sess@10']:.3f} against the embedder's "
        f"raw turns {sixth['retrieval']['embed']['overall']['sess@5']:.3f} / "
        f"{sixth['retrieval']['embed']['overall']['sess@10']:.3f} and raw hybrid "
        f"{sixth['retrieval']['hybrid']['overall']['sess@5']:.3f} / "
        f"{sixth['retrieval']['hybrid']['overall']['sess@10']:.3f}.",
        "",
        table(sixth),
        END,
    ])


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = run_options(__doc__.split("\n")[0], OUT, CACHE)
    p.set_defaults(data=str(DATA))
    p.add_argument("--users", help="comma-separated user ids (default: all)")
    p.add_argument("--misses", action="store_true",
                   help="print every question whose evidence sessions miss nemori's first 5")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    both = Path(args.data) == DATA and Path(args.out) == OUT
    runs = [(args, "")]
    if both:
        for data, out, label in ((DATA_B, OUT_B, " (second set)"),
                                 (DATA_C, OUT_C, " (third set)"),
                                 (DATA_D, OUT_D, " (fourth set)"),
                                 (DATA_E, OUT_E, " (fifth set)"),
                                 (DATA_F, OUT_F, " (sixth set)")):
            runs.append((argparse.Namespace(**{**vars(args), "data": str(data),
                                               "out": str(out), "users": None}), label))
    results = []
    for run_args, label in runs:
        found = run(run_args)
        save_results(found, run_args.out, table(found))
        if args.misses:
            print(f"\nmisses{label}:\n{misses(found)}")
        results.append(found)
    if both and not args.no_write:
        replace_section(ROOT / "docs" / "benchmarks.md", START, END, markdown(*results))
        print("wrote docs/benchmarks.md", file=sys.stderr)


if __name__ == "__main__":
    main()
