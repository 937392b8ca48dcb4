"""Fault injection: damage one derived file of a real store, the way a disk or a crash would.

Each case names what it damages, how it does it, what `nemori doctor` must say about it, and
which command is expected to heal it. docs/reliability.md is checked against this table.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cli_runner import cli

USER = "me"
# Queries a user relies on: the clean store's best hit for each must stay in the top 10.
PROBES = [
    "hiking in the Alps every September",
    "is the user vegetarian",
    "moving to Lisbon apartment",
    "changing jobs",
    "python asyncio tests",
]


@dataclass(frozen=True)
class Fault:
    """One kind of damage and what nemori must do about it."""

    name: str
    what: str  # the damage, as docs/reliability.md says it
    damage: Callable[[Path], None]
    doctor_says: str  # a substring of doctor's problem lines
    heal: str  # "doctor --repair", "reindex", "ingest", or commands joined by " then "
    search: str = "answers"  # or "fails with one line"
    heal_says: str = ""  # a substring of what the first healing command prints


def chroma_client(data: Path) -> Any:
    import chromadb
    from chromadb.config import Settings

    return chromadb.PersistentClient(
        path=str(data / "chroma"), settings=Settings(anonymized_telemetry=False)
    )


def forget_clients() -> None:
    """Chroma keeps one client per path in a process: drop them after files change."""
    from chromadb.api.client import SharedSystemClient

    SharedSystemClient.clear_system_cache()


def cut(path: Path, share: float) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * share)])


def garble(path: Path) -> None:
    """Replace the content with random bytes of the same size (bit rot, a torn page)."""
    path.write_bytes(os.urandom(max(path.stat().st_size, 64)))


def nan_rows(path: Path) -> None:
    import numpy as np

    rows = np.fromfile(path, dtype=np.float32)
    rows[:] = np.nan
    rows.tofile(path)


def tear_line_in_middle(path: Path) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    mid = len(lines) // 2
    lines[mid] = lines[mid][: len(lines[mid]) // 2] + b"\n"
    path.write_bytes(b"".join(lines))


def drop_collection(data: Path) -> None:
    from nemori_cli.store.vector_index import collection_name

    chroma_client(data).delete_collection(collection_name(USER, "fact"))
    forget_clients()


def flat(data: Path, name: str) -> Path:
    return data / "flat" / USER / name


def bm25(data: Path, name: str) -> Path:
    return data / "bm25" / USER / "facts" / name


FAULTS = [
    Fault("chroma-truncated", "Chroma database cut to a third (full disk, crash)",
          lambda d: cut(d / "chroma" / "chroma.sqlite3", 1 / 3), "chroma", "doctor --repair"),
    Fault("chroma-garbage", "Chroma database replaced by random bytes",
          lambda d: garble(d / "chroma" / "chroma.sqlite3"), "chroma", "reindex"),
    Fault("chroma-deleted", "Chroma folder deleted",
          lambda d: shutil.rmtree(d / "chroma"), "vector index (Chroma)", "ingest"),
    Fault("collection-missing", "the facts' Chroma collection missing",
          drop_collection, "fact vector index (Chroma)", "doctor --repair"),
    Fault("flat-garbage", "flat copy rows replaced by random bytes, size kept",
          lambda d: garble(flat(d, "fact-1.f32")), "flat/me", "doctor --repair"),
    Fault("flat-nan", "flat copy rows all NaN",
          lambda d: nan_rows(flat(d, "episode-1.f32")), "flat/me", "ingest"),
    Fault("flat-short", "flat copy rows cut in half",
          lambda d: cut(flat(d, "fact-1.f32"), 0.5), "flat/me", "doctor --repair"),
    Fault("flat-missing", "flat copy folder deleted",
          lambda d: shutil.rmtree(d / "flat" / USER), "flat copy", "doctor --repair"),
    Fault("flat-log-torn", "flat copy log torn in the middle",
          lambda d: tear_line_in_middle(flat(d, "fact-1.log")), "flat/me", "reindex"),
    Fault("pending-garbage", "pending-delete list of random bytes",
          lambda d: flat(d, "fact.pending").write_bytes(os.urandom(300)), "fact.pending",
          "doctor --repair"),
    Fault("bm25-missing", "a bm25s file deleted",
          lambda d: bm25(d, "data.csc.index.npy").unlink(), "bm25/me/facts", "ingest"),
    Fault("bm25-garbage", "every bm25s file replaced by random bytes",
          lambda d: [garble(p) for p in bm25(d, "").iterdir()] and None, "bm25/me/facts",
          "doctor --repair"),
    Fault("deleted-json-garbage", "bm25s deleted.json of garbage",
          lambda d: bm25(d, "deleted.json").write_bytes(b"\x00{not json"), "bm25/me/facts",
          "reindex"),
    Fault("jsonl-torn-middle", "a facts.jsonl line torn in the middle of the file",
          lambda d: tear_line_in_middle(d / "users" / USER / "facts.jsonl"), "facts.jsonl",
          "doctor --repair then backfill", search="fails with one line",
          heal_says="lost: run `nemori backfill` to extract it again"),
    Fault("episodes-torn-middle", "an episodes.jsonl line torn in the middle of the file",
          lambda d: tear_line_in_middle(d / "users" / USER / "episodes.jsonl"), "episodes.jsonl",
          "doctor --repair then ingest", search="fails with one line",
          heal_says="lost: re-run `nemori ingest "),
]


@dataclass(frozen=True)
class Run:
    """What one command did: its exit code, output, error lines and Python warnings."""

    code: int
    out: str
    err_lines: list[str]
    warned: list[str]


def run(*args: str, stdin: str | None = None) -> Run:
    """Run `nemori ARGS` in-process, recording every warning that would reach the user."""
    forget_clients()
    gc.collect()  # what earlier tests left unclosed warns when collected, not here
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code, out, err = cli(*args, stdin=stdin)
    # Python never shows these two to a user unless asked (its default warning filters)
    quiet = (DeprecationWarning, ResourceWarning)
    warned = [str(w.message) for w in caught if not issubclass(w.category, quiet)]
    return Run(code, out, [ln for ln in err.splitlines() if ln.strip()], warned)


def probe_searches(data: Path, k: int = 10) -> Run:
    """All probe queries in one process (one Memory), as a script would run them."""
    lines = "\n".join(PROBES) + "\n"
    return run("--data-dir", str(data), "search", "--stdin", "--jsonl", "-k", str(k), stdin=lines)


def top_ids(result: Run) -> dict[str, list[str]]:
    rows = [json.loads(line) for line in result.out.splitlines() if line.strip()]
    return {r["query"]: [h["id"] for h in r["hits"]] for r in rows}


def heal(how: str, data: Path) -> list[Run]:
    """Run the commands that are to heal the store, in order; stop at the first that fails."""
    from conftest import SAMPLE_CHATS

    runs: list[Run] = []
    for command in how.split(" then "):
        args = ["ingest", str(SAMPLE_CHATS), "--json"] if command == "ingest" else command.split()
        runs.append(run("--data-dir", str(data), *args))
        if runs[-1].code != 0:
            break
    return runs
