"""A full disk and a read-only data dir: one clear line, a non-zero exit, and the store intact.

The full disk is a child process with a small RLIMIT_FSIZE (SIGXFSZ ignored, so a write past
the limit fails with "File too large" as it would with "No space left on device"). The read-only
data dir is a read-only bind mount in a private mount namespace when running as root (chmod
does not stop root), and chmod otherwise.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO, SAMPLE_CHATS
from faults import USER
from store_check import cli_env, content_snapshot, index_ids, nemori_cmd
from store_check import run as run_cli

JSONL = ("episodes.jsonl", "facts.jsonl", "ingested.jsonl")


def jsonl_bytes(data: Path) -> dict[str, bytes]:
    folder = data / "users" / USER
    return {n: (folder / n).read_bytes() if (folder / n).exists() else b"" for n in JSONL}


def first_id(data: Path, name: str) -> str:
    line = (data / "users" / USER / name).read_text().splitlines()[0]
    return line.split('"')[3]


@dataclass(frozen=True)
class DiskFull:
    """A command run with the disk full after `limit` bytes of any one file."""

    name: str
    base: str  # "empty", "one chat" (alps-hiking-trip.json ingested) or "clean"
    args: Callable[[Path], list[str]]
    limit: Callable[[Path], int]  # from the store before the command


CASES = [
    # Chroma's database cannot grow: the first write of the run fails
    DiskFull("ingest-new-store", "empty", lambda d: ["ingest", str(SAMPLE_CHATS)],
             lambda d: 100_000),
    # a store that exists: the run stops at whatever write first needs the disk
    DiskFull("ingest-more", "one chat", lambda d: ["ingest", str(SAMPLE_CHATS)],
             lambda d: 100_000),
    DiskFull("reindex", "clean", lambda d: ["reindex"], lambda d: 100_000),
    DiskFull("export", "clean", lambda d: ["export", "-o", str(d.parent / "out.jsonl")],
             lambda d: 4000),
    # the rewrite of episodes.jsonl (a temporary file, then a rename) cannot be finished
    DiskFull("delete-episode", "clean",
             lambda d: ["episodes", "delete", "-y", first_id(d, "episodes.jsonl")],
             lambda d: 20_000),
    DiskFull("delete-fact", "clean",
             lambda d: ["facts", "delete", "-y", first_id(d, "facts.jsonl")], lambda d: 5000),
]


def run_with_limit(args: list[str], data: Path, limit: int) -> subprocess.CompletedProcess[str]:
    """Run `nemori ARGS` in a child whose files cannot grow past limit bytes."""

    def full_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [*nemori_cmd(), "--data-dir", str(data), *args], env=cli_env(data), capture_output=True,
        text=True, timeout=300, preexec_fn=full_disk, cwd=str(SAMPLE_CHATS.parent),
    )


def assert_one_line_error(proc: subprocess.CompletedProcess[str]) -> None:
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode != 0, proc.stderr
    assert "Traceback" not in proc.stderr and "Warning" not in proc.stderr, proc.stderr
    assert len(lines) == 1 and lines[0].startswith("error: "), lines


def assert_no_temporary_files(data: Path) -> None:
    left = [p for p in data.rglob("*") if p.name.endswith(".tmp") or ".tmp-" in p.name]
    assert not left, left


def assert_healthy(data: Path) -> None:
    """doctor --repair brings every index in line with the JSONL, and doctor then passes."""
    assert run_cli(["doctor", "--repair"], data).returncode == 0
    checked = run_cli(["doctor"], data)
    assert checked.returncode == 0 and "no problems" in checked.stdout, checked.stdout
    for kind, ids in index_ids(data, USER).items():
        assert ids["chroma"] == ids["jsonl"] == ids["bm25"], kind


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory, sample_store: Path) -> dict[str, Path]:
    """The starting stores, built once: the clean one from sample_chats/ and one of one chat."""
    one = tmp_path_factory.mktemp("one-chat") / "data"
    built = run_cli(["ingest", str(SAMPLE_CHATS / "alps-hiking-trip.json")], one)
    assert built.returncode == 0, built.stderr
    return {"clean": sample_store, "one chat": one}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_full_disk_fails_in_one_line_and_loses_nothing(
    case: DiskFull, stores: dict[str, Path], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    if case.base != "empty":
        shutil.copytree(stores[case.base], data)
    before = jsonl_bytes(data)

    failed = run_with_limit(case.args(data), data, case.limit(data))
    assert_one_line_error(failed)
    assert "File too large" in failed.stderr or "disk full" in failed.stderr, failed.stderr
    assert_no_temporary_files(data)
    if case.name.startswith("ingest"):
        # what is stored is whole: the records before, and maybe some whole new ones
        for name, old in before.items():
            assert jsonl_bytes(data)[name].startswith(old), name
        again = run_cli(["ingest", str(SAMPLE_CHATS)], data)
        assert again.returncode == 0, again.stderr
        assert content_snapshot(data) == content_snapshot(stores["clean"])
    else:
        assert jsonl_bytes(data) == before
    assert not list(tmp_path.glob("*out.jsonl*"))  # an export leaves no partial file
    assert_healthy(data)


def read_only_runner(data: Path) -> Callable[[list[str]], subprocess.CompletedProcess[str]]:
    """A way to run nemori with data read-only, or a skip saying why there is none here."""
    if os.geteuid() != 0:
        for folder, dirs, files in os.walk(data):
            for name in [*dirs, *files]:
                os.chmod(Path(folder) / name, 0o500 if name in dirs else 0o400)
        data.chmod(0o500)
        return lambda args: run_cli(args, data)
    if shutil.which("unshare") is None:
        pytest.skip("running as root without unshare: no way to make the data dir read-only")
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", f"mount --bind -o ro {data} {data} && touch {data}/probe"],
        capture_output=True, text=True,
    )
    if "Read-only file system" not in probe.stderr:
        pytest.skip(f"running as root and cannot mount read-only here: {probe.stderr.strip()}")
    command = " ".join(nemori_cmd())

    def run(args: list[str]) -> subprocess.CompletedProcess[str]:
        script = f'mount --bind -o ro "$0" "$0" && exec {command} --data-dir "$0" "$@"'
        return subprocess.run(
            ["unshare", "-m", "sh", "-c", script, str(data), *args], env=cli_env(data),
            capture_output=True, text=True, timeout=300, cwd=str(SAMPLE_CHATS.parent),
        )

    return run


def test_a_read_only_data_dir_is_searched_and_refuses_writes_in_one_line(
    stores: dict[str, Path], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    shutil.copytree(stores["clean"], data)
    before = jsonl_bytes(data)
    run = read_only_runner(data)
    try:
        searched = run(["search", "hiking in the Alps", "--json"])
        assert searched.returncode == 0 and "hiking" in searched.stdout.lower(), searched.stderr
        assert "Traceback" not in searched.stderr
        for args in (["ingest", str(SAMPLE_CHATS)], ["reindex"], ["doctor", "--repair"],
                     ["facts", "delete", "-y", first_id(data, "facts.jsonl")]):
            refused = run(args)
            assert_one_line_error(refused)
            assert re.search("read-?only|permission denied", refused.stderr, re.I), refused.stderr
    finally:
        data.chmod(0o700)
        for folder, dirs, files in os.walk(data):
            for name in [*dirs, *files]:
                os.chmod(Path(folder) / name, 0o700 if name in dirs else 0o600)
    assert jsonl_bytes(data) == before
    assert_healthy(data)


def test_an_append_cut_short_by_a_full_disk_leaves_no_torn_line(tmp_path: Path) -> None:
    from nemori_cli.errors import StoreError
    from nemori_cli.store.jsonl import JsonlFile

    path = tmp_path / "facts.jsonl"
    store = JsonlFile(path, lock_timeout=5)
    store.append([{"id": "a", "content": "kept"}])
    before = path.read_bytes()
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (len(before) + 100, hard))
    try:
        with pytest.raises(StoreError, match="cannot write: File too large"):
            store.append([{"id": "b", "content": "x" * 1000}])  # the first 100 bytes fit
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, handler)
    assert path.read_bytes() == before
    assert store.read() == [{"id": "a", "content": "kept"}]


def test_the_disk_table_names_every_case() -> None:
    doc = (REPO / "docs" / "reliability.md").read_text()
    table = doc[doc.index("## A full disk") :]
    assert re.findall(r"^\| `([a-z-]+)` \|", table, re.M) == [c.name for c in CASES]
