"""`nemori mcp`: serve the memory to MCP clients (Claude, Cursor, VS Code) over stdio."""

from __future__ import annotations

from typing import Annotated

import typer

from nemori_cli.cli import context


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp)


def mcp(
    ctx: typer.Context,
    user: Annotated[
        str | None, typer.Option("--user", "-u", help="User to serve (default: the global one).")
    ] = None,
) -> None:
    """Serve the memory to MCP clients over stdio (see docs/mcp.md)."""
    from nemori_cli.mcp_server import serve  # lazily: its pydantic tool models cost startup

    memory = context.get(ctx).memory()
    serve(memory, user)
