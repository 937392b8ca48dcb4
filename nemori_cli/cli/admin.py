"""Maintenance commands: backfill, reindex, stats, formats, config."""

from typing import Annotated, Any

import typer

from nemori_cli.cli import context, render
from nemori_cli.cli.ingest import report_stopped, show_summary
from nemori_cli.config import RANGES

config_app = typer.Typer(help="Show the effective configuration.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.command("backfill")(backfill)
    app.command("reindex")(reindex)
    app.command("stats")(stats)
    app.command("formats")(formats)
    app.add_typer(config_app, name="config")


def backfill(
    ctx: typer.Context,
    redo: Annotated[
        bool, typer.Option("--redo", help="Also redo episodes made by another extractor.")
    ] = False,
    workers: Annotated[
        int | None,
        typer.Option("--workers", min=RANGES["workers"].low, help="Concurrent LLM calls."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Extract facts for episodes whose extraction is missing or failed (resumable)."""
    with render.interrupts_reported(), render.RichProgress() as progress:
        memory = context.get(ctx).memory(progress=progress, workers=workers)
        summary = memory.backfill(redo=redo)
    if as_json:
        render.print_json(summary.to_dict())
    elif not summary.extracted:
        by = f" by {memory.settings.extractor_name}" if redo else ""
        render.say(f"nothing to backfill: every episode's facts are extracted{by}")
    else:
        show_summary(summary.to_dict())
    report_stopped(summary.to_dict())


def reindex(ctx: typer.Context) -> None:
    """Rebuild the vector and lexical indexes from the JSONL files."""
    with render.interrupts_reported(), render.RichProgress() as progress:
        memory = context.get(ctx).memory(progress=progress)
        counts = memory.reindex()
    for line in counts.moved_aside:
        render.note(line)
    render.err.print(f"reindexed {counts.episodes} episodes and {counts.facts} facts")


def stats(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show counts and LLM spend for the user."""
    data = context.reader(ctx).stats().to_dict()
    if as_json:
        render.print_json(data)
        return
    show_sections(data)


HEADINGS = {  # how `stats` names its groups of counts
    "extraction": "episodes by extraction status",
    "llm_usage": "LLM use by ingest and backfill",
    "ask_usage": "LLM use by ask",
}


def show_sections(data: dict[str, Any]) -> None:
    """Print the plain values as aligned lines, then each group under its own heading."""
    say = render.say
    groups = {k: v for k, v in data.items() if isinstance(v, dict)}
    for line in aligned([(k, v) for k, v in data.items() if k not in groups]):
        say(line)
    for name, group in groups.items():
        say("")
        say(HEADINGS.get(name, name.replace("_", " ")), style="bold")
        for line in aligned(list(group.items())) or ["(none)"]:
            say(line, indent=2)


def aligned(pairs: list[tuple[str, Any]]) -> list[str]:
    """'key  value' lines, the values lined up."""
    width = max((len(k) for k, _ in pairs), default=0)
    return [f"{k:<{width}}  {v}" for k, v in pairs]


def formats(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the import formats that ingest detects (or takes with --format)."""
    from nemori_cli.importers import FORMATS  # lazily, for startup

    if as_json:
        render.print_json(FORMATS)
    else:
        render.table("Import formats", ["format", "what"], FORMATS.items())


@config_app.command("show")
def config_show(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print the effective settings (secrets masked)."""
    settings = context.get(ctx).memory().settings.masked()
    if as_json:
        render.print_json(settings)
    else:
        render.table("Effective settings", ["setting", "value"], settings.items())
