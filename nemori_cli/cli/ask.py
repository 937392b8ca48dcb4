"""`nemori ask`: answer a question from memory, citing the memories used."""

from typing import Annotated, Any

import typer

from nemori_cli.cli import context, render
from nemori_cli.cli.search import DATES_HELP, TODAY_HELP, stdin_lines
from nemori_cli.errors import UsageError

EXAMPLES = """Examples:
  nemori ask where do I live now
  nemori ask "What do I avoid eating?" --since 2025 --json
  printf 'Where do I live?\\nWho is Anna?\\n' | nemori ask --stdin --jsonl"""


def register(app: typer.Typer) -> None:
    app.command("ask", epilog=EXAMPLES)(ask)


def ask(
    ctx: typer.Context,
    question: Annotated[
        list[str] | None,
        typer.Argument(help="The question, in plain words (several words need no quotes)."),
    ] = None,
    budget: Annotated[
        int, typer.Option("--budget", min=1, help="Words of memories the model reads.")
    ] = 1500,
    kind: Annotated[str, typer.Option(help="episode, fact or all.")] = "all",
    since: Annotated[str | None, typer.Option(help=f"From this date on: {DATES_HELP}.")] = None,
    until: Annotated[
        str | None, typer.Option(help="Up to this date, included (a day means all of it).")
    ] = None,
    today: Annotated[str | None, typer.Option(help=TODAY_HELP)] = None,
    stdin: Annotated[bool, typer.Option("--stdin", help="Read one question a line.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    as_jsonl: Annotated[bool, typer.Option("--jsonl", help="Print JSON lines.")] = False,
) -> None:
    """Answer a question from memory, citing the memories used (needs an LLM; else evidence)."""
    text = " ".join(question) if question else None
    if stdin == (text is not None):
        raise UsageError("give a QUESTION or --stdin (one question a line), not both or neither")
    from nemori_cli.cli import answer_view
    from nemori_cli.daterange import parse_range, parse_today

    asked_on = parse_today(today)
    dates = parse_range(since, until, asked_on)
    memory = context.reader(ctx)
    options: dict[str, Any] = dict(
        budget=budget, kind=kind, since=dates.since, until=dates.until, today=asked_on
    )
    if not memory.settings.llm_model:
        render.err.print(answer_view.CONFIGURE_HINT, markup=False, soft_wrap=True)
    if stdin:
        if not answer_batch(memory, options, as_json, as_jsonl):
            raise typer.Exit(1)
        return
    assert text is not None
    with render.interrupts_reported():
        result = memory.ask(text, **options)
    if as_json:
        render.print_json(result.to_dict())
    elif as_jsonl:
        render.print_jsonl([result.to_dict()])
    else:
        answer_view.show(result)


def answer_batch(memory: Any, options: dict[str, Any], as_json: bool, as_jsonl: bool) -> bool:
    """Answer each stdin line as the flags say (a table, JSON lines or one JSON array), each
    as soon as it is answered; False if any failed."""
    from nemori_cli.cli import answer_view
    from nemori_cli.pipeline.llm import LLMError

    rows: list[dict[str, Any]] = []
    ok = True
    people = not (as_json or as_jsonl)
    with render.interrupts_reported():
        for i, q in enumerate(stdin_lines()):
            q = q.strip()
            if people:
                render.say(("\n" if i else "") + q, style="bold")
            try:
                result = memory.ask(q, **options)
            except LLMError as exc:  # one question failed: say so (on its line), go on
                render.error(str(exc))
                ok = False
                row: dict[str, Any] = {"question": q, "error": str(exc)}
            else:
                row = result.to_dict()
                if people:
                    answer_view.show(result)
            if as_json:
                rows.append(row)
            elif as_jsonl:
                render.print_jsonl([row])
    if as_json:
        render.print_json(rows)
    return ok
