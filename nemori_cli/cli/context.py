"""What every command gets: the global options and a Memory built from them on demand."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import typer

from nemori_cli.errors import UsageError
from nemori_cli.progress import Progress

if TYPE_CHECKING:
    from nemori_cli.memory import Memory


class AppContext:
    """Global options, and the Memory they configure (built once, lazily)."""

    def __init__(self, overrides: dict[str, Any]) -> None:
        self.overrides = overrides
        self._memory: Memory | None = None

    def memory(self, progress: Progress | None = None, **more: Any) -> Memory:
        """Return the Memory for this invocation (options given here override settings)."""
        if self._memory is None:
            from nemori_cli.memory import Memory  # lazily: `nemori --help` needs none of it

            self._memory = Memory.open(progress=progress, **{**self.overrides, **more})
        elif progress is not None:
            self._memory.progress = progress
        return self._memory


def get(ctx: typer.Context) -> AppContext:
    """The AppContext of the root command."""
    obj = ctx.find_root().obj
    assert isinstance(obj, AppContext)
    return obj


def confirm_or_abort(question: str, yes: bool) -> None:
    """Ask before destroying data, unless --yes was given; refuse when nobody can answer."""
    if yes:
        return
    if not sys.stdin.isatty():
        raise UsageError(f"{question} Re-run with --yes to confirm (no terminal to ask on).")
    if not typer.confirm(question, default=False):
        raise typer.Exit(1)


def reader(ctx: typer.Context) -> Memory:
    """The Memory for a command that reads: an error naming the users when the user is not one.

    An empty store reads as empty (a note says so): nothing was mistyped there.
    """
    from nemori_cli.cli import render
    from nemori_cli.errors import NotFound

    memory = get(ctx).memory()
    uid = memory.user_id()
    users = memory.users()
    if not users:
        render.note(f"nothing stored yet in {memory.data_dir} (run `nemori ingest` first)")
    elif uid not in users:
        raise NotFound(f"no user {uid!r} in {memory.data_dir}; users: {', '.join(users)}")
    return memory


def check_category(value: str | None) -> str | None:
    """Reject a fact category that does not exist, as an option's callback (models loaded late)."""
    from nemori_cli.models import check_category as checked

    return checked(value)
