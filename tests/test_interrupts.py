"""Ctrl-C: each command says in one line what was kept and what to run next, and the commands
that finish the work say so too (reindex, a search after it, doctor after an ingest)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_runner import SAMPLE_CHATS, cli

import nemori_cli.cli.app
import nemori_cli.ops.reindex
from nemori_cli.cli.launch import run
from nemori_cli.memory import Memory
from nemori_cli.progress import NullProgress
from nemori_cli.store.mirrored import MirroredVectorIndex


def ctrl_c_at(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, call: int = 1) -> None:
    """Raise KeyboardInterrupt, as Ctrl-C would, at the given call of module.name."""
    real, calls = getattr(module, name), []

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == call:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, interrupted)


def errors(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("error:")]


def test_an_interrupted_reindex_says_so_and_the_next_search_says_it_repairs(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli("ingest", str(SAMPLE_CHATS))[0] == 0
    with monkeypatch.context() as patch:
        ctrl_c_at(patch, nemori_cli.ops.reindex, "index_records", call=2)
        code, out, err = cli("reindex")
    assert code == 130 and out == "" and "Traceback" not in err
    (line,) = errors(err)
    assert "interrupted" in line and "`nemori reindex` again" in line
    assert "JSONL files are unchanged" in line
    code, out, err = cli("search", "hiking in the Alps", "--json")
    assert code == 0 and json.loads(out)  # the JSON alone on stdout
    (said,) = err.strip().splitlines()
    assert "bringing them up to date" in said
    code, out, _ = cli("doctor")
    assert code == 0, out


def test_doctor_after_an_interrupted_ingest_says_re_running_it_also_repairs(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:  # Ctrl-C with episodes stored but not yet indexed
        ctrl_c_at(patch, MirroredVectorIndex, "upsert")
        code, _, err = cli("ingest", str(SAMPLE_CHATS))
    assert code == 130 and len(errors(err)) == 1
    assert "run the same `nemori ingest` again" in err
    code, out, _ = cli("doctor")
    assert code == 1 and "re-running an interrupted `nemori ingest`" in out
    code, _, err = cli("ingest", str(SAMPLE_CHATS))
    assert code == 0, err
    code, out, _ = cli("doctor")
    assert code == 0, out


@pytest.mark.parametrize(
    ("method", "args"),
    [("doctor", ["doctor"]), ("export", ["export", "-o", "out.json"]),
     ("search", ["search", "hiking"]), ("stats", ["stats"])],
)
def test_ctrl_c_in_any_command_says_so_in_one_line(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, method: str, args: list[str]
) -> None:
    assert cli("ingest", str(SAMPLE_CHATS))[0] == 0
    ctrl_c_at(monkeypatch, Memory, method)
    code, _, err = cli(*args)
    assert code == 130 and "Traceback" not in err
    (line,) = errors(err)
    assert line == "error: interrupted; what was saved is kept"


def test_ctrl_c_while_the_cli_loads_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def loading(argv: Any) -> None:
        raise KeyboardInterrupt  # as if it landed in an import before main() handles it

    monkeypatch.setattr(nemori_cli.cli.app, "main", loading)
    with pytest.raises(SystemExit) as exited:
        run(["ingest", str(SAMPLE_CHATS)])
    assert exited.value.code == 130
    assert capsys.readouterr().err == "error: interrupted\n"


class Bar:
    """One progress bar's progress: [done, total]."""

    def __init__(self, counts: list[int]) -> None:
        self.counts = counts

    def grow(self, more: int) -> None:
        self.counts[1] += more

    def advance(self, n: int = 1) -> None:
        self.counts[0] += n

    def close(self) -> None:
        pass


class Bars(NullProgress):
    """Records each progress bar's label and how far it went."""

    def __init__(self) -> None:
        self.bars: dict[str, list[int]] = {}

    def task(self, description: str, total: int | None = None) -> Bar:  # type: ignore[override]
        return Bar(self.bars.setdefault(description, [0, total or 0]))


def test_the_ingest_bars_name_what_they_count(data_dir: Path) -> None:
    bars = Bars()
    summary = Memory.open(data_dir=data_dir, progress=bars).ingest([str(SAMPLE_CHATS)])
    assert bars.bars["Grouping messages into episodes"] == [summary.messages] * 2
    assert bars.bars["Extracting facts from episodes"] == [summary.episodes] * 2
