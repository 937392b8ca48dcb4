"""`nemori ingest`: import chat files into memory."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from nemori_cli.cli import context, render


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest)


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
        int | None, typer.Option("--workers", min=1, help="Concurrent LLM calls.")
    ] = None,
    prediction_correction: Annotated[
        bool | None,
        typer.Option(
            "--prediction-correction/--direct",
            help="With an LLM: extract only what stored facts do not already predict.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Import chat logs, cut them into episodes and extract facts."""
    app_ctx = context.get(ctx)
    if dry_run:
        _dry_run(app_ctx, paths, format, as_json)
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
    else:
        _summary_table(summary.to_dict())
    report_stopped(summary.to_dict())
    if summary.failed:
        raise typer.Exit(1)


def report_stopped(s: dict[str, Any]) -> None:
    """Say on stderr that the LLM was stopped mid-run, why, and how to try again."""
    if s.get("llm_stopped"):
        render.err.print(
            f"note: the LLM was not called for the rest of this run after {s['llm_stopped']}; "
            "those episodes were made offline. Try again later with `nemori backfill --redo`.",
            markup=False, highlight=False, soft_wrap=True,
        )


def _summary_table(s: dict[str, Any]) -> None:
    rows = [
        ("files", s["files"]),
        ("conversations", s["conversations"]),
        ("messages", s["messages"]),
        ("episodes", s["episodes"]),
        ("facts", s["facts"]),
        ("facts merged into existing", s["merged"]),
        ("skipped", len(s["skipped"])),
        ("failed", len(s["failed"])),
        ("seconds", f"{s['seconds']:.1f}"),
    ]
    if s["llm_calls"] or s.get("llm_stopped") or s["extraction_failed"]:
        reasons = ", ".join(f"{n} {why}" for why, n in sorted(s["fallback_reasons"].items()))
        rows += [
            ("LLM calls", s["llm_calls"]),
            ("tokens (prompt/completion)", f"{s['prompt_tokens']}/{s['completion_tokens']}"),
            ("cost (USD)", f"{s['cost']:.4f}"),
            ("episodes made by the LLM", s["llm_episodes"]),
            ("episodes made offline after the LLM failed",
             f"{s['extraction_failed']} ({reasons})" if reasons else s["extraction_failed"]),
            ("episodes cut offline (segmentation failed)", s["segment_fallbacks"]),
        ]
    render.table("Ingest summary", ["", "count"], rows)
    for item in s["skipped"]:
        render.out.print(f"skipped {item['what']}: {item['why']}", markup=False)


def _dry_run(app_ctx: context.AppContext, paths: list[str], fmt: str | None, as_json: bool) -> None:
    memory = app_ctx.memory()
    reports = [r if isinstance(r, dict) else r.to_dict() for r in memory.dry_run(paths, format=fmt)]
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
                r.get("error") or len(r.get("skipped", [])),
            )
            for r in reports
        ]
        render.table(
            "Dry run (nothing written)",
            ["file", "format", "conversations", "messages", "dates", "skipped / error"],
            rows,
        )
        for r in reports:
            for s in r.get("skipped", []):
                render.out.print(
                    f"{r['path']}: skip {s['conversation_id']}: {s['reason']}", markup=False
                )
    if any("error" in r for r in reports):
        raise typer.Exit(1)


def _date_range(report: dict[str, Any]) -> str:
    first, last = (str(report.get(k) or "?")[:10] for k in ("first", "last"))
    return first if first == last else f"{first} .. {last}"
