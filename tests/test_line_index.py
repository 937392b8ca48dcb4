"""The saved line index of a JSONL file finds the same lines as reading the whole file, and is
never trusted for a file that was rewritten or changed under it."""

from __future__ import annotations

from pathlib import Path

import pytest

from nemori_cli.store import line_index
from nemori_cli.store.jsonl import JsonlFile
from nemori_cli.store.line_index import indexed_lines
from nemori_cli.store.sidecar import sidecar_path


def records(start: int, n: int, tag: str = "a") -> list[dict[str, object]]:
    return [{"id": f"r{i}", "text": f"{tag} {i} ünïcode \"q\""} for i in range(start, start + n)]


@pytest.fixture
def file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> JsonlFile:
    monkeypatch.setattr(line_index, "RESAVE_BYTES", 1)  # every read saves what it scanned
    f = JsonlFile(tmp_path / "facts.jsonl", lock_timeout=5)
    f.append(records(0, 30))
    return f


def same(file: JsonlFile) -> None:
    got = indexed_lines(file)
    want = file.index_lines()
    assert dict(got.items()) == want and len(got) == len(want)


def test_the_index_and_the_lines_appended_since_give_every_line(file: JsonlFile) -> None:
    same(file)
    assert sidecar_path(file.path, "idx").exists()
    file.append(records(30, 5))
    file.append(records(3, 2, tag="later"))  # the same ids again: the later lines win
    with file.path.open("ab") as fh:
        fh.write(b"\n")  # a blank line
    file.append(records(40, 2))
    same(file)
    assert b"later 4" in indexed_lines(file)["r4"]
    same(file)  # from the index saved by the read before


def test_a_rewritten_file_voids_the_index(file: JsonlFile) -> None:
    same(file)
    file.delete_ids(["r1", "r2"])
    same(file)
    assert "r1" not in indexed_lines(file)
    file.rewrite(records(100, 3))
    same(file)


def test_a_file_changed_in_place_is_read_whole(file: JsonlFile) -> None:
    same(file)
    data = file.path.read_bytes()
    file.path.write_bytes(data.replace(b'"r29"', b'"x29"'))  # same inode, same size
    same(file)
    assert "x29" in indexed_lines(file)


def test_a_torn_last_line_is_left_to_the_full_read(file: JsonlFile) -> None:
    same(file)
    with file.path.open("ab") as fh:
        fh.write(b'{"id":"r99","te')
    assert "r99" not in indexed_lines(file)
    same(file)


def test_lines_holding_a_string_are_found_in_one_read_as_a_line_scan_would(
    file: JsonlFile,
) -> None:
    file.append(records(30, 5, tag="needle"))
    file.append(records(2, 1, tag="needle"))  # r2's later line holds it: r2 once, in file order
    got = indexed_lines(file)
    assert isinstance(got, line_index.IndexedLines)
    want = [rid for rid, line in got.items() if b"needle" in line]
    assert got.containing([b"needle", b"no such text"]) == ["r30", "r31", "r32", "r33", "r34", "r2"]
    assert set(want) == {"r2", "r30", "r31", "r32", "r33", "r34"}
    assert got.containing([b"absent"]) == []
