"""`nemori facts`: list, show and delete semantic facts."""

import sys
from typing import Annotated

import typer

from nemori_cli.cli import context, render
from nemori_cli.cli.episodes import plural
from nemori_cli.cli.search import DATES_HELP
from nemori_cli.errors import NotFound
from nemori_cli.models import CATEGORIES, with_time

app = typer.Typer(help="List, show and delete facts.", no_args_is_help=True)
EXAMPLES = """Examples:
  nemori facts list --category user_profile --current
  nemori facts list --since 'last March' -n 20
  nemori facts list --json > facts.json"""


@app.command("list", epilog=EXAMPLES)
def list_facts(
    ctx: typer.Context,
    category: Annotated[
        str | None,
        typer.Option(
            help=f"Only this category: {', '.join(CATEGORIES)}.", callback=context.check_category
        ),
    ] = None,
    since: Annotated[str | None, typer.Option(help=f"From this date on: {DATES_HELP}.")] = None,
    until: Annotated[str | None, typer.Option(help="Up to this date, included.")] = None,
    current: Annotated[bool, typer.Option("--current", help="Hide superseded facts.")] = False,
    limit: Annotated[int | None, typer.Option("--limit", "-n", min=1, help="Newest N.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON array.")] = False,
    as_jsonl: Annotated[bool, typer.Option("--jsonl", help="Print JSON lines.")] = False,
) -> None:
    """List stored facts, oldest first."""
    from nemori_cli.daterange import parse_range

    dates = parse_range(since, until)
    memory = context.reader(ctx)
    facts = memory.fact_listing(
        category=category,
        include_superseded=not current,
        since=dates.since,
        until=dates.until,
        limit=limit,
    )
    if as_json:
        render.print_json(facts)
    elif as_jsonl:
        render.print_jsonl(facts)
    else:
        if dates.describe():
            render.note(dates.describe())
        rows = [
            (
                f["id"],
                (f["valid_from"] or "")[:10],
                f["category"],
                render.short(with_time(f["content"], f.get("when")), 110)
                + (" (superseded)" if f["superseded_by"] else ""),
            )
            for f in facts
        ]
        columns = ["id", "date", "category", "fact"]
        render.table(plural(len(facts), "fact"), columns, rows, main="fact", optional=["category"])


@app.command("show")
def show_fact(
    ctx: typer.Context,
    fact_id: Annotated[str, typer.Argument(help="Fact id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show one fact with its provenance: the messages it came from, word for word."""
    memory = context.reader(ctx)
    fact = memory.fact(fact_id)
    replaced = memory.replaced_facts(fact_id)
    if as_json:
        render.print_json({**fact.to_dict(), "replaces": [f.to_dict() for f in replaced]})
        return
    say = render.say
    say(fact.dated_content, style="bold")
    when = fact.valid_from.strftime("%Y-%m-%d %H:%M") if fact.valid_from else "undated"
    about = f", about {fact.subject}" if fact.subject else ""
    say(f"{fact.category}{about}, {when}, confidence {fact.confidence:g}, by {fact.extractor}")
    if fact.superseded_by:
        say(f"superseded by {fact.superseded_by}")
    for old in replaced:
        say(f"replaces {old.id}: {old.dated_content}", style="dim")
    wanted = set(fact.source_message_ids)
    say("")
    say(f"From {plural(len(wanted), 'message')} in {', '.join(fact.source_episode_ids)}:")
    for eid in fact.source_episode_ids:
        try:
            messages = memory.episode(eid).messages
        except NotFound:  # a source episode deleted since
            continue
        for m in messages:
            if m.id in wanted:
                stamp = f" [{m.timestamp:%Y-%m-%d %H:%M}]" if m.timestamp else ""
                say(f"--- {m.name or m.role}{stamp} ({m.id})", style="dim")
                say(m.content)
                wanted.discard(m.id)
    for mid in sorted(wanted):
        say(f"--- {mid}: no longer stored", style="dim")


@app.command("correct")
def correct_fact(
    ctx: typer.Context,
    fact_id: Annotated[str, typer.Argument(help="Fact id.")],
    content: Annotated[
        str | None, typer.Argument(help="The fact as it should read; - reads stdin.")
    ] = None,
    category: Annotated[
        str | None,
        typer.Option(
            help=f"Move it to: {', '.join(CATEGORIES)}.", callback=context.check_category
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the fact as JSON.")] = False,
) -> None:
    """Correct a fact: new wording replaces it (the old one kept, superseded); or its category."""
    from nemori_cli.errors import UsageError

    if content is None and category is None:
        raise UsageError("give the corrected wording, --category, or both")
    if content == "-":
        content = sys.stdin.read()
    memory = context.get(ctx).memory()
    with render.interrupts_reported():
        fact = memory.correct_fact(fact_id, content, category=category)
    if as_json:
        render.print_json(fact.to_dict())
        return
    if fact.id != fact_id:
        render.err.print(f"{fact_id} is superseded by {fact.id}", markup=False)
    render.say(f"{fact.id}  {fact.category}  {fact.dated_content}")


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
    context.confirm_or_abort(f"Delete {plural(len(fact_ids), 'fact')}?", yes)
    deleted = memory.delete_facts(fact_ids)
    render.err.print(f"deleted {plural(len(deleted), 'fact')}")
