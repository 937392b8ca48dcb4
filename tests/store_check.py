"""Helpers for the reliability tests: run the CLI as a process, and snapshot a store."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson

REPO = Path(__file__).resolve().parent.parent
SAMPLE_CHATS = REPO / "sample_chats"


def nemori_cmd() -> list[str]:
    """The command that runs the installed CLI with this interpreter."""
    script = Path(sys.executable).parent / "nemori"
    return [str(script)] if script.exists() else [sys.executable, "-m", "nemori_cli.cli.app"]


def child_environ() -> dict[str, str]:
    """This environment less its NEMORI_* settings, but with the test run's model cache: the
    fast graph is built once per run, and never in the user's own cache dir."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NEMORI_")}
    if "NEMORI_CACHE_DIR" in os.environ:
        env["NEMORI_CACHE_DIR"] = os.environ["NEMORI_CACHE_DIR"]
    return env


def cli_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """A clean environment for a CLI process pointed at data_dir."""
    env = child_environ()
    env.update(
        NEMORI_DATA_DIR=str(data_dir),
        NEMORI_CONFIG=str(data_dir.parent / "no-config.toml"),
        ANONYMIZED_TELEMETRY="False",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def start(args: list[str], data_dir: Path, **extra: str) -> subprocess.Popen[str]:
    """Start `nemori ARGS` in the background."""
    return subprocess.Popen(
        [*nemori_cmd(), *args],
        env=cli_env(data_dir, **extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=str(REPO),
        preexec_fn=_default_sigint,
    )


def _default_sigint() -> None:
    # A shell's background job inherits SIGINT ignored, and Python keeps it so: undo that,
    # so Ctrl-C tests behave the same wherever the suite runs.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run(args: list[str], data_dir: Path, timeout: float = 300, **extra: str) -> Any:
    """Run `nemori ARGS` to completion; return the CompletedProcess."""
    return subprocess.run(
        [*nemori_cmd(), *args],
        env=cli_env(data_dir, **extra),
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=str(REPO),
    )


def jsonl_lines(path: Path) -> list[dict[str, Any]]:
    """Every record line of a JSONL file (failing the test on a line that does not parse)."""
    if not path.exists():
        return []
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def content_snapshot(data_dir: Path, user: str = "me") -> dict[str, Any]:
    """The store by content, leaving out creation times: what two equal runs must share."""
    folder = data_dir / "users" / user
    episodes = {
        e["id"]: (
            e["conversation_id"],
            e["title"],
            e["content"],
            tuple(e["message_ids"]),
            e["extraction"].get("status"),
        )
        for e in jsonl_lines(folder / "episodes.jsonl")
    }
    facts = {
        f["id"]: (
            f["content"],
            f["category"],
            tuple(sorted(f["source_episode_ids"])),
            tuple(sorted(f["source_message_ids"])),
            f["superseded_by"],
        )
        for f in jsonl_lines(folder / "facts.jsonl")
    }
    return {"episodes": episodes, "facts": facts}


def duplicate_ids(data_dir: Path, user: str = "me") -> dict[str, list[str]]:
    """Ids stored on more than one line, per file."""
    out = {}
    for name in ("episodes", "facts"):
        ids = [r["id"] for r in jsonl_lines(data_dir / "users" / user / f"{name}.jsonl")]
        out[name] = sorted({i for i in ids if ids.count(i) > 1})
    return out


def index_ids(data_dir: Path, user: str = "me") -> dict[str, dict[str, set[str]]]:
    """Record ids per kind in the JSONL, in Chroma and in bm25s (read without repairing)."""
    from nemori_cli.memory import Memory

    memory = Memory.open(data_dir=data_dir, user=user)
    repo = memory.parts.repo(user)
    tables = {"episode": repo.episodes.all(), "fact": repo.facts.all()}
    out: dict[str, dict[str, set[str]]] = {}
    for kind, table in tables.items():
        lexical = memory.parts.lexical(kind, user).doc_ids()  # type: ignore[arg-type]
        assert len(lexical) == len(set(lexical)), f"duplicate bm25 doc ids for {kind}"
        out[kind] = {
            "jsonl": set(table),
            "chroma": memory.parts.vectors(user).record_ids(kind),
            "bm25": set(lexical),
        }
    return out
