"""`nemori remember`: store something the user says about themselves, dated now."""

import sys
from typing import Annotated

import typer

from nemori_cli.cli import context, render
from nemori_cli.cli.episodes import plural
from nemori_cli.models import CATEGORIES

EXAMPLES = """Examples:
  nemori remember "I moved to Lisbon in May"
  nemori remember "I am allergic to peanuts" --category user_profile
  echo "I switched to a standing desk" | nemori remember -"""


def register(app: typer.Typer) -> None:
    app.command("remember", epilog=EXAMPLES)(remember)


def remember(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(help="What to remember, in your words; - reads stdin.")],
    category: Annotated[
        str | None,
        typer.Option(
            help=f"File it under: {', '.join(CATEGORIES)} (guessed if not given).",
            callback=context.check_category,
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the facts as JSON.")] = False,
) -> None:
    """Remember a note ("I moved to Lisbon in May") as an episode and a fact, dated now."""
    if text == "-":
        text = sys.stdin.read()
    memory = context.get(ctx).memory()
    with render.interrupts_reported():
        summary = memory.add_note(text, category=category)
    facts = [memory.fact(i) for i in summary.fact_ids]
    if as_json:
        render.print_json(
            {"facts": [f.to_dict() for f in facts], "new": summary.facts, "known": summary.merged}
        )
        return
    if summary.facts:
        known = f", {summary.merged} already known" if summary.merged else ""
        render.say(f"Remembered {plural(summary.facts, 'new fact')}{known}:")
    else:
        render.say("Already known (the note is added to its sources):")
    render.table(None, ["id", "category", "fact"], [
        (f.id, f.category, render.short(f.dated_content, 110)) for f in facts
    ], main="fact")
