"""Run the nemori CLI in-process, the way a shell would, and capture what it prints."""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout

from nemori_cli.cli.app import main


def cli(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Run `nemori ARGS` (stdin given as text); return (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.stdin = saved_stdin
    return code, out.getvalue(), err.getvalue()
