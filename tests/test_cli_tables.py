"""What people read: tables on an 80-column terminal and in a pipe, stats, and help examples."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from cli_runner import cli

from nemori_cli.cli import render


@pytest.fixture
def store(sample_store: Path) -> Path:
    """sample_chats/ ingested once for the session (conftest.py); these tests only read it."""
    return sample_store


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """An 80-column terminal as stdout."""
    from rich.console import Console

    buf = io.StringIO()
    monkeypatch.setitem(render.CONSOLES, False, Console(file=buf, width=80, force_terminal=True,
                                                        color_system=None))
    return buf


def body_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith("│")]


def test_at_80_columns_an_episode_title_takes_at_most_three_lines(
    store: Path, terminal: io.StringIO
) -> None:
    episodes = json.loads(cli("--data-dir", str(store), "episodes", "list", "--json")[1])
    assert cli("--data-dir", str(store), "episodes", "list")[0] == 0
    lines = body_lines(terminal.getvalue())
    assert all(e["id"] in terminal.getvalue() for e in episodes)  # ids whole, never cut
    assert len(lines) <= 3 * len(episodes), terminal.getvalue()
    assert max(len(ln) for ln in lines) <= 80


def test_at_80_columns_a_fact_takes_at_most_three_lines(
    store: Path, terminal: io.StringIO
) -> None:
    facts = json.loads(cli("--data-dir", str(store), "facts", "list", "--json")[1])
    assert cli("--data-dir", str(store), "facts", "list")[0] == 0
    text = terminal.getvalue()
    assert all(f["id"] in text for f in facts)
    assert len(body_lines(text)) <= 3 * len(facts), text


def test_a_wide_terminal_keeps_every_column(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.console import Console

    buf = io.StringIO()
    monkeypatch.setitem(render.CONSOLES, False, Console(file=buf, width=200, force_terminal=True,
                                                        color_system=None))
    cli("--data-dir", str(store), "facts", "list", "-n", "3")
    cli("--data-dir", str(store), "episodes", "list", "-n", "3")
    header = [ln for ln in buf.getvalue().splitlines() if "┃ id" in ln]
    assert "category" in header[0] and "made by" in header[1] and "msgs" in header[1]


def test_piped_search_lines_are_not_padded(store: Path) -> None:
    code, out, _ = cli("--data-dir", str(store), "search", "hiking")
    assert code == 0
    rows = out.splitlines()[3:]
    # the text last, right after the id: no line is padded to the longest text
    assert rows and all(re.match(r"^\S+ +\S+ +\S+ +(fact|ep)_\S+ {2,4}\S", ln) for ln in rows)
    assert all(ln == ln.rstrip() for ln in rows), out


def test_stats_prints_a_section_per_group(store: Path) -> None:
    code, out, _ = cli("--data-dir", str(store), "stats")
    assert code == 0 and "facts_by_category." not in out and "." not in out.split("\n\n")[1]
    section = out.split("facts by category\n", 1)[1].split("\n\n")[0]
    assert re.search(r"^  user_profile +\d+$", section, re.M)
    assert json.loads(cli("--data-dir", str(store), "stats", "--json")[1])["facts_by_category"]


@pytest.mark.parametrize(
    "command",
    [["ingest"], ["search"], ["ask"], ["facts", "list"], ["episodes", "list"], ["remember"],
     ["export"]],
)
def test_everyday_commands_show_examples(command: list[str]) -> None:
    code, out, _ = cli(*command, "--help")
    assert code == 0 and "Examples:" in out
    examples = out.split("Examples:", 1)[1].strip().splitlines()
    assert 2 <= len(examples) <= 3
    assert all(f"nemori {' '.join(command)}" in ln for ln in examples)
