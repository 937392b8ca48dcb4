"""The JSONL store: round trips, repair of interrupted writes, locking, privacy, user ids."""

from __future__ import annotations

import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from nemori_cli.errors import LockTimeout, StoreError, UsageError
from nemori_cli.store.files import ensure_private_dir
from nemori_cli.store.jsonl import JsonlFile
from nemori_cli.store.users import UserStore, delete_user_files, list_users


def records(*ids: str) -> list[dict]:
    return [{"id": i, "content": f"text of {i}", "n": n} for n, i in enumerate(ids)]


def test_round_trip_keeps_records_and_order(tmp_path: Path) -> None:
    f = JsonlFile(tmp_path / "u" / "facts.jsonl", lock_timeout=5)
    assert f.read() == []  # a missing file is an empty one
    data = [*records("a", "b"), {"id": "c", "content": 'quote " and \\ and ünï 😀\nnewline'}]
    f.rewrite(data)
    assert f.read() == data


def test_append_upsert_and_delete(tmp_path: Path) -> None:
    f = JsonlFile(tmp_path / "facts.jsonl", lock_timeout=5)
    f.append(records("a", "b"))
    f.append(records("c"))
    f.upsert([{"id": "b", "content": "new b"}, {"id": "d", "content": "d"}])
    assert [(r["id"], r["content"]) for r in f.read()] == [
        ("a", "text of a"), ("b", "new b"), ("c", "text of c"), ("d", "d")
    ]
    f.upsert([{"id": "e", "content": "e"}])  # nothing to replace: appended
    assert [r["id"] for r in f.read()] == ["a", "b", "c", "d", "e"]
    assert f.delete_ids({"a", "d", "missing"}) == 2
    assert [r["id"] for r in f.read()] == ["b", "c", "e"]
    assert f.delete_ids(set()) == 0


def test_delete_and_upsert_find_ids_that_are_not_the_first_key(tmp_path: Path) -> None:
    path = tmp_path / "facts.jsonl"
    path.write_text('{"content": "x", "id": "late"}\n{"id": "we\\"ird"}\n{"id": "plain"}\n')
    f = JsonlFile(path, lock_timeout=5)
    f.upsert([{"id": 'we"ird', "content": "replaced"}])
    assert f.read()[1] == {"id": 'we"ird', "content": "replaced"}
    assert f.delete_ids(["late"]) == 1
    assert [r["id"] for r in f.read()] == ['we"ird', "plain"]


def test_torn_last_line_is_cut_and_earlier_lines_kept(tmp_path: Path) -> None:
    path = tmp_path / "episodes.jsonl"
    path.write_bytes(b'{"id": "a"}\n{"id": "b"}\n{"id": "c", "cont')
    f = JsonlFile(path, lock_timeout=5)
    assert [r["id"] for r in f.read()] == ["a", "b"]
    assert path.read_bytes() == b'{"id": "a"}\n{"id": "b"}\n'
    f.append(records("d"))
    assert [r["id"] for r in f.read()] == ["a", "b", "d"]


def test_append_after_a_torn_line_does_not_glue_onto_it(tmp_path: Path) -> None:
    path = tmp_path / "episodes.jsonl"
    path.write_bytes(b'{"id": "a"}\n\x00\x00\x00')  # what a crash can leave behind
    f = JsonlFile(path, lock_timeout=5)
    f.append(records("b"))
    assert [r["id"] for r in f.read()] == ["a", "b"]


def test_complete_last_record_without_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "facts.jsonl"
    path.write_bytes(b'{"id": "a"}\n{"id": "b"}')
    f = JsonlFile(path, lock_timeout=5)
    assert [r["id"] for r in f.read()] == ["a", "b"]
    f.append(records("c"))
    assert [r["id"] for r in f.read()] == ["a", "b", "c"]


def test_bad_line_in_the_middle_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "facts.jsonl"
    path.write_bytes(b'{"id": "a"}\nnot json\n{"id": "c"}\n')
    with pytest.raises(StoreError, match=r"facts\.jsonl: line 2 "):
        JsonlFile(path, lock_timeout=5).read()
    assert path.read_bytes() == b'{"id": "a"}\nnot json\n{"id": "c"}\n'  # left untouched


