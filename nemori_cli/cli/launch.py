"""The `nemori` console script: start what a command will wait for, run it, leave quickly.

A cold `nemori search` waits on the local model, whose imports share the GIL with the
command's own; a helper process forked here embeds the query beside them (embed_worker;
0.61 -> 0.42 s at 10k + 10k). A command that only reads skips the garbage collection of
the interpreter's exit (about 40 ms over a search's objects): it holds nothing that needs it.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence

from nemori_cli.cli.argv import GLOBAL_OPTIONS, command_at, hoist
from nemori_cli.cli.deferred import defer_rich_extras
from nemori_cli.config import is_local_model

HELPED = ("search", "ask")  # the commands that embed a query first thing
WRITERS = ("ingest", "reindex", "backfill", "doctor", "mcp")  # commands that may embed a lot
GROUPS = ("facts", "episodes", "users", "config")  # the commands that take a subcommand
# (command, subcommand) pairs that write nothing (an index repair they trigger is done and
# synced before they return)
READ_ONLY = {
    ("search", None), ("ask", None), ("stats", None), ("formats", None),
    ("facts", "list"), ("facts", "show"), ("episodes", "list"), ("episodes", "show"),
    ("users", "list"),
}


def words_of(argv: Sequence[str]) -> tuple[str | None, str | None]:
    """The command and subcommand words of a command line (None where there is none)."""
    args = hoist(argv, GLOBAL_OPTIONS)
    at = command_at(args, GLOBAL_OPTIONS)
    if at is None:
        return None, None
    rest = args[at + 1 :] if args[at] in GROUPS else []
    return args[at], rest[0] if rest and not rest[0].startswith("-") else None


def run(argv: Sequence[str] | None = None) -> None:
    """Run `nemori` as a shell does (the console script's entry point)."""
    try:
        start(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:  # Ctrl-C while the CLI loads, before main() reports it itself
        print("error: interrupted", file=sys.stderr)
        sys.exit(130)


def start(args: list[str]) -> None:
    """Start what the command will wait for, then run it."""
    command, sub = words_of(args)
    # one BLAS thread (see app.main), set before numpy is imported
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if command in HELPED and local_embedder(args) and not {"-h", "--help"} & set(args):
        from nemori_cli import embed, embed_worker

        embed_worker.start(embed.helper_job)
    elif command in WRITERS:
        from nemori_cli.native_memory import limit_arenas

        limit_arenas()  # before the model's and Chroma's threads start
    defer_rich_extras()  # before typer is imported
    from nemori_cli.cli.app import main

    try:
        main(args)
    finally:
        if (command, sub) in READ_ONLY:
            gc.freeze()  # the last collection at exit would walk every object for nothing


def local_embedder(args: Sequence[str]) -> bool:
    """Whether the command line and environment leave the local model as the embedder."""
    named = os.environ.get("NEMORI_EMBED_MODEL")
    for i, arg in enumerate(args):
        if arg == "--embed-model" and i + 1 < len(args):
            named = args[i + 1]
        elif arg.startswith("--embed-model="):
            named = arg.partition("=")[2]
    return is_local_model(named)


if __name__ == "__main__":
    run()
