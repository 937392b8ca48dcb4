"""The docs show the real CLI, and the code passes the linter (checks, never fixes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_cli_reference_matches_the_real_help_output() -> None:
    proc = subprocess.run([sys.executable, "scripts/cli_docs.py", "--check"], cwd=REPO,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_ruff_finds_nothing() -> None:
    ruff = str(Path(sys.executable).parent / "ruff")  # from the [test] extra, beside python
    proc = subprocess.run([ruff, "check", "nemori_cli", "tests", "bench", "scripts"], cwd=REPO,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:]


def test_mypy_finds_nothing() -> None:
    mypy = str(Path(sys.executable).parent / "mypy")  # from the [test] extra, beside python
    proc = subprocess.run([mypy, "nemori_cli"], cwd=REPO, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stdout[-3000:]
