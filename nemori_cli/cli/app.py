"""The nemori command: global options, command groups, and one-line errors with exit codes."""

import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import typer

from nemori_cli import __version__
from nemori_cli.cli import (
    admin,
    ask,
    doctor,
    episodes,
    export,
    facts,
    ingest,
    mcp,
    remember,
    search,
    users,
)
from nemori_cli.cli.argv import GLOBAL_OPTIONS
from nemori_cli.cli.context import AppContext
from nemori_cli.cli.render import error, errors_said
from nemori_cli.errors import NemoriError

APP_SETTINGS: dict[str, Any] = dict(
    name="nemori",
    help="Turn your chat archives into long-term memory you can search from a shell.\n\n"
    "The global options (--data-dir, --user, --llm, ...) go before or after the command.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
# Each command word, and the module that registers it (in the order `nemori --help` lists them).
COMMANDS: dict[str, ModuleType] = {
    "ingest": ingest, "remember": remember, "search": search, "ask": ask, "facts": facts,
    "episodes": episodes, "users": users, "backfill": admin, "reindex": admin, "stats": admin,
    "formats": admin, "config": admin, "export": export, "mcp": mcp, "doctor": doctor,
}
GROUPS = (facts, episodes, users)  # modules whose commands are a Typer group of that name


def _version(value: bool) -> None:
    if value:
        typer.echo(f"nemori {__version__}")
        raise typer.Exit()


def root(
    ctx: typer.Context,
    data_dir: Annotated[
        Path | None, typer.Option("--data-dir", help="Data dir (env NEMORI_DATA_DIR).")
    ] = None,
    user: Annotated[
        str | None, typer.Option("--user", "-u", help="User id (env NEMORI_USER).")
    ] = None,
    llm: Annotated[
        str | None,
        typer.Option("--llm", help="litellm model to extract and answer (env NEMORI_LLM_MODEL)."),
    ] = None,
    llm_base_url: Annotated[
        str | None, typer.Option("--llm-base-url", help="OpenAI-compatible base URL.")
    ] = None,
    embed_model: Annotated[
        str | None, typer.Option("--embed-model", help="litellm embedding model (default: local).")
    ] = None,
    chroma_url: Annotated[
        str | None, typer.Option("--chroma-url", help="Chroma server URL (default: embedded).")
    ] = None,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Turn your chat archives into long-term memory you can search from a shell."""
    ctx.obj = AppContext(
        {
            "data_dir": data_dir,
            "user": user,
            "llm_model": llm,
            "llm_base_url": llm_base_url,
            "embed_model": embed_model,
            "chroma_url": chroma_url,
        }
    )


def build(command: str | None = None) -> typer.Typer:
    """The nemori app: every command, or only the module of the one being run.

    Typer reads the signature of every command it holds at each start, so a run holds only the
    command it runs; help and completion get them all. The command modules do not postpone
    their annotations (no `from __future__ import annotations`): typer would compile and
    evaluate each one as a string at every start (40 ms of `nemori --help`, 6 ms without).
    """
    built = typer.Typer(**APP_SETTINGS)
    built.callback()(root)
    for module in dict.fromkeys(m for name, m in COMMANDS.items() if command in (None, name)):
        if module in GROUPS:
            built.add_typer(module.app, name=module.__name__.rsplit(".", 1)[1])
        else:
            module.register(built)
    return built


app = build()


def main(argv: list[str] | None = None) -> Any:
    """Run the CLI; turn every failure into a one-line message and an exit code."""
    usage_errors: tuple[type[Exception], ...]
    aborts: tuple[type[BaseException], ...]
    if hasattr(typer, "TyperException"):  # recent typer vendors click, with its own classes
        usage_errors, aborts = (typer.TyperException,), (typer.Abort,)
    else:
        import click

        usage_errors, aborts = (click.ClickException,), (click.exceptions.Abort,)
    os.umask(0o077)  # everything nemori creates (Chroma's files included) is private to the owner
    # One BLAS thread: numpy imports 0.05 s faster, and nemori's matrix products are one query
    # against stored rows (memory-bound), faster on one thread when the other core is busy
    # (onnxruntime keeps its own threads). Before numpy is imported, which it is not yet.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from nemori_cli.cli.argv import command_of, hoist
    from nemori_cli.cli.usage import one_line

    errors_said.clear()  # a run's own (tests and scripts call main more than once)
    args = hoist(sys.argv[1:] if argv is None else argv, GLOBAL_OPTIONS)
    command = command_of(args, GLOBAL_OPTIONS)
    if command not in COMMANDS or "_NEMORI_COMPLETE" in os.environ:
        command = None  # help, a mistyped command, or shell completion: the whole app
    try:
        code = build(command)(args=args, standalone_mode=False, prog_name="nemori")
        sys.stdout.flush()  # here, so that a full disk or a closed pipe is met below
    except KeyboardInterrupt as exc:
        error(str(exc) or "interrupted; what was saved is kept (run `nemori backfill` to finish)")
        sys.exit(130)
    except aborts:
        error("aborted")
        sys.exit(130)
    except usage_errors as exc:
        line = one_line(exc)
        show = getattr(exc, "show", None)
        if line is None and show is not None:
            show()  # the help of a group given no command
        else:
            error(line or str(exc))
        sys.exit(exc.exit_code)
    except NemoriError as exc:
        error(str(exc))
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(0)
    except OSError as exc:  # a full or read-only disk met by a library that does not say so
        where = f"{exc.filename}: " if exc.filename else ""
        error(f"{where}{exc.strerror or exc}")
        sys.exit(1)
    if code == 130 and not errors_said:  # typer turns Ctrl-C in a command into a silent 130
        error("interrupted; what was saved is kept")
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
