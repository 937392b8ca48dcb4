"""The command-line options every benchmark built on LoCoMo's data takes."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import locomo_data


def run_options(description: str, out: Path, cache: str) -> argparse.ArgumentParser:
    """A parser with --data, --out, --cache-dir (under the temp dir), --fresh and --no-write."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--data", default=str(locomo_data.DEFAULT_PATH), help="locomo10.json")
    p.add_argument("--out", default=str(out), help="results JSON")
    p.add_argument("--cache-dir", default=str(Path(tempfile.gettempdir()) / cache),
                   help="ingested stores, reused while the ingest code is the same")
    p.add_argument("--fresh", action="store_true", help="ingest again even if cached")
    p.add_argument("--no-write", action="store_true", help="leave docs/ untouched")
    return p
