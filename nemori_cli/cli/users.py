"""`nemori users`: list and delete users."""

from typing import Annotated

import typer

from nemori_cli.cli import context, render
from nemori_cli.errors import NotFound

app = typer.Typer(help="List and delete users.", no_args_is_help=True)


@app.command("list")
def list_users(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON array.")] = False,
) -> None:
    """List the users that have stored memory."""
    memory = context.get(ctx).memory()
    rows = []
    for uid in memory.users():
        counts = memory.stats(uid)
        rows.append({"user": uid, "episodes": counts.episodes, "facts": counts.facts})
    if as_json:
        render.print_json(rows)
    else:
        render.table(None, ["user", "episodes", "facts"], [tuple(r.values()) for r in rows])


@app.command("delete")
def delete_user(
    ctx: typer.Context,
    user: Annotated[str, typer.Argument(help="User id.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask.")] = False,
) -> None:
    """Delete everything stored for a user."""
    memory = context.get(ctx).memory()
    uid = memory.user_id(user)
    if uid not in memory.users():
        raise NotFound(f"no user {uid!r} in {memory.data_dir}")
    context.confirm_or_abort(f"Delete all memory of user {uid!r}?", yes)
    memory.delete_user(uid)
    render.err.print(f"deleted user {uid!r}")
