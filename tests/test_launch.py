"""The `nemori` console script: the query helper process, and the quick exit of read commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from store_check import child_environ, cli_env

from nemori_cli.cli.launch import words_of
from nemori_cli.embed import LocalEmbedder

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork: Linux only")

HELPER_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from nemori_cli import embed, embed_worker

    worker = embed_worker.start(embed.helper_job)
    cache, texts = sys.argv[1], sys.argv[2:]
    print(worker.pid, flush=True)
    if texts:
        fallen = []
        answer = worker.submit(
            {"cache_dir": cache, "texts": texts}, len(texts), 384,
            lambda: fallen.append(1) or embed.LocalEmbedder(cache_dir=Path(cache)).embed(texts),
        )
        vectors = answer.result()
        print(json.dumps({"fallback": bool(fallen), "vectors": vectors.tolist()}))
    """
)


def run_helper(cache: Path, *texts: str) -> tuple[int, dict | None]:
    """Run HELPER_SCRIPT in a fresh process; return the helper's pid and what it printed."""
    done = subprocess.run(
        [sys.executable, "-c", HELPER_SCRIPT, str(cache), *texts],
        capture_output=True, text=True, env=child_environ(), timeout=120, check=True,
    )
    lines = done.stdout.splitlines()
    return int(lines[0]), json.loads(lines[1]) if len(lines) > 1 else None


def gone(pid: int, within: float = 10.0) -> bool:
    """Whether the process has ended (reaped by init once its parent has exited)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_the_helper_embeds_exactly_what_the_command_would(model_cache: Path) -> None:
    texts = ["hiking in the Alps every September", "what did I cook last week?"]
    local = LocalEmbedder(cache_dir=model_cache)
    expected = local.embed(texts)  # also builds the fast graph the helper needs
    pid, out = run_helper(model_cache, *texts)
    assert out is not None and out["fallback"] is False
    assert out["vectors"] == expected.tolist()  # the same graph, the same bytes
    assert gone(pid)


def test_without_a_built_graph_the_command_embeds_itself(tmp_path: Path) -> None:
    pid, out = run_helper(tmp_path / "empty-cache", "a query")
    assert out is not None and out["fallback"] is True  # the command built it, not the helper
    assert len(out["vectors"]) == 1 and len(out["vectors"][0]) == 384
    assert gone(pid)


def test_a_helper_never_asked_ends_with_the_command(model_cache: Path) -> None:
    pid, out = run_helper(model_cache)
    assert out is None
    assert gone(pid)


STUCK_SCRIPT = textwrap.dedent(
    """
    import time
    from nemori_cli import embed_worker

    embed_worker.ANSWER_SECONDS = 1.0
    worker = embed_worker.start(lambda spec: time.sleep(120))
    print(worker.pid, flush=True)
    answer = worker.submit({"texts": ["q"]}, 1, 4, lambda: "embedded in-process")
    print(answer.result(), flush=True)
    """
)


def test_a_stuck_helper_is_ended_and_the_command_embeds_itself() -> None:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", STUCK_SCRIPT],
        capture_output=True, text=True, env=child_environ(), timeout=60, check=True,
    )
    pid, result = done.stdout.splitlines()
    assert result == "embedded in-process"
    assert time.monotonic() - started < 30
    assert gone(int(pid))


def test_search_through_the_console_script_matches_in_process(sample_store: Path) -> None:
    """The installed `nemori` (helper, quick exit) prints what `main()` alone prints."""
    query = ["search", "what did we plan for the trip", "--json"]
    env = cli_env(sample_store)
    launched = subprocess.run(
        [sys.executable, "-m", "nemori_cli.cli.launch", *query],
        capture_output=True, text=True, env=env,
    )
    direct = subprocess.run(
        [sys.executable, "-m", "nemori_cli.cli.app", *query],
        capture_output=True, text=True, env=env,
    )
    assert launched.returncode == direct.returncode == 0, launched.stderr + direct.stderr
    hits = json.loads(launched.stdout)
    assert hits and hits == json.loads(direct.stdout)


@pytest.mark.parametrize("command", [["search", "trip", "--json"], ["facts", "list", "-n", "1"]])
def test_a_read_command_into_a_full_disk_says_so_in_one_line(
    sample_store: Path, command: list[str]
) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "nemori_cli.cli.launch", *command],
            stdout=full, stderr=subprocess.PIPE, text=True, env=cli_env(sample_store),
        )
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("error: ") and line.endswith("No space left on device")


def test_a_read_command_piped_into_head_ends_quietly(sample_store: Path) -> None:
    done = subprocess.run(
        f"{sys.executable} -m nemori_cli.cli.launch facts list | head -c 10",
        shell=True, capture_output=True, text=True, env=cli_env(sample_store),
    )
    assert done.returncode == 0 and len(done.stdout) == 10
    assert done.stderr == ""


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["search", "x"], ("search", None)),
        (["--user", "search", "search", "x"], ("search", None)),
        (["facts", "list", "--json"], ("facts", "list")),
        (["facts", "--data-dir", "d", "delete", "f1"], ("facts", "delete")),
        (["--version"], (None, None)),
        ([], (None, None)),
    ],
)
def test_words_of_finds_the_command_wherever_the_global_options_are(
    argv: list[str], words: tuple[str | None, str | None]
) -> None:
    assert words_of(argv) == words


def test_the_groups_launch_knows_are_the_apps() -> None:
    """launch.GROUPS is written out (the app's modules import Typer); it must not drift."""
    from nemori_cli.cli.app import build
    from nemori_cli.cli.launch import GROUPS

    groups = {g.name for g in build().registered_groups}
    assert set(GROUPS) == groups



@pytest.mark.parametrize(
    ("argv", "env", "local"),
    [
        (["search", "x"], None, True),
        (["search", "x", "--embed-model", "local"], None, True),
        (["--embed-model=local:all-MiniLM-L6-v2-int8", "search", "x"], None, True),
        (["search", "x", "--embed-model", "openai/text-embedding-3-small"], None, False),
        (["search", "x"], "ollama/nomic-embed-text", False),
        (["search", "x"], "local", True),
    ],
)
def test_the_helper_runs_whenever_the_local_model_embeds(
    argv: list[str], env: str | None, local: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from nemori_cli.cli.launch import local_embedder

    if env is None:
        monkeypatch.delenv("NEMORI_EMBED_MODEL", raising=False)
    else:
        monkeypatch.setenv("NEMORI_EMBED_MODEL", env)
    assert local_embedder(argv) is local
