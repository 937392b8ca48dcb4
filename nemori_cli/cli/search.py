"""`nemori search`: hybrid search over episodes and facts."""

import sys
from collections.abc import Callable, Iterator
from typing import Annotated, Any

import typer

from nemori_cli.cli import context, render
from nemori_cli.errors import UsageError
from nemori_cli.models import SearchHit

DATES_HELP = "2024-10-17 (the whole day), 2024-06, 2024, 'yesterday', '3 weeks ago', 'last March'"
TODAY_HELP = (
    "Ask as on this day: 'last week', 'this year' and --since 'yesterday' are read against it "
    "(a date, e.g. 2024-05-30; default: today). Later memories are still searched: add "
    "--until to leave them out."
)

EXAMPLES = """Examples:
  nemori search hiking boots
  nemori search peanuts --category user_profile --since 2025
  printf 'hiking\\npeanuts\\n' | nemori search --stdin --jsonl"""


def register(app: typer.Typer) -> None:
    app.command("search", epilog=EXAMPLES)(search)


def search(
    ctx: typer.Context,
    query: Annotated[
        list[str] | None, typer.Argument(help="What to look for (several words need no quotes).")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-k", min=1, help="How many hits.")] = 10,
    kind: Annotated[str, typer.Option(help="episode, fact or all.")] = "all",
    since: Annotated[str | None, typer.Option(help=f"From this date on: {DATES_HELP}.")] = None,
    until: Annotated[
        str | None, typer.Option(help="Up to this date, included (a day means all of it).")
    ] = None,
    category: Annotated[
        str | None,
        typer.Option(
            help="Only facts of this category (no episodes).", callback=context.check_category
        ),
    ] = None,
    conversation: Annotated[str | None, typer.Option(help="Only this conversation id.")] = None,
    include_superseded: Annotated[
        bool, typer.Option("--include-superseded", help="Also show facts that were replaced.")
    ] = False,
    min_score: Annotated[
        float,
        typer.Option("--min-score", min=0.0, max=1.0, help="Drop hits whose relevance is lower."),
    ] = 0.0,
    today: Annotated[str | None, typer.Option(help=TODAY_HELP)] = None,
    stdin: Annotated[bool, typer.Option("--stdin", help="Read one query a line.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON array.")] = False,
    as_jsonl: Annotated[bool, typer.Option("--jsonl", help="Print JSON lines.")] = False,
) -> None:
    """Search memory (vector + BM25, fused). Relevance runs 0-1; below 0.5 is a weak match."""
    from nemori_cli.daterange import parse_range, parse_today

    text = " ".join(query) if query else None
    if stdin == (text is not None):
        raise UsageError("give a QUERY or --stdin (one query a line), not both or neither")
    asked_on = parse_today(today)
    dates = parse_range(since, until, asked_on)
    memory = context.reader(ctx)
    memory.progress = render.Notes()  # a damaged index searched around is said on stderr
    options: dict[str, Any] = dict(
        k=limit,
        kind=kind,
        since=dates.since,
        until=dates.until,
        category=category,
        conversation_id=conversation,
        include_superseded=include_superseded,
        today=asked_on,
    )

    def run(q: str) -> list[SearchHit]:
        return [h for h in memory.search(q, **options) if (h.relevance or 0.0) >= min_score]

    if stdin:
        search_lines(run, "json" if as_json else "jsonl" if as_jsonl else None, dates.describe(),
                     min_score)
        return
    assert text is not None
    hits = run(text)
    if as_json:
        render.print_json([h.to_dict() for h in hits])
    elif as_jsonl:
        render.print_jsonl(h.to_dict() for h in hits)
    else:
        _show(text, hits, dates.describe(), min_score)


def search_lines(
    run: Callable[[str], list[SearchHit]], output: str | None, dates: str, min_score: float
) -> None:
    """Search each stdin line, its hits printed as soon as found: as "json", "jsonl", or a
    person's view (`output` None)."""
    batch: list[dict[str, Any]] = []
    for i, q in enumerate(stdin_lines()):
        hits = run(q)
        row = {"query": q, "hits": [h.to_dict() for h in hits]}
        if output == "json":
            batch.append(row)
        elif output == "jsonl":
            render.print_jsonl([row])
        else:
            if i:
                render.say("")
            _show(q, hits, "" if i else dates, min_score)
    if output == "json":
        render.print_json(batch)


def stdin_lines() -> Iterator[str]:
    """The lines of standard input that hold a query or question, as they come."""
    for line in sys.stdin:
        if line.strip():
            yield line.rstrip("\n")


def _show(query: str, hits: list[SearchHit], dates: str, min_score: float) -> None:
    """Print the hits for a person: a line about the dates and strength, then the table."""
    from nemori_cli.search.relevance import STRONG

    if dates:
        render.note(dates)
    if not hits:
        cut = f" with relevance {min_score:g} or more" if min_score else ""
        render.note(f"no matches{cut} for {query!r}")
        return
    best = max(h.relevance or 0.0 for h in hits)
    if best < STRONG:
        render.note(
            f"no strong match for {query!r} (best relevance {best:.2f}; below {STRONG} is "
            "weak): the closest memories are",
            wrap=True,
        )
    rows = [
        (
            f"{h.relevance or 0.0:.2f}",
            h.kind,
            h.timestamp.date().isoformat() if h.timestamp else "",
            h.hit_id or h.id,
            _memory_cell(h),
        )
        for h in hits
    ]
    if render.plain():  # the text last: lines as long as their text, not padded to the longest
        columns = ["relevance", "kind", "date", "id", "memory"]
        render.table(f"Results for {query!r}", columns, rows)
        return
    # a terminal: each hit as a heading line and its text below, wrapped between words
    render.say(f"Results for {query!r} (relevance 0-1)", style="bold")
    for h, (rel, kind, day, hit_id, _) in zip(hits, rows, strict=True):
        render.say("")
        render.say(f"{rel}  {kind:<7}  {day:<10}  {hit_id}", style="bold")
        if h.kind == "episode" and h.title:
            render.say(h.title, indent=2)
        render.say(h.snippet or h.content, indent=2, style="dim" if h.kind == "episode" else None)


def _memory_cell(h: SearchHit) -> str:
    if h.kind == "fact":
        return render.short(h.content, 160)
    title = render.short(h.title or "", 50)
    return f"{title} | {h.snippet}" if h.snippet else title
