"""Shell integration: completion works for the installed command, listings speak JSON."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import typer.main
from store_check import child_environ

from nemori_cli.cli.app import app

PROG = "import sys; from nemori_cli.cli.app import main; sys.argv[0] = 'nemori'; main()"


def _complete(words: str, cword: int) -> list[str]:
    """Ask nemori's bash completion what completes the last of these words."""
    env = child_environ()
    env.update(_NEMORI_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(cword))
    proc = subprocess.run([sys.executable, "-c", PROG], capture_output=True, text=True, env=env,
                          check=False, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_bash_completion_knows_commands_and_options() -> None:
    assert {"export", "episodes"} <= set(_complete("nemori e", 1))
    assert set(_complete("nemori facts ", 2)) >= {"list", "show", "delete"}
    assert "--format" in _complete("nemori export --fo", 2)


def test_each_shell_gets_its_own_completion_script() -> None:
    marks = {
        "bash": "_nemori_completion()",
        "zsh": "#compdef nemori",
        "fish": "complete --command nemori",
    }
    for shell, mark in marks.items():
        env = {**os.environ, "_NEMORI_COMPLETE": f"source_{shell}"}
        proc = subprocess.run([sys.executable, "-c", PROG], capture_output=True, text=True,
                              env=env, check=False, timeout=60)
        assert proc.returncode == 0 and mark in proc.stdout, (shell, proc.stderr)


def _commands(group: Any, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    """Every leaf command of a (typer's own click) group, by its path of names."""
    out: dict[tuple[str, ...], Any] = {}
    for name, cmd in group.commands.items():
        if hasattr(cmd, "commands"):
            out.update(_commands(cmd, (*path, name)))
        else:
            out[(*path, name)] = cmd
    return out


def test_every_command_that_lists_or_shows_records_has_json() -> None:
    commands = _commands(typer.main.get_group(app))
    listings = {p for p in commands if p[-1] in ("list", "show", "search", "stats", "formats")}
    listings.add(("search",))
    assert {("facts", "list"), ("episodes", "list"), ("users", "list")} <= listings
    for path in listings:
        options = {o for p in commands[path].params for o in getattr(p, "opts", [])}
        assert "--json" in options, " ".join(path)
