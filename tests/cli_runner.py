"""Run the nemori CLI in-process, the way a shell would, and capture what it prints."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from store_check import child_environ

from nemori_cli.cli.app import main

SAMPLE_CHATS = Path(__file__).resolve().parent.parent / "sample_chats"


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


def ingest_sample_chats(data_dir: Path, **env: str) -> dict[str, Any]:
    """Ingest sample_chats/ with `nemori` in a fresh process (NEMORI_* vars replaced by env);
    return its --json summary."""
    clean = child_environ()
    clean["NEMORI_CONFIG"] = str(data_dir.parent / "no-config.toml")
    proc = subprocess.run(
        [sys.executable, "-m", "nemori_cli.cli.app", "--data-dir", str(data_dir), "ingest",
         str(SAMPLE_CHATS), "--json"],
        capture_output=True, text=True, env={**clean, **env}, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    summary: dict[str, Any] = json.loads(proc.stdout)
    assert summary["episodes"] >= 4 and summary["facts"] >= 5 and summary["failed"] == []
    return summary
