"""`nemori export`: write a user's whole store as JSONL, JSON or markdown."""

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

import typer

from nemori_cli.cli import context, render
from nemori_cli.errors import NemoriError

EXAMPLES = """Examples:
  nemori export -o backup.jsonl    # `nemori ingest backup.jsonl` restores it
  nemori export -f markdown > memory.md"""


def register(app: typer.Typer) -> None:
    app.command("export", epilog=EXAMPLES)(export)


def export(
    ctx: typer.Context,
    format: Annotated[
        str, typer.Option("--format", "-f", help="jsonl or json (importable again), or markdown.")
    ] = "jsonl",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file (default: stdout).")
    ] = None,
) -> None:
    """Export a user's episodes and facts; `nemori ingest` of a JSON(L) export restores them."""
    memory = context.get(ctx).memory()
    chunks = memory.export(None, format)  # checks the format, then the user, before any output
    if output is None or str(output) == "-":
        for chunk in chunks:
            sys.stdout.write(chunk)
        sys.stdout.flush()
        return
    _write_atomically(output, chunks)
    render.err.print(f"exported user {memory.user_id()!r} to {output}", markup=False)


def _write_atomically(path: Path, chunks: Iterable[str]) -> None:
    """Write the chunks to a temporary file beside path, then move it into place."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise NemoriError(f"{path}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for chunk in chunks:
                fh.write(chunk)
        os.replace(tmp, path)
    except OSError as exc:
        raise NemoriError(f"{path}: cannot write: {exc.strerror}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
