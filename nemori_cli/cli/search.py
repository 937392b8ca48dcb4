"""`nemori search`: hybrid search over episodes and facts."""

from __future__ import annotations

import sys
from datetime import datetime
from typing import Annotated, Any

import typer

from nemori_cli.cli import context, render
from nemori_cli.errors import UsageError


def register(app: typer.Typer) -> None:
    app.command("search")(search)


def parse_when(value: str | None, option: str) -> datetime | None:
    """Parse a --since/--until value (ISO date or datetime), as UTC when no zone is given."""
    if value is None:
        return None
    from datetime import UTC

    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(
            f"{option}: {value!r} is not a date (use YYYY-MM-DD or ISO 8601)"
        ) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def search(
    ctx: typer.Context,
    query: Annotated[str | None, typer.Argument(help="What to look for.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-k", min=1, help="How many hits.")] = 10,
    kind: Annotated[str, typer.Option(help="episode, fact or all.")] = "all",
    since: Annotated[str | None, typer.Option(help="Only from this date (ISO 8601).")] = None,
    until: Annotated[str | None, typer.Option(help="Only up to this date (ISO 8601).")] = None,
    category: Annotated[str | None, typer.Option(help="Only facts of this category.")] = None,
    conversation: Annotated[str | None, typer.Option(help="Only this conversation id.")] = None,
    include_superseded: Annotated[
        bool, typer.Option("--include-superseded", help="Also show facts that were replaced.")
    ] = False,
    stdin: Annotated[bool, typer.Option("--stdin", help="Read one query a line.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON array.")] = False,
    as_jsonl: Annotated[bool, typer.Option("--jsonl", help="Print JSON lines.")] = False,
) -> None:
    """Search memory (vector + BM25, fused)."""
    if stdin == (query is not None):
        raise UsageError("give a QUERY or --stdin (one query a line), not both or neither")
    memory = context.get(ctx).memory()
    options: dict[str, Any] = dict(
        k=limit,
        kind=kind,
        since=parse_when(since, "--since"),
        until=parse_when(until, "--until"),
        category=category,
        conversation_id=conversation,
        include_superseded=include_superseded,
    )
    if stdin:
        batch: list[dict[str, Any]] = []
        for line in sys.stdin:
            q = line.rstrip("\n")
            if not q.strip():
                continue
            row = {"query": q, "hits": [h.to_dict() for h in memory.search(q, **options)]}
            if as_json:
                batch.append(row)
            else:
                render.print_jsonl([row])
        if as_json:
            render.print_json(batch)
        return
    assert query is not None
    hits = memory.search(query, **options)
    if as_json:
        render.print_json([h.to_dict() for h in hits])
    elif as_jsonl:
        render.print_jsonl(h.to_dict() for h in hits)
    elif not hits:
        render.err.print("no matches")
    else:
        rows = [
            (
                f"{h.score:.4f}",
                h.kind,
                h.timestamp.date().isoformat() if h.timestamp else "",
                render.short(h.title or h.content if h.kind == "episode" else h.content, 140),
                h.id,
            )
            for h in hits
        ]
        render.table(f"Results for {query!r}", ["score", "kind", "date", "memory", "id"], rows)
