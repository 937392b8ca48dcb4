"""`nemori mcp`: serve the memory to MCP clients (Claude, Cursor, VS Code) over stdio."""

import typer

from nemori_cli.cli import context


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp)


def mcp(ctx: typer.Context) -> None:
    """Serve the memory to MCP clients over stdio (see docs/mcp.md)."""
    from nemori_cli.mcp_server import serve  # lazily: its pydantic tool models cost startup

    memory = context.get(ctx).memory()
    serve(memory, None)
