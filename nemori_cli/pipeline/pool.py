"""A bounded worker pool that hands results back as they finish and stops promptly on Ctrl-C."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

_STOP = object()
POLL_SECONDS = 0.1


def run_pool(
    items: Iterable[T],
    fn: Callable[[T], R],
    workers: int,
    on_done: Callable[[R], Any],
) -> int:
    """Run fn over items on `workers` threads; call on_done(result) in this thread as each ends.

    At most 2 x workers items are taken from `items` ahead of the results, so a generator is
    consumed lazily. If fn raises, or on KeyboardInterrupt, items not yet started are dropped
    and the exception is raised here at once; calls already running are abandoned (the
    threads are daemons, so the process can exit without waiting for a slow LLM answer).
    Return the number of results delivered.
    """
    if workers <= 1:
        count = 0
        for item in items:
            on_done(fn(item))
            count += 1
        return count
    tasks: queue.Queue[Any] = queue.Queue()
    results: queue.Queue[tuple[bool, Any]] = queue.Queue()
    stop = threading.Event()

    def worker() -> None:
        while True:
            item = tasks.get()
            if item is _STOP or stop.is_set():
                return
            try:
                results.put((True, fn(item)))
            except BaseException as exc:  # handed to the caller's thread
                results.put((False, exc))

    threads = [threading.Thread(target=worker, name=f"nemori-worker-{i}", daemon=True)
               for i in range(workers)]
    for t in threads:
        t.start()
    source = iter(items)
    in_flight, delivered, exhausted = 0, 0, False
    try:
        while True:
            while not exhausted and in_flight < 2 * workers:
                try:
                    tasks.put(next(source))
                    in_flight += 1
                except StopIteration:
                    exhausted = True
            if in_flight == 0:
                return delivered
            try:
                ok, value = results.get(timeout=POLL_SECONDS)
            except queue.Empty:
                continue
            in_flight -= 1
            if not ok:
                raise value
            on_done(value)
            delivered += 1
    finally:
        stop.set()
        _drain(tasks)
        for _ in threads:
            tasks.put(_STOP)


def _drain(q: queue.Queue[Any]) -> None:
    while True:
        try:
            q.get_nowait()
        except queue.Empty:
            return
