"""Output for people (rich tables, progress bars) and for pipelines (JSON, JSONL)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import orjson
import typer
from rich.console import Console
from rich.table import Table

from nemori_cli.cli.plain import PLAIN_ROWS, plain_table
from nemori_cli.progress import NullProgress

# Piped output is read by people too (less, files): lines are never hard-wrapped there.
out = Console(highlight=False, soft_wrap=not sys.stdout.isatty())
err = Console(stderr=True, highlight=False, soft_wrap=not sys.stderr.isatty())


def plain() -> bool:
    """Whether stdout gets plain text: piped, redirected, or NO_COLOR set."""
    return not out.is_terminal or bool(os.environ.get("NO_COLOR"))


def say(text: str, style: str | None = None, indent: int = 0) -> None:
    """Print text for a person on stdout, as is (never markup), styled on a terminal."""
    if indent and out.is_terminal:
        from rich.padding import Padding
        from rich.text import Text

        out.print(Padding(Text(text, style=style or ""), (0, 0, 0, indent)))
        return
    out.print(" " * indent + text, markup=False, style=style, highlight=False)


def note(text: str) -> None:
    """Print a line for the reader on stderr (dim on a terminal), never as markup."""
    from rich.markup import escape

    err.print(f"[dim]{escape(text)}[/]", soft_wrap=True)


def print_json(data: Any) -> None:
    """Print data as one indented JSON document on stdout."""
    write_out(orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE))
    sys.stdout.flush()


def print_jsonl(rows: Iterable[Any]) -> None:
    """Print each row as one JSON line on stdout."""
    for row in rows:
        write_out(orjson.dumps(row, option=orjson.OPT_APPEND_NEWLINE))
    sys.stdout.flush()


def write_out(data: bytes) -> None:
    """Write UTF-8 bytes to stdout as they are (100k facts as JSON are 50 MB: no copies)."""
    binary = getattr(sys.stdout, "buffer", None)
    if binary is None:  # a text-only stream (some test runners)
        sys.stdout.write(data.decode())
        return
    sys.stdout.flush()  # what was written as text goes first
    binary.write(data)


def error(message: str) -> None:
    """Print a one-line error on stderr."""
    from rich.markup import escape

    err.print(
        f"[bold red]error:[/] {escape(message)}", markup=True, highlight=False, soft_wrap=True
    )


@contextlib.contextmanager
def interrupts_reported() -> Iterator[None]:
    """Turn Ctrl-C into its one-line report and exit code 130 (Typer would exit silently)."""
    try:
        yield
    except KeyboardInterrupt as exc:
        error(str(exc) or "interrupted; what was saved is kept")
        raise typer.Exit(130) from None


def short(text: str, width: int = 100) -> str:
    """Collapse whitespace and cut text to width characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def table(title: str | None, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Print a table on stdout: rich on a terminal, plain aligned text in a pipe or when long.

    On a terminal, text wraps between words; a column without spaces (ids, dates, numbers)
    never wraps.
    """
    cells = [["" if v is None else str(v) for v in r] for r in rows]
    if len(cells) > PLAIN_ROWS or plain():
        plain_table(title, columns, cells, file=sys.stdout)
        return
    t = Table(title=title, show_lines=False, header_style="bold")
    for i, c in enumerate(columns):
        words = any(" " in r[i] for r in cells)
        t.add_column(c, overflow="ellipsis", no_wrap=not words, min_width=None if words else len(c))
    for r in cells:
        t.add_row(*r)
    out.print(t)


class _RichTask:
    def __init__(self, progress: Any, task_id: Any) -> None:
        self._p, self._id = progress, task_id

    def advance(self, n: int = 1) -> None:
        self._p.advance(self._id, n)

    def _task(self) -> Any:
        return next((t for t in self._p.tasks if t.id == self._id), None)

    def grow(self, n: int) -> None:
        task = self._task()
        self._p.update(self._id, total=((task.total or 0) if task else 0) + n)

    def close(self) -> None:
        task = self._task()
        if task is not None and task.total is not None:
            self._p.update(self._id, completed=task.total)


class Notes(NullProgress):
    """Progress for a command that reads: no bars, its notes on stderr."""

    def note(self, text: str) -> None:
        note(text)


class RichProgress:
    """Progress bars on stderr, shown only on a terminal."""

    def __init__(self) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            disable=not err.is_terminal,
        )

    def __enter__(self) -> RichProgress:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def task(self, description: str, total: int | None = None) -> _RichTask:
        return _RichTask(self._progress, self._progress.add_task(description, total=total))

    def note(self, text: str) -> None:
        from rich.markup import escape

        self._progress.console.print(f"[dim]{escape(text)}[/]", markup=True, soft_wrap=True)
