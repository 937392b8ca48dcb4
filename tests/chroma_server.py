"""A real Chroma server for tests: `chroma run` on 127.0.0.1 and a free port, torn down after.

Use it with `from chroma_server import chroma_server_url  # noqa: F401` in a test module; the
fixture is named `chroma_url`.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

START_TIMEOUT = 60.0  # seconds to wait for the heartbeat
# The `chroma` console script of the running interpreter, whichever venv that is.
CHROMA_CLI = "import sys; from chromadb.cli.cli import app; sys.argv[0] = 'chroma'; sys.exit(app())"


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _alive(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=2) as resp:
            return resp.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _tail(log: Path, lines: int = 5) -> str:
    try:
        text = log.read_text(errors="replace").strip().splitlines()
    except OSError:
        return "(no log)"
    return " | ".join(x.strip() for x in text[-lines:]) or "(empty log)"


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def start_chroma(folder: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """Start `chroma run` persisting under folder; return its URL and process, or skip."""
    try:
        import chromadb.cli.cli  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"the chroma CLI is not importable here: {exc}")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = folder / "chroma-server.log"
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    cmd = [sys.executable, "-c", CHROMA_CLI, "run", "--path", str(folder / "db"),
           "--host", "127.0.0.1", "--port", str(port)]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.skip(f"chroma run exited with {proc.returncode}: {_tail(log)}")
        if _alive(url):
            return url, proc
        time.sleep(0.2)
    _stop(proc)
    pytest.skip(f"chroma run did not answer {url}/api/v2/heartbeat in {START_TIMEOUT:g}s: "
                f"{_tail(log)}")


@pytest.fixture(scope="module", name="chroma_url")
def chroma_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a Chroma server that lives for the test module."""
    url, proc = start_chroma(tmp_path_factory.mktemp("chroma-server"))
    try:
        yield url
    finally:
        _stop(proc)
