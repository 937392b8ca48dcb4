"""A forked helper that embeds a cold command's query with the local model, beside the command.

A cold `nemori search` spends most of its wall time on two chains that share one GIL: its own
imports and index loads, and the model's (numpy, onnxruntime and the tokenizer import under
the GIL before the session loads). Forked at the first millisecond, before any thread exists,
the helper imports the model's modules on the other core while the command imports its own;
the command then sends it the query and reads back the vector, made by the same code on the
same graph file. The helper only uses a fast graph already built and trusted: anything else
(no graph yet, an error, a platform without fork) and the command embeds in-process, as
without it. It ends when the command closes its pipe, or after one batch.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    import numpy as np

    Job = Callable[[dict[str, Any]], "np.ndarray | None"]

# a query takes the helper ~0.3 s; one that has not answered in this long is stuck
ANSWER_SECONDS = 20.0
MADE, FAILED = b"+", b"-"  # the first byte of the helper's answer: vectors follow, or none


class Answer:
    """The vectors of a batch sent to the helper; made in-process when the helper cannot."""

    def __init__(self, worker: QueryWorker, count: int, dim: int, fallback: Callable[[], Any]):
        self.worker, self.count, self.dim, self.fallback = worker, count, dim, fallback
        self.vectors: Any = None

    def result(self) -> np.ndarray:
        """The batch's vectors (waits for the helper)."""
        if self.vectors is None:
            got = self.worker.receive(self.count, self.dim)
            self.vectors = self.fallback() if got is None else got
        return self.vectors


class QueryWorker:
    """The command's side of a forked helper: send it one batch, read its vectors."""

    def __init__(self, pid: int, requests: int, answers: int) -> None:
        self.pid = pid
        self.requests = requests  # the pipe the command writes to
        self.answers = answers  # the pipe the command reads from
        self.used = False

    def submit(
        self, spec: dict[str, Any], count: int, dim: int, fallback: Callable[[], Any]
    ) -> Answer | None:
        """Send the helper its one batch (spec holds the texts); None when it cannot take it."""
        if self.used:
            return None
        self.used = True
        try:
            os.write(self.requests, orjson.dumps(spec) + b"\n")
        except OSError:  # it has gone
            self.close()
            return None
        self.close_requests()
        return Answer(self, count, dim, fallback)

    def receive(self, count: int, dim: int) -> np.ndarray | None:
        """The vectors of the batch sent, or None when the helper could not make them."""
        import numpy as np

        want = 1 + count * dim * 4
        chunks, got = [], 0
        deadline = time.monotonic() + ANSWER_SECONDS
        try:
            while got < want:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.answers], [], [], left)[0]:
                    with contextlib.suppress(OSError):  # stuck: the command embeds itself
                        os.kill(self.pid, signal.SIGKILL)
                    return None
                chunk = os.read(self.answers, want - got)
                if not chunk:
                    return None
                chunks.append(chunk)
                got += len(chunk)
        except OSError:
            return None
        finally:
            self.close()
        data = b"".join(chunks)
        if data[:1] != MADE:
            return None
        return np.frombuffer(data[1:], dtype=np.float32).reshape(count, dim).copy()

    def close_requests(self) -> None:
        """Close the pipe to the helper (it reads the end of its input)."""
        if self.requests >= 0:  # once: the number may be another file's afterwards
            with contextlib.suppress(OSError):
                os.close(self.requests)
            self.requests = -1

    def close(self) -> None:
        """Close the command's ends of the pipes and reap the helper if it has ended."""
        self.close_requests()
        if self.answers >= 0:
            with contextlib.suppress(OSError):
                os.close(self.answers)
            self.answers = -1
        with contextlib.suppress(OSError):
            os.waitpid(self.pid, os.WNOHANG)


STARTED: list[QueryWorker] = []  # the helper of this process, once started


def start(job: Job) -> QueryWorker | None:
    """Fork the helper that answers one batch with job (Linux, before any thread is started)."""
    if not sys.platform.startswith("linux") or STARTED:
        return None
    try:
        requests_r, requests_w = os.pipe()
        answers_r, answers_w = os.pipe()
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:  # the helper: whatever happens, it leaves without running the command's exits
        code = 0
        try:
            os.close(requests_w)
            os.close(answers_r)
            serve(requests_r, answers_w, job)
        except BaseException:  # noqa: BLE001 (the command embeds itself on any failure)
            code = 1
        finally:
            os._exit(code)
    os.close(requests_r)
    os.close(answers_w)
    worker = QueryWorker(pid, requests_w, answers_r)
    STARTED.append(worker)
    return worker


def serve(requests: int, answers: int, job: Job) -> None:
    """The helper's life: import the model's modules, wait for one batch, answer it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends it quietly, with the command
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # it never reads the command's input nor writes to its output
        os.dup2(devnull, fd)
    import numpy as np
    import onnxruntime  # noqa: F401
    import tokenizers  # noqa: F401

    with os.fdopen(requests, "rb") as incoming:
        line = incoming.readline()
    if not line:  # the command needed no vector
        return
    vectors = job(orjson.loads(line))
    answer = FAILED if vectors is None else MADE + np.asarray(vectors, np.float32).tobytes()
    with contextlib.suppress(OSError), os.fdopen(answers, "wb") as out:
        out.write(answer)
