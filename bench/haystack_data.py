"""A user/assistant multi-session haystack derived from LoCoMo (issue 17), deterministic.

Each LoCoMo sample becomes one nemori user with about SESSIONS sessions, one nemori
conversation each: the sample's own sessions, with speaker A as role "user" and speaker B as
role "assistant" (no names; both names are taken out of the text), plus distractor sessions
from the other samples converted the same way and dated within the sample's own span. Every
assistant turn is made as long as an assistant's answer (ANSWER_WORDS): B's reply followed by
B-turns of the other samples, so a user's statement sits among long answers. Message ids keep
the dialogue id for the sample's own turns ("D3:12") and prefix the source sample's id for
distractors ("conv-30.D3:12"), so a session is what precedes the colon.

With requests=True every user turn is also said as a request to the assistant, as most turns
of a real assistant history are: generic requests (bench/haystack_requests.json) before and
after the turn's own text, which stays whole (as_request).

    sys.path.insert(0, "bench")
    from haystack_data import build_users, write_nemori_files
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import locomo_data

SEED = 17
SESSIONS = 50  # sessions per user, as a LongMemEval-style haystack has
ANSWER_WORDS = (150, 350)  # an assistant turn's length, drawn per turn
_TURN_GAP = timedelta(minutes=1)
REQUESTS_FILE = Path(__file__).resolve().parent / "haystack_requests.json"
OPENING_ODDS = (0.75, 0.35)  # a first request before the text, then a second
CLOSING_ODDS = (0.75, 0.3)  # a first request after the text, then a second
CONNECTIVE_ODDS = 0.4  # a closing led by "Anyway,", "So,"...


@dataclass(frozen=True)
class Turn:
    """One converted turn: its id, role and text."""

    id: str
    role: str
    text: str


@dataclass(frozen=True)
class Session:
    """One converted session (a nemori conversation)."""

    id: str
    start: datetime
    turns: tuple[Turn, ...]


def user_id(sample: dict[str, Any]) -> str:
    """The nemori user of a sample's haystack ("haystack-conv-26")."""
    return f"haystack-{locomo_data.user_id(sample)}"


def speakers(sample: dict[str, Any]) -> tuple[str, str]:
    """The sample's speaker A (the user) and speaker B (the assistant)."""
    conv = sample["conversation"]
    return str(conv["speaker_a"]), str(conv["speaker_b"])


def without_names(text: str, names: tuple[str, ...]) -> str:
    """The text with the speakers' names taken out ("Hey Mel, how's Mel's dog" -> "Hey, how's
    your dog"): in a chat between two, each speaker's name is the other's."""
    for name in names:
        text = re.sub(rf"\b{re.escape(name)}(?:'s|')(?!\w)", "your", text)
        text = re.sub(rf",?[ \t]*\b{re.escape(name)}\b", "", text)
    return " ".join(text.split()).lstrip(",!. ") or text


def filler_pool(samples: list[dict[str, Any]], exclude: int) -> list[str]:
    """B-turns of every sample but one, names taken out, in a fixed shuffled order."""
    out = []
    for i, sample in enumerate(samples):
        if i == exclude:
            continue
        names = speakers(sample)
        for _, turns, _ in locomo_data.sessions(sample):
            out += [without_names(locomo_data.turn_text(t), names) for t in turns
                    if t.get("speaker") == names[1]]
    random.Random(SEED * 1000 + exclude).shuffle(out)
    return [t for t in out if t]


class Filler:
    """Hands out filler words in order from a pool, wrapping round."""

    def __init__(self, pool: list[str]) -> None:
        self.pool = pool
        self.at = 0

    def words(self, n: int) -> list[str]:
        out: list[str] = []
        while len(out) < n:
            out += self.pool[self.at % len(self.pool)].split()
            self.at += 1
        return out


@functools.cache
def request_pool() -> dict[str, tuple[str, ...]]:
    """The generic requests: "openings", "closings" and "connectives"."""
    data = json.loads(REQUESTS_FILE.read_text("utf-8"))
    return {k: tuple(data[k]) for k in ("openings", "closings", "connectives")}


def closing(rng: random.Random) -> str:
    """A request said after the text, now and then led by a connective ("Anyway, can you...")."""
    pool = request_pool()
    text = rng.choice(pool["closings"])
    if rng.random() < CONNECTIVE_ODDS:
        first = text.split(maxsplit=1)[0]
        lead = text if first == "I" or first.startswith("I'") else text[:1].lower() + text[1:]
        text = f"{rng.choice(pool['connectives'])} {lead}"
    return text


