"""`nemori episodes`: list, show and delete episodes."""

from __future__ import annotations

from typing import Annotated

import typer

from nemori_cli.cli import context, render
from nemori_cli.models import Episode

app = typer.Typer(help="List, show and delete episodes.", no_args_is_help=True)


@app.command("list")
def list_episodes(
    ctx: typer.Context,
    conversation: Annotated[str | None, typer.Option(help="Only this conversation id.")] = None,
    limit: Annotated[int | None, typer.Option("--limit", "-n", min=1, help="Newest N.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON array.")] = False,
    as_jsonl: Annotated[bool, typer.Option("--jsonl", help="Print JSON lines.")] = False,
) -> None:
    """List stored episodes, oldest first."""
    episodes = context.get(ctx).memory().episodes()
    if conversation:
        episodes = [e for e in episodes if e.conversation_id == conversation]
    if limit:
        episodes = episodes[-limit:]
    if as_json:
        render.print_json([e.to_dict() for e in episodes])
    elif as_jsonl:
        render.print_jsonl(e.to_dict() for e in episodes)
    else:
        rows = [
            (
                e.id,
                e.timestamp.strftime("%Y-%m-%d %H:%M") if e.timestamp else "",
                len(e.message_ids),
                render.short(e.title, 70),
                made_by(e),
            )
            for e in episodes
        ]
        render.table(f"{len(episodes)} episodes", ["id", "when", "msgs", "title", "made by"], rows)


def made_by(episode: Episode) -> str:
    """Say who made an episode: llm, offline, or the fallback and why ("offline (timeout)")."""
    reason = episode.fallback_reason
    return f"offline ({reason})" if reason else episode.made_by


@app.command("show")
def show_episode(
    ctx: typer.Context,
    episode_id: Annotated[str, typer.Argument(help="Episode id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show one episode: title, narrative and source messages."""
    ep = context.get(ctx).memory().episode(episode_id)
    if as_json:
        render.print_json(ep.to_dict())
        return
    when = ep.timestamp.isoformat() if ep.timestamp else "unknown time"
    render.out.print(f"[bold]{ep.title}[/]  ({when}, conversation {ep.conversation_id})")
    render.out.print(ep.content, markup=False)
    render.out.print(f"\n[dim]{len(ep.message_ids)} messages; extraction: {ep.extraction}[/]")


@app.command("delete")
def delete_episodes(
    ctx: typer.Context,
    episode_ids: Annotated[list[str], typer.Argument(help="Episode ids.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask.")] = False,
) -> None:
    """Delete episodes, and the facts that only they support."""
    memory = context.get(ctx).memory()
    for eid in episode_ids:
        memory.episode(eid)
    context.confirm_or_abort(
        f"Delete {len(episode_ids)} episode(s) and the facts only they support?", yes
    )
    result = memory.delete_episodes(episode_ids)
    render.err.print(
        f"deleted {len(result['episodes'])} episode(s) and {len(result['facts'])} fact(s)"
    )
