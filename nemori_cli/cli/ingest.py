"""`nemori ingest`: import chat files into memory."""

from typing import Annotated, Any

import typer

from nemori_cli.cli import context, render
from nemori_cli.config import RANGES

EXAMPLES = """Examples:
  nemori ingest ~/Downloads/chatgpt-export.zip
  nemori ingest chats/ --dry-run
  nemori ingest - -f markdown < notes.md"""


def register(app: typer.Typer) -> None:
    app.command("ingest", epilog=EXAMPLES)(ingest)


def ingest(
    ctx: typer.Context,
    paths: Annotated[list[str], typer.Argument(help="Files, folders, or - for standard input.")],
    format: Annotated[
        str | None, typer.Option("--format", "-f", help="Force a format (see `nemori formats`).")
    ] = None,
    strict: Annotated[bool, typer.Option(help="Fail on a broken conversation.")] = False,
    facts: Annotated[bool, typer.Option("--facts/--no-facts", help="Extract facts.")] = True,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would be read.")] = False,
    workers: Annotated[
        int | None,
        typer.Option("--workers", min=RANGES["workers"].low, help="Concurrent LLM calls."),
    ] = None,
    prediction_correction: Annotated[
        bool | None,
        typer.Option(
            "--prediction-correction/--direct",
            help="With an LLM: extract only what stored facts do not already predict.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="List every skipped conversation.")
    ] = False,
) -> None:
    """Import chat logs, cut them into episodes and extract facts."""
    app_ctx = context.get(ctx)
    if dry_run:
        _dry_run(app_ctx, paths, format, as_json, verbose)
        return
    with render.interrupts_reported(), render.RichProgress() as progress:
        memory = app_ctx.memory(
            progress=progress, workers=workers, prediction_correction=prediction_correction
        )
        summary = memory.ingest(paths, format=format, strict=strict, facts=facts)
    for _, why in summary.failed:
        render.error(why)  # the importers' and stores' messages name the file themselves
    if as_json:
        render.print_json(summary.to_dict())
    elif summary.files or not summary.failed:  # a wrong path alone: its error says it all
        show_summary(summary.to_dict(), verbose)
    report_stopped(summary.to_dict())
    if summary.failed:
        raise typer.Exit(1)


def show_summary(s: dict[str, Any], verbose: bool = False) -> None:
    """Print what a run did in a few lines; what was skipped goes to stderr, summarised."""
    from nemori_cli.cli.episodes import plural

    say = render.say
    if s["files"]:
        memories = (f" ({s['memories']} of them saved memory)"
                    if s.get("memories") else "")
        say(
            f"read {plural(s['files'], 'file')}: {plural(s['conversations'], 'new conversation')}"
            f"{memories}, {plural(s['messages'], 'new message')}"
        )
    merged = f" ({s['merged']} merged into stored ones)" if s["merged"] else ""
    say(
        f"stored {plural(s['episodes'], 'episode')} and {plural(s['facts'], 'fact')}{merged} "
        f"in {s['seconds']:.1f} s"
    )
    if s["llm_calls"]:
        say(
            f"LLM: {plural(s['llm_calls'], 'call')}, {s['prompt_tokens']}/"
            f"{s['completion_tokens']} tokens (prompt/completion), {s['cost']:.4f} USD"
        )
    if s["llm_calls"] or s.get("llm_stopped") or s["extraction_failed"]:
        reasons = ", ".join(f"{n} {why}" for why, n in sorted(s["fallback_reasons"].items()))
        say(
            f"{plural(s['llm_episodes'], 'episode')} made by the LLM, "
            f"{plural(s['extraction_failed'], 'episode')} made offline after the LLM failed"
            + (f" ({reasons})" if reasons else "")
        )
    if s.get("llm_error") and not s.get("llm_stopped"):  # else report_stopped says why
        render.note(f"LLM failed: {s['llm_error'].removeprefix('LLM ')}")
    if s.get("segment_fallbacks"):
        say(f"{plural(s['segment_fallbacks'], 'episode')} cut offline (segmentation failed)")
    report_skipped([(item["what"], item["why"]) for item in s["skipped"]], verbose)


def report_stopped(s: dict[str, Any]) -> None:
    """Say on stderr that the LLM was stopped mid-run, why, and how to try again."""
    if s.get("llm_stopped"):
        render.err.print(
            f"note: the LLM was not called for the rest of this run after {s['llm_stopped']}; "
            "those episodes were made offline. Try again later with `nemori backfill --redo`.",
            markup=False, highlight=False, soft_wrap=True,
        )


def report_skipped(skipped: list[tuple[str, str]], verbose: bool) -> None:
    """Count what was skipped by reason on stderr ("84 empty conversations skipped")."""
    from collections import Counter

    from nemori_cli.cli.episodes import plural

    for why, n in Counter(why for _, why in skipped).items():
        if why == "already imported":
            render.note(f"{plural(n, 'file')} already imported, skipped")
        elif why == "empty conversation":
            render.note(f"{plural(n, 'empty conversation')} skipped")
        else:
            render.note(f"{plural(n, 'conversation')} skipped: {why}")
    if verbose:
        for what, why in skipped:
            render.note(f"skipped {what}: {why}")
    elif skipped:
        render.note("(--verbose lists them)")


def _dry_run(
    app_ctx: context.AppContext, paths: list[str], fmt: str | None, as_json: bool, verbose: bool
) -> None:
    memory = app_ctx.memory()
    reports = [r.to_dict() for r in memory.dry_run(paths, format=fmt)]
    if as_json:
        render.print_json(reports)
    else:
        rows = [
            (
                r["path"],
                r.get("format", "-"),
                r.get("conversations", "-"),
                r.get("messages", "-"),
                _date_range(r) if "error" not in r else "",
                _news(r),
                len(r.get("skipped", [])) if "error" not in r else "",
            )
            for r in reports
            if "error" not in r
        ]
        if rows:
            render.table(
                "Dry run (nothing written)",
                ["file", "format", "conversations", "messages", "dates", "new", "skipped"],
                rows,
            )
        for r in reports:
            if "error" in r:
                render.error(r["error"])
        skipped = [
            (f"{r['path']}: {_conversation(s)}", s["reason"])
            for r in reports
            for s in r.get("skipped", [])
        ]
        report_skipped(skipped, verbose)
    if any("error" in r for r in reports):
        raise typer.Exit(1)


def _news(report: dict[str, Any]) -> str:
    """What ingest would add: "already imported", or how many messages are new."""
    new = report.get("new_messages")
    if new is None:
        return "?"
    return "already imported" if new == 0 else f"{new} new message" + ("" if new == 1 else "s")


def _conversation(skip: dict[str, Any]) -> str:
    cid = skip.get("conversation_id")
    return f"conversation {cid}" if cid else "a conversation without an id"


def _date_range(report: dict[str, Any]) -> str:
    first, last = (str(report.get(k) or "?")[:10] for k in ("first", "last"))
    return first if first == last else f"{first} .. {last}"
