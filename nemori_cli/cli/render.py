"""Output for people (rich tables, progress bars) and for pipelines (JSON, JSONL)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import orjson
import typer

from nemori_cli.cli.plain import PLAIN_ROWS, plain_table
from nemori_cli.progress import NullProgress

if TYPE_CHECKING:
    from rich.console import Console

# rich takes a stream for a terminal when it is one, or when one of these is set
FORCING = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
CONSOLES: dict[bool, Console] = {}  # stderr? -> its console, made on first use


def console(stderr: bool = False) -> Console:
    """The rich console of stdout or stderr, made on first use (rich costs ~30 ms to import,
    which piped and JSON output never pay)."""
    if stderr not in CONSOLES:
        from rich.console import Console

        stream = sys.stderr if stderr else sys.stdout
        # Piped output is read by people too (less, files): lines are never hard-wrapped there.
        CONSOLES[stderr] = Console(stderr=stderr, highlight=False, soft_wrap=not stream.isatty())
    return CONSOLES[stderr]


def __getattr__(name: str) -> Any:
    """`render.out` and `render.err`: the consoles of stdout and stderr."""
    if name in ("out", "err"):
        return console(stderr=name == "err")
    raise AttributeError(name)


def on_terminal(stderr: bool = False) -> bool:
    """Whether the stream is a terminal as rich sees it (rich is asked once loaded, or when
    the stream may be one)."""
    isatty = getattr(sys.stderr if stderr else sys.stdout, "isatty", None)
    maybe = bool(isatty and isatty()) or any(v in os.environ for v in FORCING)
    return (maybe or stderr in CONSOLES) and console(stderr).is_terminal


def plain() -> bool:
    """Whether stdout gets plain text: piped or redirected (NO_COLOR keeps a terminal's layout
    and drops only its colours, which rich does by itself)."""
    return not on_terminal()


def say(text: str, style: str | None = None, indent: int = 0) -> None:
    """Print text for a person on stdout, as is (never markup), styled on a terminal."""
    if not on_terminal():
        print(" " * indent + text)
        return
    if indent:
        from rich.padding import Padding
        from rich.text import Text

        console().print(Padding(Text(text, style=style or ""), (0, 0, 0, indent)))
        return
    console().print(text, markup=False, style=style, highlight=False)


def note(text: str, *, wrap: bool = False) -> None:
    """Print a line for the reader on stderr (dim on a terminal), never as markup; `wrap`:
    prose, wrapped between words on a terminal (else left whole, so a path copies intact)."""
    if not on_terminal(stderr=True):
        print(text, file=sys.stderr)
        return
    from rich.markup import escape

    console(stderr=True).print(f"[dim]{escape(text)}[/]", soft_wrap=not wrap)


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


errors_said: list[str] = []  # this run's error lines: a silent exit 130 still gets its one


def error(message: str) -> None:
    """Print a one-line error on stderr."""
    errors_said.append(message)
    if not on_terminal(stderr=True):
        print(f"error: {message}", file=sys.stderr)
        return
    from rich.markup import escape

    console(stderr=True).print(
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


def table(
    title: str | None,
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    main: str | None = None,
    optional: Sequence[str] = (),
) -> None:
    """Print a table on stdout: rich on a terminal, plain aligned text in a pipe or when long.

    On a terminal, text wraps between words; a column without spaces (ids, dates, numbers)
    never wraps. On a narrow terminal the `main` column (the text) takes the room: the
    `optional` columns are left out, in order, while it would get less than MAIN_MIN.
    """
    cells = [["" if v is None else str(v) for v in r] for r in rows]
    if len(cells) > PLAIN_ROWS or plain():
        plain_table(title, columns, cells, file=sys.stdout)
        return
    from rich.table import Table

    width = console().width
    shown = fitting(columns, cells, main, optional, width)
    tight = main is not None and sum(natural(columns, cells, i) for i in shown) + (
        3 * len(shown) + 1
    ) > width
    t = Table(title=title, show_lines=False, header_style="bold", expand=tight)
    for i in shown:
        words = any(" " in r[i] for r in cells)
        if tight and columns[i] == main:
            t.add_column(columns[i], ratio=1, min_width=MAIN_MIN)
        elif tight:  # a column of words wraps at its longest word; others keep their width
            t.add_column(columns[i], overflow="ellipsis", no_wrap=not words,
                         max_width=narrowest(columns, cells, i) if words else None,
                         min_width=natural(columns, cells, i) if not words else None)
        else:
            t.add_column(columns[i], overflow="ellipsis", no_wrap=not words,
                         min_width=None if words else len(columns[i]))
    for r in cells:
        t.add_row(*(r[i] for i in shown))
    console().print(t)


MAIN_MIN = 36  # characters the main column of a terminal table keeps before others are left out


def fitting(
    columns: Sequence[str], cells: list[list[str]], main: str | None, optional: Sequence[str],
    width: int,
) -> list[int]:
    """The columns a terminal `width` shows: optional ones left out while the main one is
    squeezed below MAIN_MIN."""
    shown = list(range(len(columns)))
    if main is None:
        return shown
    for name in optional:
        others = sum(narrowest(columns, cells, i) for i in shown if columns[i] != main)
        if width - others - (3 * len(shown) + 1) >= MAIN_MIN:
            break
        shown.remove(columns.index(name))
    return shown


def natural(columns: Sequence[str], cells: list[list[str]], i: int) -> int:
    """The width column i takes unwrapped."""
    return max([len(columns[i]), *(len(r[i]) for r in cells)])


def narrowest(columns: Sequence[str], cells: list[list[str]], i: int) -> int:
    """The narrowest column i can be: its longest word (its whole width if it has no spaces)."""
    return max([len(columns[i]), *(len(w) for r in cells for w in r[i].split())])


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
            console=console(stderr=True),
            disable=not on_terminal(stderr=True),
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