def as_request(text: str, key: str) -> str:
    """The turn's text said inside a request: openings before it, closings after, at least
    one of the two; the same key always gets the same requests."""
    rng = random.Random(f"{SEED}-req-{key}")
    pool = request_pool()
    before = [rng.choice(pool["openings"]) for odds in OPENING_ODDS if rng.random() < odds]
    after = [closing(rng) for odds in CLOSING_ODDS if rng.random() < odds]
    if not before and not after:
        after = [closing(rng)]
    return " ".join([*before, text, *after])


def convert(sample: dict[str, Any], number: int, turns: list[dict[str, Any]], start: datetime,
            filler: Filler, rng: random.Random, prefix: str = "",
            requests: bool = False) -> Session:
    """One LoCoMo session as user/assistant turns, each assistant turn made long (and each user
    turn a request, if asked)."""
    a, b = speakers(sample)
    out = []
    for t in turns:
        text = without_names(locomo_data.turn_text(t), (a, b))
        role = "user" if t.get("speaker") == a else "assistant"
        if role == "assistant":
            want = rng.randint(*ANSWER_WORDS) - len(text.split())
            if want > 0:
                text = f"{text}\n\n{' '.join(filler.words(want))}"
        elif requests:
            text = as_request(text, f"{locomo_data.user_id(sample)}.{t['dia_id']}")
        out.append(Turn(f"{prefix}{t['dia_id']}", role, text))
    sid = f"{prefix or locomo_data.user_id(sample) + '.'}session-{number}"
    return Session(sid, start, tuple(out))


def dated_sessions(sample: dict[str, Any]) -> list[tuple[int, list[dict[str, Any]], datetime]]:
    """The sample's sessions that have a readable date."""
    out = []
    for n, turns, when in locomo_data.sessions(sample):
        start = locomo_data.parse_session_time(when) if when else None
        if start is not None:
            out.append((n, turns, start))
    return out


def build_user(samples: list[dict[str, Any]], index: int, requests: bool = False) -> list[Session]:
    """One sample's haystack: its own sessions plus distractors, in date order."""
    rng = random.Random(SEED * 1000 + index)
    filler = Filler(filler_pool(samples, index))
    sample = samples[index]
    own = dated_sessions(sample)
    out = [convert(sample, n, turns, start, filler, rng, requests=requests)
           for n, turns, start in own]
    first, last = min(s for *_, s in own), max(s for *_, s in own)
    others = [(j, n, turns) for j, other in enumerate(samples) if j != index
              for n, turns, _ in dated_sessions(other)]
    span = (last - first).total_seconds()
    for j, n, turns in sorted(rng.sample(others, max(0, SESSIONS - len(own)))):
        start = first + timedelta(seconds=rng.uniform(0, span))
        start = start.replace(hour=rng.randint(8, 21), minute=rng.randint(0, 59), second=0,
                              microsecond=0)
        prefix = f"{locomo_data.user_id(samples[j])}."
        out.append(convert(samples[j], n, turns, start, filler, rng, prefix, requests))
    return sorted(out, key=lambda s: (s.start, s.id))


def to_nemori(sessions: list[Session]) -> dict[str, Any]:
    """Sessions as a nemori JSON document, one conversation each, turns a minute apart."""
    convs = []
    for s in sessions:
        messages = [
            {"id": t.id, "role": t.role, "content": t.text,
             "timestamp": (s.start + i * _TURN_GAP).isoformat().replace("+00:00", "Z")}
            for i, t in enumerate(s.turns)
        ]
        convs.append({"id": s.id, "messages": messages})
    return {"conversations": convs}


def build_users(samples: list[dict[str, Any]], chosen: list[int],
                requests: bool = False) -> dict[str, list[Session]]:
    """Each chosen sample's haystack, by user id (every user turn a request, if asked)."""
    return {user_id(samples[i]): build_user(samples, i, requests) for i in chosen}


def write_nemori_files(folder: Path, users: dict[str, list[Session]]) -> dict[str, Path]:
    """Write one nemori JSON file per user; return user id -> file."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for uid, sessions in users.items():
        out[uid] = folder / f"{uid}.json"
        out[uid].write_text(json.dumps(to_nemori(sessions), ensure_ascii=False), "utf-8")
    return out


def fingerprint(users: dict[str, list[Session]]) -> str:
    """A hash of the haystacks' content (part of the ingest cache key)."""
    return hashlib.sha256(
        json.dumps({u: to_nemori(s) for u, s in sorted(users.items())}).encode()
    ).hexdigest()
