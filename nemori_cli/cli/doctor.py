"""`nemori doctor`: check the store, and repair it with --repair."""

from typing import TYPE_CHECKING, Annotated

import typer

from nemori_cli.cli import context, render

if TYPE_CHECKING:
    from nemori_cli.ops.doctor import UserReport


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)


def doctor(
    ctx: typer.Context,
    users: Annotated[
        list[str] | None, typer.Argument(help="Users to check (default: every user).")
    ] = None,
    repair: Annotated[bool, typer.Option("--repair", help="Fix what is found.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check every user's files and indexes; --repair fixes them. Exit 1 if problems remain."""
    reports = context.get(ctx).memory().doctor(repair=repair, users=users)
    remaining = sum(len(r.problems) for r in reports)
    if as_json:
        render.print_json({"ok": not remaining, "users": [r.to_dict() for r in reports]})
    else:
        _show(reports, remaining, repair)
    if remaining:
        raise typer.Exit(1)


def _say(text: str) -> None:
    render.out.print(text, markup=False, soft_wrap=True)


def _show(reports: "list[UserReport]", remaining: int, repair: bool) -> None:
    for r in reports:
        who = "data dir" if r.user == "*" else f"user {r.user}"
        for line in r.repaired:
            _say(f"{who}: repaired: {line}")
        for line in r.notes:
            _say(f"{who}: note: {line}")
        for p in r.problems:
            _say(f"{who}: problem ({p['check']}): {p['detail']}")
    users = sum(1 for r in reports if r.user != "*")
    if not remaining:
        _say(f"ok: {users} user(s) checked, no problems")
    elif repair:
        _say(f"{remaining} problem(s) remain after repair")
    else:
        _say(f"{remaining} problem(s) found: run `nemori doctor --repair`")
