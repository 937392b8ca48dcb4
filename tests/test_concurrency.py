"""Two ingests on one user and a search meanwhile; a process waiting on a lock says so."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from filelock import FileLock
from store_check import (
    SAMPLE_CHATS,
    cli_env,
    content_snapshot,
    duplicate_ids,
    index_ids,
    nemori_cmd,
    run,
    start,
)

pytestmark = pytest.mark.slow

FIRST = ("alps-hiking-trip.json",)
SECOND = ("moving-to-lisbon.md",)


def _copy(names: tuple[str, ...], folder: Path) -> Path:
    folder.mkdir(parents=True)
    for name in names:
        shutil.copy(SAMPLE_CHATS / name, folder / name)
    return folder


def test_two_ingests_and_a_search_store_every_record_once(tmp_path: Path) -> None:
    first = _copy(FIRST, tmp_path / "first")
    second = _copy(SECOND, tmp_path / "second")
    both = tmp_path / "both"
    shutil.copytree(first, both)
    shutil.copytree(second, both, dirs_exist_ok=True)
    reference = tmp_path / "reference" / "data"
    assert run(["ingest", str(both)], reference).returncode == 0

    data = tmp_path / "data"
    a = start(["ingest", str(first)], data)
    b = start(["ingest", str(second)], data)
    searches = 0
    while a.poll() is None or b.poll() is None:
        found = run(["search", "hiking in the Alps", "--json"], data)
        assert found.returncode == 0, found.stderr
        assert isinstance(json.loads(found.stdout), list)
        searches += 1
    for proc in (a, b):
        _, err = proc.communicate()
        assert proc.returncode == 0, err
        assert "Traceback" not in err
    assert searches >= 1

    assert content_snapshot(data) == content_snapshot(reference)
    assert duplicate_ids(data) == {"episodes": [], "facts": []}
    for kind, ids in index_ids(data).items():
        assert ids["chroma"] == ids["jsonl"], f"{kind}: Chroma differs from the JSONL"
        assert ids["bm25"] == ids["jsonl"], f"{kind}: bm25s differs from the JSONL"
    hits = json.loads(run(["search", "Lisbon", "--json"], data).stdout)
    assert any("Lisbon" in h["content"] for h in hits)


def _hold_user_lock(data: Path) -> FileLock:
    folder = data / "users" / "me"
    folder.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(folder / "user.lock"))
    lock.acquire()
    return lock


def test_a_waiting_process_says_so_and_gives_up_after_the_timeout(tmp_path: Path) -> None:
    data = tmp_path / "data"
    lock = _hold_user_lock(data)
    try:
        started = time.monotonic()
        done = run(
            ["ingest", str(SAMPLE_CHATS / "food-preferences.json")], data, NEMORI_LOCK_TIMEOUT="1"
        )
    finally:
        lock.release()
    assert done.returncode == 1
    assert "in use by another nemori process; waiting up to 1s" in done.stderr
    assert "locked by another nemori process; gave up after 1s" in done.stderr
    assert "Traceback" not in done.stderr
    assert time.monotonic() - started < 60
    assert content_snapshot(data) == {"episodes": {}, "facts": {}}


def test_a_waiting_process_goes_on_when_the_lock_is_freed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    log = tmp_path / "stderr.txt"
    lock = _hold_user_lock(data)
    try:
        with log.open("w") as err:
            proc = subprocess.Popen(
                [*nemori_cmd(), "ingest", str(SAMPLE_CHATS / "food-preferences.json")],
                env=cli_env(data),
                stdout=subprocess.DEVNULL,
                stderr=err,
            )
        deadline = time.monotonic() + 120
        while "waiting up to 60s" not in log.read_text() and time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            time.sleep(0.05)
    finally:
        lock.release()
    assert proc.wait(timeout=120) == 0, log.read_text()
    assert content_snapshot(data)["episodes"]
