"""Build (and cache) synthetic nemori stores of N episodes + N facts for the benchmarks.

Episodes go through the ingest code path (Memory.ingest of generated nemori JSON files, with
facts off); facts through the storage calls ingest makes (Repository.upsert, the vector index,
the BM25 rebuild). The only stand-in is the embedder: a hashing embedder with the local model's
id and dimension, so that 100k records take minutes rather than hours to build. Searches and
reindex timings then use whatever embedder the Memory under test has.
"""

from __future__ import annotations

import json
import random
import shutil
import tempfile
import time
import zlib
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

USER = "bench"
CACHE_ROOT = Path(tempfile.gettempdir()) / "nemori-perf-cache"
LAYOUT_VERSION = "v1"  # bump when the generated content changes


def _words(text: str, sep: str | None = None) -> list[str]:
    return text.split(sep)


NAMES = _words("""Alex Maria Jonas Priya Tom Lena Omar Sofia Kenji Ana Lucas Chloe Ravi Emma
Diego Noor Felix Ines Hugo Mei Sam Yara Leo Zoe Ivan Rosa Theo Aisha Max Clara""")
PLACES = _words("""Lisbon Porto Berlin Kyoto Oslo Lyon Chamonix Seville Prague Vienna Dublin
Tallinn Krakow Bergen Bologna Granada Utrecht Zermatt Hobart Quito Cusco Hanoi Osaka Tbilisi Split
Valencia Bruges Sintra Madeira Ghent""")
ACTIVITIES = _words("""hiking climbing cycling sailing surfing skiing running swimming painting
pottery baking gardening birdwatching kayaking camping fishing photography knitting chess
yoga dancing singing woodworking archery snorkeling""")
FOODS = _words("""ramen paella sushi pho tacos risotto dumplings curry falafel pierogi goulash
bouldering-bars croissants kimchi ceviche""")
JOBS = _words("""nurse teacher engineer designer baker pilot architect chef lawyer librarian
carpenter pharmacist translator journalist electrician""")
THINGS = _words("""bike tent guitar camera kayak laptop telescope sourdough-starter backpack
notebook violin drone easel skateboard""")
WHEN = _words(
    "yesterday|last weekend|last spring|in March|two years ago|this morning|last night", "|"
)
USER_TEMPLATES = (
    "I went {act} near {place} with {name} {when} and it was {adj}.",
    "My friend {name} just started working as a {job} in {place}.",
    "Do you know a good {food} place in {place}? {name} keeps recommending one.",
    "I bought a new {thing} for {act}, model {code}, it cost {num} euros.",
    "We are planning a trip to {place} in {month} to do some {act}.",
    "I am allergic to {food}, so {name} cooked something else for me {when}.",
    "My {thing} broke again {when}; the repair shop in {place} quoted {num} euros.",
    "{name} and I signed up for a {act} course that starts in {month}.",
)
ASSISTANT_TEMPLATES = (
    "That sounds {adj}! How long did the {act} take around {place}?",
    "For {food} in {place}, look for small family places away from the centre.",
    "A {job} in {place} usually starts with a probation period; ask {name} about it.",
    "Keep the receipt for the {thing}: reference {code} helps with the warranty.",
    "{month} is a good time for {act} in {place}, although it can be crowded.",
)
ADJ = _words("great|exhausting|beautiful|tough|relaxing|memorable|chaotic|peaceful", "|")
MONTHS = _words("January February March April May June July August September October")
FACT_TEMPLATES = (
    ("{name} enjoys {act}.", "user_profile"),
    ("{name} lives in {place}.", "user_profile"),
    ("{name} works as a {job} in {place}.", "user_profile"),
    ("{name} went {act} in {place} {when}.", "experience"),
    ("{name} is allergic to {food}.", "user_profile"),
    ("{name} owns a {thing} (serial {code}).", "other"),
    ("{name} visited {place} in {month} with {other}.", "experience"),
    ("The {food} place in {place} is run by {other}.", "knowledge"),
)


def _fill(template: str, rng: random.Random) -> str:
    return template.format(
        name=rng.choice(NAMES),
        other=rng.choice(NAMES),
        place=rng.choice(PLACES),
        act=rng.choice(ACTIVITIES),
        food=rng.choice(FOODS),
        job=rng.choice(JOBS),
        thing=rng.choice(THINGS),
        when=rng.choice(WHEN),
        adj=rng.choice(ADJ),
        month=rng.choice(MONTHS),
        num=rng.randint(5, 2000),
        code=f"{rng.choice('KQXZVW')}{rng.randint(100, 99999)}",
    )


def conversations(n: int, seed: int = 7, start: datetime | None = None) -> list[dict[str, Any]]:
    """Generate n short conversations (2-4 messages each, one episode each) in nemori JSON."""
    rng = random.Random(seed)
    when = start or datetime(2019, 1, 1, tzinfo=UTC)
    out = []
    for i in range(n):
        when += timedelta(hours=rng.randint(1, 20))  # > gap: every conversation one episode
        msgs = []
        for j in range(rng.randint(2, 4)):
            role = "user" if j % 2 == 0 else "assistant"
            pool = USER_TEMPLATES if role == "user" else ASSISTANT_TEMPLATES
            stamp = (when + timedelta(minutes=j)).isoformat().replace("+00:00", "Z")
            msgs.append(
                {
                    "id": f"m{i}-{j}",
                    "role": role,
                    "content": _fill(rng.choice(pool), rng),
                    "timestamp": stamp,
                }
            )
        out.append({"id": f"c{i}", "title": None, "messages": msgs})
    return out


