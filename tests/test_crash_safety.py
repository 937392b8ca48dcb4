"""Killing `nemori ingest` at random moments and running it again ends in the uninterrupted store.

By default a few kills keep this under a minute and a half; NEMORI_CRASH_KILLS=20 runs the full
set of 20 (NEMORI_CRASH_SEED picks other moments).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import time
from pathlib import Path

import pytest
from store_check import (
    SAMPLE_CHATS,
    content_snapshot,
    duplicate_ids,
    index_ids,
    run,
    start,
)

pytestmark = pytest.mark.slow

KILLS = int(os.environ.get("NEMORI_CRASH_KILLS", "4"))
KILLS_PER_TRIAL = 2  # each trial kills twice in a row before letting the ingest finish
SEED = int(os.environ.get("NEMORI_CRASH_SEED", "7"))


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("chats")
    for name in ("alps-hiking-trip.json", "food-preferences.json", "moving-to-lisbon.md"):
        shutil.copy(SAMPLE_CHATS / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, inputs: Path) -> tuple[dict, float]:
    """The store an uninterrupted ingest makes, and how long that ingest took."""
    data = tmp_path_factory.mktemp("reference") / "data"
    started = time.monotonic()
    done = run(["ingest", str(inputs), "--json"], data)
    assert done.returncode == 0, done.stderr
    return content_snapshot(data), time.monotonic() - started


def assert_consistent(data: Path, expected: dict) -> None:
    assert content_snapshot(data) == expected
    assert duplicate_ids(data) == {"episodes": [], "facts": []}
    assert not list((data / "users" / "me").glob(".index-dirty*"))
    for kind, ids in index_ids(data).items():
        assert ids["chroma"] == ids["jsonl"], f"{kind}: Chroma differs from the JSONL"
        assert ids["bm25"] == ids["jsonl"], f"{kind}: bm25s differs from the JSONL"


def test_sigkill_at_random_moments_then_rerun(tmp_path: Path, inputs: Path, reference) -> None:
    expected, seconds = reference
    rng = random.Random(SEED)
    trials = max(1, KILLS // KILLS_PER_TRIAL)
    for trial in range(trials):
        data = tmp_path / f"trial-{trial}" / "data"
        moments = []
        for _ in range(KILLS_PER_TRIAL):
            delay = rng.uniform(0.3, seconds)
            moments.append(round(delay, 2))
            proc = start(["ingest", str(inputs)], data)
            time.sleep(delay)
            proc.send_signal(signal.SIGKILL)
            proc.communicate(timeout=60)
        done = run(["ingest", str(inputs), "--json"], data)
        assert done.returncode == 0, f"killed at {moments}s: {done.stderr}"
        assert "Traceback" not in done.stderr
        try:
            assert_consistent(data, expected)
        except AssertionError as exc:
            raise AssertionError(f"trial {trial}, killed at {moments}s: {exc}") from exc


def test_ctrl_c_says_what_was_saved_and_how_to_finish(
    tmp_path: Path, inputs: Path, reference
) -> None:
    expected, _ = reference
    data = tmp_path / "data"
    proc = start(["ingest", str(inputs)], data)
    episodes = data / "users" / "me" / "episodes.jsonl"
    deadline = time.monotonic() + 120
    while not episodes.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the ingest finished before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "nemori backfill" in err and "saved" in err
    assert "Traceback" not in err
    done = run(["ingest", str(inputs), "--json"], data)
    assert done.returncode == 0, done.stderr
    assert_consistent(data, expected)


class Crash(BaseException):
    """Stands for the process dying at that instant."""


@pytest.mark.parametrize("crash_at", [1, 2, 3])
def test_a_crash_between_the_jsonl_and_chroma_is_repaired_by_the_next_run(
    monkeypatch: pytest.MonkeyPatch, data_dir: Path, inputs: Path, reference, crash_at: int
) -> None:
    from nemori_cli.memory import Memory
    from nemori_cli.store.chroma import ChromaVectorIndex

    real = ChromaVectorIndex.upsert
    calls = []

    def dies(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(args[0])
        if len(calls) == crash_at:  # the JSONL already holds what this call would index
            raise Crash
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ChromaVectorIndex, "upsert", dies)
    crashed = Memory.open()
    with pytest.raises(Crash):
        crashed.ingest([str(inputs)])
    crashed.parts.marker().abandon()  # what the OS does to a dead process's locks
    monkeypatch.setattr(ChromaVectorIndex, "upsert", real)
    Memory.open().ingest([str(inputs)])
    assert_consistent(data_dir, reference[0])
