"""`facts list` through the quick pass lists exactly what building every Fact would list."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
import pytest

from nemori_cli.memory import Memory
from nemori_cli.models import Fact
from nemori_cli.ops.fact_order import load_order, read_order, save_order
from nemori_cli.store.sidecar import sidecar_path

BASE = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


def fact(i: int, *, valid: datetime | None, category: str = "experience", **more: object) -> Fact:
    return Fact(
        id=f"fact_{i:04d}",
        user_id="me",
        content=f"fact number {i} with \"quotes\" and \"category\":\"other\" inside",
        category=category,
        source_episode_ids=(f"ep_{i}",),
        source_message_ids=(f"m{i}",),
        confidence=0.75,
        created_at=BASE + timedelta(days=400, seconds=i),
        valid_from=valid,
        extractor="offline",
        **more,  # type: ignore[arg-type]
    )


@pytest.fixture
def memory(data_dir: Path) -> Memory:
    mem = Memory.open(data_dir=data_dir)
    facts = [
        fact(i, valid=BASE + timedelta(days=(i * 7) % 40, microseconds=(i % 3) * 250_000))
        for i in range(60)
    ]
    facts += [fact(100, valid=None), fact(101, valid=None, category="user_profile")]
    facts += [fact(102, valid=BASE + timedelta(days=3), superseded_by="fact_0001")]
    facts += [fact(103, valid=BASE + timedelta(days=3), category="knowledge")]  # same date: by id
    with mem.parts.writing() as repo:
        repo.facts.upsert(facts)
    return mem


def listing_by_records(mem: Memory, **options: object) -> list[dict[str, object]]:
    since, until = options.pop("since", None), options.pop("until", None)
    limit = options.pop("limit", None)
    kept = [
        f.to_dict()
        for f in mem.facts(**options)  # type: ignore[arg-type]
        if (since is None and until is None)
        or (
            f.valid_from is not None
            and (since is None or f.valid_from >= since)  # type: ignore[operator]
            and (until is None or f.valid_from <= until)  # type: ignore[operator]
        )
    ]
    return kept[-limit:] if limit else kept  # type: ignore[index,operator]


OPTIONS = [
    {},
    {"limit": 5},
    {"limit": 1000},
    {"category": "user_profile"},
    {"include_superseded": False},
    {"since": BASE + timedelta(days=10)},
    {"since": BASE + timedelta(days=3), "until": BASE + timedelta(days=20), "limit": 4},
    {"category": "experience", "include_superseded": False, "limit": 7},
]


@pytest.mark.parametrize("options", OPTIONS)
def test_the_quick_listing_is_the_records_listing(memory: Memory, options: dict) -> None:
    want = listing_by_records(memory, **dict(options))
    assert want, "every case lists something"
    assert memory.fact_listing(**options) == want


def test_hand_written_lines_are_listed_as_the_records_would_be(memory: Memory) -> None:
    path = memory.parts.repo().facts.file.path
    with open(path, "ab") as fh:
        odd = fact(200, valid=None).to_dict()
        odd["valid_from"] = "2024-03-05T09:30:00+02:00"  # an offset, not to_iso's form
        odd["created_at"] = "2025-01-01T00:00:00.000000Z"
        fh.write(orjson.dumps(odd) + b"\n")
        again = fact(5, valid=BASE - timedelta(days=30)).to_dict()  # a later line wins
        fh.write(orjson.dumps(again) + b"\n")
    assert memory.fact_listing() == listing_by_records(memory)
    assert memory.fact_listing(limit=3) == listing_by_records(memory, limit=3)
    with open(path, "ab") as fh:  # keys in another order: the whole file takes the full parse
        reordered = dict(reversed(list(fact(201, valid=BASE).to_dict().items())))
        fh.write(orjson.dumps(reordered) + b"\n")
    assert memory.fact_listing() == listing_by_records(memory)
    assert "fact_0201" in {f["id"] for f in memory.fact_listing()}


def order_of(memory: Memory):
    path = memory.parts.repo().facts.file.path
    fd = os.open(path, os.O_RDONLY)
    try:
        return read_order(path, fd, os.fstat(fd).st_size), load_order(path, fd)
    finally:
        os.close(fd)


def test_lines_nemori_writes_are_printed_as_stored(memory: Memory) -> None:
    order, _ = order_of(memory)
    assert order is not None and len(order.ids) == 64 and all(order.listed)


def test_the_order_is_saved_extended_by_appends_and_voided_by_rewrites(memory: Memory) -> None:
    want = listing_by_records(memory)
    assert memory.fact_listing() == want
    path = memory.parts.repo().facts.file.path
    _, (saved, covered) = order_of(memory)
    assert saved is not None and covered == path.stat().st_size
    with memory.parts.writing() as repo:  # appended: the saved order is used and extended
        repo.facts.upsert([fact(300, valid=BASE - timedelta(days=1)), fact(7, valid=None)])
    assert memory.fact_listing() == listing_by_records(memory)
    assert memory.fact_listing()[0]["id"] == "fact_0300"
    memory.delete_facts(["fact_0300"])  # the file is rewritten: a new inode voids the order
    assert "fact_0300" not in {f["id"] for f in memory.fact_listing()}
    assert memory.fact_listing() == listing_by_records(memory)


def test_a_damaged_saved_order_is_read_again_from_the_file(memory: Memory) -> None:
    memory.fact_listing()
    path = memory.parts.repo().facts.file.path
    fd = os.open(path, os.O_RDONLY)
    try:
        order = read_order(path, fd, os.fstat(fd).st_size)
        assert order is not None
        save_order(path, fd, os.fstat(fd).st_size, order)
    finally:
        os.close(fd)
    side = sidecar_path(path, "order")
    raw = side.read_bytes()
    for damaged in (raw[: len(raw) // 2], raw[:40] + b"garbage" + raw[47:], b"nonsense"):
        side.write_bytes(damaged)
        assert memory.fact_listing() == listing_by_records(memory)


def test_a_line_written_before_facts_had_their_time_is_listed_as_today() -> None:
    from nemori_cli.ops.fact_order import LISTED_KEYS, as_listed, is_listed

    # the keys' order before the sources came first
    earlier_keys = [
        "id", "user_id", "content", "category", "subject", "source_episode_ids",
        "source_message_ids", "confidence", "created_at", "valid_from", "superseded_by",
        "extractor",
    ]

    now = Fact(id="f1", user_id="me", content="The user hikes.", category="experience",
               source_episode_ids=("ep",), source_message_ids=("m",),
               confidence=0.8, created_at=datetime(2025, 1, 2, tzinfo=UTC), valid_from=None,
               extractor="offline").to_dict()
    assert list(now) == LISTED_KEYS and is_listed(now)
    before_when = [k for k in LISTED_KEYS if k != "when"]
    for keys in (earlier_keys, before_when):  # before the sources came first, and after
        earlier = {k: now[k] for k in keys}
        assert not is_listed(earlier) and as_listed(earlier) == now
        assert list(as_listed(earlier)) == LISTED_KEYS


def test_lines_written_before_facts_had_their_time_list_with_it(
    memory: Memory, data_dir: Path
) -> None:
    """A store an older nemori wrote lists every fact with "when" (null), order saved or not."""
    assert memory.fact_listing()  # saves the order of today's lines
    path = data_dir / "users" / "me" / "facts.jsonl"
    lines = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    path.write_bytes(b"".join(
        orjson.dumps({k: v for k, v in line.items() if k != "when"}) + b"\n" for line in lines
    ))
    for _ in range(2):  # the order made again, then the order saved
        rows = Memory.open(data_dir=data_dir).fact_listing()
        assert rows == listing_by_records(memory) and all(r["when"] is None for r in rows)