class HashEmbedder:
    """A fast stand-in for the local model: signed feature hashing of words, L2-normalised."""

    dim = 384

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id
        self._slots: dict[str, tuple[int, float]] = {}

    def _slot(self, word: str) -> tuple[int, float]:
        slot = self._slots.get(word)
        if slot is None:
            h = zlib.crc32(word.encode("utf-8"))
            slot = (h % self.dim, 1.0 if h & (1 << 31) else -1.0)
            self._slots[word] = slot
        return slot

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().split():
                col, sign = self._slot(word.strip(".,!?;:()"))
                out[row, col] += sign
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-12)


def facts(episodes: Sequence[Any], n: int, seed: int = 11) -> list[Any]:
    """Generate n facts, each sourced from a random stored episode."""
    from nemori_cli.models import Fact, stable_id

    rng = random.Random(seed)
    now = datetime.now(UTC)
    out = []
    for i in range(n):
        ep = episodes[rng.randrange(len(episodes))]
        template, category = rng.choice(FACT_TEMPLATES)
        content = _fill(template, rng)
        out.append(
            Fact(
                id=stable_id("fact", USER, str(i), content),
                user_id=USER,
                content=content,
                category=category,
                source_episode_ids=(ep.id,),
                source_message_ids=ep.message_ids[:1],
                confidence=0.8,
                created_at=now,
                valid_from=ep.timestamp,
                extractor="offline",
                subject=content.split()[0],
            )
        )
    return out


def build(data_dir: Path, n: int, *, files: int = 10) -> dict[str, float]:
    """Build a store of n episodes and n facts for USER under data_dir; return timings."""
    from nemori_cli.embed import LOCAL_MODEL_ID
    from nemori_cli.indexing import index_records
    from nemori_cli.memory import Memory

    timings: dict[str, float] = {}
    memory = Memory.open(data_dir=data_dir, user=USER, embedder=HashEmbedder(LOCAL_MODEL_ID))
    parts = memory.parts
    src = data_dir.parent / f"{data_dir.name}-src"
    src.mkdir(parents=True, exist_ok=True)
    convs = conversations(n)
    per = -(-n // files)
    paths = []
    for k in range(0, n, per):
        path = src / f"part{k // per:03d}.json"
        path.write_text(json.dumps({"conversations": convs[k : k + per]}), "utf-8")
        paths.append(str(path))
    t = time.perf_counter()
    summary = memory.ingest(paths, facts=False)
    timings["ingest_episodes_s"] = time.perf_counter() - t
    if summary.failed:
        raise RuntimeError(f"synthetic ingest failed: {summary.failed[:3]}")
    t = time.perf_counter()
    eps = list(parts.repo(USER).episodes.all().values())
    made = facts(eps, n)
    with parts.writing(USER) as repo:
        for start in range(0, len(made), 2000):
            chunk = made[start : start + 2000]
            repo.facts.upsert(chunk)
            index_records(parts.vectors(USER), parts.embedder, "fact", chunk)
        parts.rebuild_lexical("fact", USER)
    timings["store_facts_s"] = time.perf_counter() - t
    shutil.rmtree(src, ignore_errors=True)
    return timings


def cached_store(n: int, *, rebuild: bool = False) -> Path:
    """Return the data dir of a cached store of n episodes + n facts, building it if needed."""
    folder = CACHE_ROOT / f"{LAYOUT_VERSION}-{n}"
    done = folder / "BUILT"
    if done.exists() and not rebuild:
        if not (folder / "data" / "flat").exists():  # built before the flat copy existed
            _add_flat_copy(folder / "data")
        return folder / "data"
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "data").mkdir(parents=True)
    timings = build(folder / "data", n)
    done.write_text(json.dumps(timings))
    return folder / "data"


def _add_flat_copy(data_dir: Path) -> None:
    """Copy a cached store's vectors into the flat copy that new stores get as they are built."""
    from nemori_cli.embed import LOCAL_MODEL_ID
    from nemori_cli.memory import Memory

    parts = Memory.open(data_dir=data_dir, user=USER, embedder=HashEmbedder(LOCAL_MODEL_ID)).parts
    with parts.writing(USER):
        for kind in ("episode", "fact"):
            parts.vectors(USER).rebuild_copy(kind)


def copy_store(n: int, target: Path) -> Path:
    """Copy the cached store of size n to target (for benchmarks that change it)."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(cached_store(n), target)
    return target


def fact_ids(data_dir: Path, n: int) -> list[str]:
    """n ids of the store's first 50 facts (the last n of them)."""
    ids = []
    with open(data_dir / "users" / USER / "facts.jsonl", "rb") as fh:
        for line in fh:
            ids.append(json.loads(line)["id"])
            if len(ids) >= 50:
                break
    return ids[-n:]