HOLD_LOCK = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from nemori_cli.store.jsonl import JsonlFile
    f = JsonlFile(Path(sys.argv[1]), lock_timeout=5)
    with f.lock:
        print("locked", flush=True)
        time.sleep(float(sys.argv[2]))
    """
)


def _hold_lock(path: Path, seconds: float) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(path), str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    return proc


def test_lock_held_by_another_process_times_out_with_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "u" / "facts.jsonl"
    proc = _hold_lock(path, 10)
    try:
        f = JsonlFile(path, lock_timeout=0.3)
        with pytest.raises(LockTimeout) as info:
            f.append(records("a"))
        assert str(info.value) == (
            f"{path} is locked by another nemori process; gave up after 0.3s"
        )
        assert capsys.readouterr().err.count("waiting") == 1
        assert f.read() == []  # reading does not need the lock
    finally:
        proc.kill()
        proc.wait()


def test_writer_waits_for_a_lock_that_is_released(tmp_path: Path) -> None:
    path = tmp_path / "facts.jsonl"
    proc = _hold_lock(path, 0.5)
    try:
        start = time.monotonic()
        JsonlFile(path, lock_timeout=20).append(records("a"))
        assert time.monotonic() - start > 0.1
        assert [r["id"] for r in JsonlFile(path, lock_timeout=5).read()] == ["a"]
    finally:
        proc.wait()


def test_lock_is_reentrant_and_shared_in_one_process(tmp_path: Path) -> None:
    path = tmp_path / "facts.jsonl"
    f, g = JsonlFile(path, lock_timeout=0.2), JsonlFile(path, lock_timeout=0.2)
    with f.lock, f.lock:
        g.append(records("a"))  # a second object on the same file in this process
        f.upsert(records("a", "b"))
    assert [r["id"] for r in f.read()] == ["a", "b"]


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_folders_and_files_are_private(data_dir: Path) -> None:
    store = UserStore(data_dir, "alice", lock_timeout=5)
    store.facts.append(records("a"))
    store.episodes.rewrite(records("e"))
    store.ingested.upsert(records("i"))
    assert _mode(data_dir) == 0o700
    assert _mode(data_dir / "users") == 0o700
    assert _mode(store.folder) == 0o700
    for f in (store.facts, store.episodes, store.ingested):
        assert _mode(f.path) == 0o600
    assert all(_mode(p) == 0o600 for p in store.folder.iterdir())


def test_ensure_private_dir_leaves_existing_folders_alone(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    ensure_private_dir(tmp_path / "a" / "b")
    assert _mode(tmp_path) == 0o755
    assert _mode(tmp_path / "a") == _mode(tmp_path / "a" / "b") == 0o700


@pytest.mark.parametrize("bad", ["../x", "a/b", "/etc", "..", ".", "a\x00b", ""])
def test_user_ids_that_escape_the_data_dir_are_refused(data_dir: Path, bad: str) -> None:
    with pytest.raises(UsageError):
        UserStore(data_dir, bad, lock_timeout=5)
    with pytest.raises(UsageError):
        delete_user_files(data_dir, bad)
    assert not data_dir.exists()


def test_list_and_delete_users(data_dir: Path) -> None:
    assert list_users(data_dir) == []
    for user in ("bob", "alice@example.com"):
        UserStore(data_dir, user, lock_timeout=5).facts.append(records("a"))
    (data_dir / "bm25" / "bob" / "facts").mkdir(parents=True)
    assert list_users(data_dir) == ["alice@example.com", "bob"]
    delete_user_files(data_dir, "bob")
    assert list_users(data_dir) == ["alice@example.com"]
    assert not (data_dir / "bm25" / "bob").exists()
    delete_user_files(data_dir, "nobody")  # nothing to delete is fine
    assert UserStore(data_dir, "alice@example.com", lock_timeout=5).facts.read()[0]["id"] == "a"


def test_large_file_reads_and_single_deletes_stay_fast(tmp_path: Path) -> None:
    f = JsonlFile(tmp_path / "facts.jsonl", lock_timeout=5)
    f.rewrite(
        {"id": f"fact_{i:016x}", "content": "The user likes hiking. " * 10, "category": "other"}
        for i in range(50_000)
    )
    start = time.monotonic()
    assert len(f.read()) == 50_000
    assert f.delete_ids([f"fact_{7:016x}"]) == 1
    assert time.monotonic() - start < 2.0  # generous: the machine is shared


def test_reader_skips_a_torn_line_being_written_without_waiting(tmp_path: Path) -> None:
    path = tmp_path / "facts.jsonl"
    path.write_bytes(b'{"id": "a"}\n{"id": "b", "conte')  # as if a writer were mid-append
    proc = _hold_lock(path, 10)
    try:
        start = time.monotonic()
        assert [r["id"] for r in JsonlFile(path, lock_timeout=30).read()] == ["a"]
        assert time.monotonic() - start < 5
        assert path.read_bytes().endswith(b'"conte')  # not the reader's to cut
    finally:
        proc.kill()
        proc.wait()
    JsonlFile(path, lock_timeout=5).read()  # the lock is free: now it is repaired
    assert path.read_bytes() == b'{"id": "a"}\n'


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from nemori_cli.store.jsonl import JsonlFile
    f = JsonlFile(Path(sys.argv[1]), lock_timeout=30)
    tag = sys.argv[2]
    for i in range(40):
        f.upsert([{"id": f"{tag}-{i}", "n": 0}])
        f.upsert([{"id": f"{tag}-0", "n": i}])  # replaces a line: a full rewrite
    """
)


def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "facts.jsonl"
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag]) for tag in ("x", "y")
    ]
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    found = {r["id"]: r["n"] for r in JsonlFile(path, lock_timeout=5).read()}
    assert set(found) == {f"{tag}-{i}" for tag in "xy" for i in range(40)}
    assert found["x-0"] == found["y-0"] == 39
