"""LoCoMo questions about speaker A, asked by A in the first person (bench/haystack_data.py).

A question is kept when its category is 1-4, all its evidence turns are speaker A's, it names
A and not B, and it can be rewritten cleanly: "What did Caroline research?" -> "What did I
research?", "Caroline's" -> "my", the name as an object -> "me", her/his/she/he -> my/me/I,
with the verb after a new "I" agreeing ("does I like" -> "do I like", "I is" -> "I am").
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import haystack_data
import locomo_eval as ev

AUX = {"did", "does", "do", "is", "was", "has", "had", "will", "would", "can", "could",
       "might", "should", "are", "were", "may", "must"}
PREPOSITIONS = {"to", "for", "with", "about", "from", "by", "at", "of", "on", "in", "into",
                "toward", "towards", "than", "like", "between", "among", "against", "help"}
AGREE_BEFORE = {"does": "do", "is": "am", "has": "have"}  # "does I" -> "do I"
AGREE_AFTER = {"is": "am", "has": "have", "does": "do", "goes": "go"}  # "I is" -> "I am"
NOT_VERBS = {"always", "sometimes", "perhaps", "as", "thus", "was", "has", "is", "does"}
OBJECT_AFTER = {"?", ",", ".", "!", "to", "when", "with", "for", "in", "on", "at", "from",
                "about", "and", "or", "after", "before", "during", "the", "a", "an", "most",
                "so", "through", "while", "recently", "last", "this", "that", "as"}
BASE_VERBS = {"find", "get", "feel", "keep", "start", "become", "make", "go", "do", "be",
              "cope", "deal", "stay", "learn", "see", "take", "have", "overcome", "decide",
              "want", "realize", "pursue", "choose", "try", "stop", "continue", "focus"}
_TOKEN = re.compile(r"(\s*)([A-Za-z][A-Za-z']*|[0-9]+[A-Za-z]*|[^\sA-Za-z0-9])")


def first_person(question: str, name: str) -> str | None:
    """The question as the named person would ask it; None when it cannot be said cleanly."""
    lowered = set(re.findall(r"[a-z]+", question.lower()))
    if lowered & {"he", "his", "him", "himself"} and lowered & {"she", "her", "herself"}:
        return None  # one of the two is someone else
    spaced = _TOKEN.findall(question.replace(f"{name}`s", f"{name}'s"))
    words = [w for _, w in spaced]
    out: list[str] = []
    for i, w in enumerate(words):
        low = w.lower()
        prev = out[-1].lower() if out else ""
        nxt = words[i + 1].lower() if i + 1 < len(words) else "?"
        if w in (f"{name}'s", f"{name}'", f"{name}`"):
            out.append("my")
        elif w == name or low in ("she", "he"):
            if nxt in ("and", "or", "&") or prev in ("and", "or", "&"):
                return None  # "Evan and his partner": not one clean rewrite
            out.append("I" if low in ("she", "he") or subject(prev, nxt) else "me")
        elif low in ("his", "their"):
            out.append("my")
        elif low == "him":
            out.append("me")
        elif low in ("himself", "herself"):
            out.append("myself")
        elif low == "her":
            objective = nxt in OBJECT_AFTER or nxt in BASE_VERBS or not nxt[:1].isalpha()
            out.append("me" if objective else "my")
        else:
            out.append(w)
    agreed = agree(out)
    if agreed is None:
        return None
    text = "".join(ws + w for (ws, _), w in zip(spaced, agreed, strict=True)).strip()
    return text[:1].upper() + text[1:]


def subject(prev: str, nxt: str) -> bool:
    """Whether a name between these words is a subject ("did Caroline", "challenges Caroline
    faced") rather than an object ("for Caroline", "gave Caroline a bike")."""
    if nxt in AUX or nxt in AGREE_AFTER or nxt.endswith("ed"):
        return True
    if prev in AUX or not prev[:1].isalpha():
        return True
    if prev in PREPOSITIONS or nxt in OBJECT_AFTER:  # "gave Caroline a bike"
        return False
    return not (prev.endswith("ed") or prev.endswith("s"))


def agree(words: list[str]) -> list[str] | None:
    """Make the verbs round each "I" agree with it; None when a verb cannot be fixed."""
    out = list(words)
    for i, w in enumerate(out):
        if w != "I":
            continue
        if i > 0 and out[i - 1].lower() in AGREE_BEFORE:
            before = AGREE_BEFORE[out[i - 1].lower()]
            out[i - 1] = before.capitalize() if out[i - 1][0].isupper() else before
        if i + 1 < len(out):
            nxt = out[i + 1].lower()
            if nxt in AGREE_AFTER:
                out[i + 1] = AGREE_AFTER[nxt]
            elif nxt.endswith("s") and not nxt.endswith("ss") and nxt not in NOT_VERBS:
                return None  # "I likes": a present-tense verb left for a human to rewrite
    if any(w.lower() == "i" and w != "I" for w in out):
        return None
    return out


def user_questions(samples: list[dict[str, Any]], chosen: list[int]) -> tuple[
        list[ev.Question], Counter[str]]:
    """The kept first-person questions of the chosen samples, and why the others went."""
    kept: list[ev.Question] = []
    why: Counter[str] = Counter()
    for i in chosen:
        sample = samples[i]
        a, b = haystack_data.speakers(sample)
        speaker = {str(t["dia_id"]): t.get("speaker") for _, turns, _ in
                   haystack_data.locomo_data.sessions(sample) for t in turns}
        for qa in sample["qa"]:
            cat = int(qa.get("category") or 0)
            if cat not in ev.CATEGORIES:
                continue
            evidence = ev.clean_evidence(qa.get("evidence") or [], set(speaker))
            question = str(qa["question"])
            reason = ""
            if not evidence:
                reason = "no evidence"
            elif any(speaker[e] != a for e in evidence):
                reason = "evidence not all the user's"
            elif re.search(rf"\b{re.escape(b)}\b", question):
                reason = "names the other speaker"
            elif not re.search(rf"\b{re.escape(a)}\b", question):
                reason = "does not name the user"
            rewritten = None if reason else first_person(question, a)
            if rewritten is None:
                why[reason or "no clean rewrite"] += 1
                continue
            why[f"kept, {ev.CATEGORIES[cat]}"] += 1
            kept.append(ev.Question(i, haystack_data.user_id(sample), cat, rewritten,
                                    str(qa.get("answer", "")), evidence))
    return kept, why
