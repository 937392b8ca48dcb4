"""`nemori episodes`: list, show and delete episodes."""

import re
from collections import Counter
from typing import Annotated

import typer

from nemori_cli.cli import context, render
from nemori_cli.cli.search import DATES_HELP
from nemori_cli.errors import UsageError
from nemori_cli.models import Episode, Message

app = typer.Typer(help="List, show and delete episodes.", no_args_is_help=True)
HAS_FACTS = ("done", "failed")  # a failed LLM extraction kept offline facts ("made by" says so)
EXAMPLES = """Examples:
  nemori episodes list -n 5
  nemori episodes list --since 2025-06 --until 2025-08
  nemori episodes list --since 'last March' --jsonl"""
SPAN = re.compile(r"^(?P<id>[^:\s]+)(?::(?P<first>\d+)-(?P<last>\d+))?$")  # ep_x, ep_x:3-6


def plural(n: int, word: str) -> str:
    """'1 message', '2 messages'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@app.command("list", epilog=EXAMPLES)
def list_episodes(
    ctx: typer.Context,
    conversation: Annotated[str | None, typer.Option(help="Only this conversation id.")] = None,
    since: Annotated[str | None, typer.Option(help=f"From this date on: {DATES_HELP}.")] = None,
    until: Annotated[str | None, typer.Option(help="Up to this date, included.")] = None,
    limit: Annotated[int | None, typer.Option("--limit", "-n", min=1, help="Newest N.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON array.")] = False,
    as_jsonl: Annotated[bool, typer.Option("--jsonl", help="Print JSON lines.")] = False,
) -> None:
    """List stored episodes, oldest first, with how many facts each gave."""
    from nemori_cli.daterange import parse_range

    dates = parse_range(since, until)
    memory = context.reader(ctx)
    episodes = [e for e in memory.episodes() if dates.holds(e.timestamp)]
    if conversation:
        episodes = [e for e in episodes if e.conversation_id == conversation]
    if limit:
        episodes = episodes[-limit:]
    if as_json:
        render.print_json([e.to_dict() for e in episodes])
    elif as_jsonl:
        render.print_jsonl(e.to_dict() for e in episodes)
    else:
        if dates.describe():
            render.note(dates.describe())
        counts = Counter(e for f in memory.facts() for e in f.source_episode_ids)
        rows = [
            (
                e.id,
                e.timestamp.strftime("%Y-%m-%d %H:%M") if e.timestamp else "",
                len(e.message_ids),
                render.short(e.title, 70),
                made_by(e),
                counts[e.id] if e.extraction.get("status") in HAS_FACTS else e.extraction["status"],
            )
            for e in episodes
        ]
        columns = ["id", "when", "msgs", "title", "made by", "facts"]
        render.table(plural(len(episodes), "episode"), columns, rows, main="title",
                     optional=("made by", "msgs"))


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
    """Show one episode: title, narrative and source messages (of a search hit's span, given
    its id ep_x:3-6)."""
    span = SPAN.match(episode_id)
    if span is None:
        raise UsageError(f"{episode_id!r} is not an episode id (ep_x, or a search hit's ep_x:3-6)")
    memory = context.reader(ctx)
    ep = memory.episode(span["id"])
    if as_json:
        render.print_json(ep.to_dict())
        return
    count = len(ep.messages)
    first, last = (int(span["first"]), int(span["last"])) if span["first"] else (1, count)
    if not 1 <= first <= last <= count:
        raise UsageError(f"episode {ep.id} has {plural(count, 'message')}: no span {first}-{last}")
    when = ep.timestamp.strftime("%Y-%m-%d %H:%M") if ep.timestamp else "unknown time"
    say = render.say
    say(f"{ep.title}", style="bold")
    say(f"{when}, conversation {ep.conversation_id}, {plural(count, 'message')}")
    say("")
    # an offline narrative is the transcript below: its dated opening line is enough
    say(ep.content.split("\n", 1)[0] if transcribed(ep) else ep.content)
    say("")
    shown = ep.messages[first - 1 : last]
    part = f"{first}-{last} of {count}" if span["first"] else plural(count, "message")
    say(f"Source messages ({part}):", style="bold")
    for m in shown:
        stamp = f" [{m.timestamp:%Y-%m-%d %H:%M}]" if m.timestamp else ""
        say(f"--- {m.name or m.role}{stamp} ({m.id})", style="dim")
        say(m.content)
    facts = sum(1 for f in memory.facts() if ep.id in f.source_episode_ids)
    extraction = ep.extraction
    status = extraction.get("status", "unknown")
    by = extraction.get("extractor")
    made = f"facts: {plural(facts, 'fact')}, extraction {status}" + (f" by {by}" if by else "")
    say("")
    say(made, style="dim")


def transcribed(ep: Episode) -> bool:
    """Whether the episode's narrative quotes every message (as offline narratives do)."""
    text = " ".join(ep.content.split())
    return all(opening(m) in text for m in ep.messages)


def opening(message: Message) -> str:
    """A message's first words, spaces folded."""
    return " ".join(message.content.split())[:40]


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
        f"Delete {plural(len(episode_ids), 'episode')} and the facts only they support?", yes
    )
    result = memory.delete_episodes(episode_ids)
    render.err.print(
        f"deleted {plural(len(result.episodes), 'episode')} and "
        f"{plural(len(result.facts), 'fact')}"
    )
