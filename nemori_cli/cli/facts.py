"""`nemori facts`: list, show and delete semantic facts."""

from __future__ import annotations

from typing import Annotated

import typer

from nemori_cli.cli import context, render
from nemori_cli.models import CATEGORIES

app = typer.Typer(help="List, show and delete facts.", no_args_is_help=True)


@app.command("list")
def list_facts(
    ctx: typer.Context,
    category: Annotated[
        str | None, typer.Option(help=f"Only this category: {', '.join(CATEGORIES)}.")
    ] = None,
    current: Annotated[bool, typer.Option("--current", help="Hide superseded facts.")] = False,
    limit: Annotated[int | None, typer.Option("--limit", "-n", min=1, help="Newest N.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON array.")] = False,
    as_jsonl: Annotated[bool, typer.Option("--jsonl", help="Print JSON lines.")] = False,
) -> None:
    """List stored facts, oldest first."""
    facts = context.get(ctx).memory().facts(category=category, include_superseded=not current)
    if limit:
        facts = facts[-limit:]
    if as_json:
        render.print_json([f.to_dict() for f in facts])
    elif as_jsonl:
        render.print_jsonl(f.to_dict() for f in facts)
    else:
        rows = [
            (
                f.id,
                f.valid_from.date().isoformat() if f.valid_from else "",
                f.category,
                render.short(f.content, 110) + (" (superseded)" if f.superseded_by else ""),
            )
            for f in facts
        ]
        render.table(f"{len(facts)} facts", ["id", "date", "category", "fact"], rows)


@app.command("show")
def show_fact(
    ctx: typer.Context,
    fact_id: Annotated[str, typer.Argument(help="Fact id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show one fact with its provenance."""
    fact = context.get(ctx).memory().fact(fact_id)
    if as_json:
        render.print_json(fact.to_dict())
        return
    d = fact.to_dict()
    render.table(fact.id, ["field", "value"], [(k, v) for k, v in d.items() if k != "id"])


@app.command("delete")
def delete_facts(
    ctx: typer.Context,
    fact_ids: Annotated[list[str], typer.Argument(help="Fact ids.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask.")] = False,
) -> None:
    """Delete facts from the store and both indexes."""
    memory = context.get(ctx).memory()
    for fid in fact_ids:
        memory.fact(fid)
    context.confirm_or_abort(f"Delete {len(fact_ids)} fact(s)?", yes)
    deleted = memory.delete_facts(fact_ids)
    render.err.print(f"deleted {len(deleted)} fact(s)")
