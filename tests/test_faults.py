"""Every derived file can break: search answers (or fails in one line), doctor names the damage,
and one command restores a store equal to a clean one. The cases are in tests/faults.py."""

from __future__ import annotations

import json
import math
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO
from faults import FAULTS, USER, Fault, Run, forget_clients, heal, probe_searches, run, top_ids
from store_check import content_snapshot, index_ids


@dataclass(frozen=True)
class Clean:
    """The store built from sample_chats/, and what a user sees in it."""

    data: Path
    top: dict[str, list[str]]
    snapshot: dict


@pytest.fixture(scope="module")
def clean(sample_store: Path) -> Clean:
    data = sample_store
    searched = probe_searches(data)
    assert searched.code == 0 and not searched.err_lines
    top = top_ids(searched)
    assert all(top.values())
    return Clean(data, top, content_snapshot(data))


def copy_of(clean: Clean, data_dir: Path) -> Path:
    shutil.copytree(clean.data, data_dir)
    forget_clients()
    return data_dir


def assert_quiet(result: Run) -> None:
    """No traceback, no numpy or other warning, ever."""
    assert not result.warned, result.warned
    assert not any("Traceback" in ln or "Warning" in ln for ln in result.err_lines), result


def assert_search_answers(result: Run, clean: Clean) -> None:
    assert result.code == 0, result.err_lines
    assert len(result.err_lines) <= 1, result.err_lines  # at most the line naming the fallback
    if result.err_lines:
        assert "damaged" in result.err_lines[0] and "doctor --repair" in result.err_lines[0]
    rows = [json.loads(line) for line in result.out.splitlines()]
    assert [r["query"] for r in rows] == list(clean.top)
    for row in rows:
        ids = [h["id"] for h in row["hits"]]
        assert clean.top[row["query"]][0] in ids, (row["query"], ids)
        for h in row["hits"]:
            assert isinstance(h["score"], float) and math.isfinite(h["score"])
            assert h["relevance"] is None or math.isfinite(h["relevance"])


def doctor_problems(data: Path) -> tuple[int, list[str]]:
    result = run("--data-dir", str(data), "doctor", "--json")
    assert_quiet(result)
    report = json.loads(result.out)
    return result.code, [p["detail"] for u in report["users"] for p in u["problems"]]


def assert_equal_to_clean(data: Path, clean: Clean, *, reordered: bool = False) -> None:
    """Same JSONL records, same ids in every index, same top hits, doctor clean.

    Records re-created by a re-import are stored last, and hits whose BM25 scores tie rank in
    storage order: then each query's best hit must be the same and the clean top 5 in the top 10.
    """
    assert content_snapshot(data) == clean.snapshot
    forget_clients()
    for kind, ids in index_ids(data, USER).items():
        assert ids["chroma"] == ids["jsonl"] == ids["bm25"], kind
    forget_clients()
    searched = probe_searches(data)
    assert_quiet(searched)
    assert searched.code == 0 and not searched.err_lines, searched.err_lines
    if not reordered:
        assert top_ids(searched) == clean.top
    for query, ids in top_ids(searched).items():
        assert ids[0] == clean.top[query][0] and set(clean.top[query][:5]) <= set(ids), query
    assert doctor_problems(data) == (0, [])


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f.name)
def test_damage_is_survived_named_and_healed(fault: Fault, clean: Clean, data_dir: Path) -> None:
    data = copy_of(clean, data_dir)
    fault.damage(data)

    searched = probe_searches(data)
    assert_quiet(searched)
    if fault.search == "answers":
        assert_search_answers(searched, clean)
    else:
        assert searched.code == 1 and len(searched.err_lines) == 1, searched.err_lines
        assert "doctor --repair" in searched.err_lines[0]

    code, problems = doctor_problems(data)
    assert code == 1 and any(fault.doctor_says in p for p in problems), problems

    healed = heal(fault.heal, data)
    for step in healed:
        assert_quiet(step)
        assert step.code == 0, step.err_lines
    assert len(healed) == len(fault.heal.split(" then "))
    assert fault.heal_says in healed[0].out, healed[0].out
    assert_equal_to_clean(data, clean, reordered=" then " in fault.heal)


def test_what_is_moved_aside_is_kept_and_named(clean: Clean, data_dir: Path) -> None:
    data = copy_of(clean, data_dir)
    (data / "chroma" / "chroma.sqlite3").write_bytes(b"not a database" * 100)
    result = run("--data-dir", str(data), "doctor", "--repair")
    assert result.code == 0
    kept = list(data.glob("chroma.broken-*"))
    assert len(kept) == 1 and re.fullmatch(r"chroma\.broken-\d{8}T\d{6}Z", kept[0].name)
    assert (kept[0] / "chroma.sqlite3").read_bytes() == b"not a database" * 100
    assert f"moved aside to {kept[0].name}" in result.out
    assert "kept aside" in run("--data-dir", str(data), "doctor").out


def test_the_reliability_table_matches_the_cases() -> None:
    doc = (REPO / "docs" / "reliability.md").read_text()
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| (.+?) \| (.+?) \| (.+?) \|$", doc, re.M)
    assert rows == [
        (f.name, f.what, f.search, " then ".join(f"`nemori {c}`" for c in f.heal.split(" then ")))
        for f in FAULTS
    ]
