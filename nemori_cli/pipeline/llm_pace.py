"""How hard to press a model server: requests in flight (AIMD), timeouts from measured speed,
and a circuit breaker that stops calling a model that keeps failing."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass

# A generated token costs about as much time as this many prompt tokens (llama.cpp on 2 cores:
# ~290 prompt tokens/s against ~23 generated tokens/s; hosted models are in the same ratio).
PROMPT_TOKENS_PER_UNIT = 12
GROW_AFTER = 3  # successes at the current limit before one more request may be in flight
FLAT = 1.3  # latency per unit of work within this factor of that at 1 in flight: flat
SLOWER = 1.5  # above this factor: the server queues our requests; halve the limit
TIMEOUT_FACTOR = 3.0  # the timeout, as a multiple of the time an answer is expected to take
TIMEOUT_SLACK = 10.0  # seconds added to every measured timeout


def work_units(prompt_tokens: int, completion_tokens: int) -> float:
    """The work of one request, in generated-token equivalents."""
    return max(1.0, completion_tokens + prompt_tokens / PROMPT_TOKENS_PER_UNIT)


class Pace:
    """Allow `limit` requests in flight, grown while latency stays flat and halved when it
    grows or the server times out or refuses; size timeouts to the speed measured.

    A one-request-at-a-time server (llama.cpp, Ollama by default) queues a second request, so
    its latency doubles at 2 in flight and the limit falls back to 1; a server that batches
    (vLLM, a hosted API) answers as fast with more in flight, so the limit grows to `ceiling`.
    """

    def __init__(self, ceiling: int, *, start: int, first_timeout: float) -> None:
        self.ceiling = max(1, ceiling)
        self.limit = max(1, min(start, self.ceiling))
        self.first_timeout = first_timeout
        self.in_flight = 0
        self.peak = 0  # the most requests ever in flight at once
        self.seconds_per_unit: float | None = None  # typical at 1 in flight (or at the start)
        self._solo: list[float] = []  # seconds per unit of the answers alone in flight
        self._at_limit: list[float] = []  # seconds per unit of the successes at this limit
        self._grow_after = GROW_AFTER
        self._cond = threading.Condition()

    @contextlib.contextmanager
    def slot(self) -> Iterator[int]:
        """Wait for a free slot, hold it during one request; yield how many are in flight."""
        with self._cond:
            while self.in_flight >= self.limit:
                self._cond.wait(0.5)
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            flight = self.in_flight
        try:
            yield flight
        finally:
            with self._cond:
                self.in_flight -= 1
                self._cond.notify_all()

    def timeout(self, prompt_tokens: int, max_tokens: int | None) -> float:
        """How long to wait for an answer: from the measured speed once known, else the
        configured first timeout. The answer cannot be longer than max_tokens."""
        with self._cond:
            rate, limit = self.seconds_per_unit, self.limit
        if rate is None or not max_tokens:
            return self.first_timeout
        expected = work_units(prompt_tokens, max_tokens) * rate * limit
        return round(TIMEOUT_FACTOR * expected + TIMEOUT_SLACK, 1)

    def succeeded(self, seconds: float, prompt_tokens: int, completion_tokens: int,
                  flight: int) -> None:
        """Record an answer's latency; grow the limit if latency stayed flat."""
        per_unit = seconds / work_units(prompt_tokens, completion_tokens)
        with self._cond:
            if self.limit == 1 and flight == 1:  # alone: the server's own speed
                self._solo = [*self._solo[-8:], per_unit]
                self.seconds_per_unit = median(self._solo)
            elif self.seconds_per_unit is None:
                self.seconds_per_unit = per_unit
            best = self.seconds_per_unit
            if flight < self.limit:
                return  # measured below the limit: says nothing about the limit
            self._at_limit.append(per_unit)
            recent = median(self._at_limit[-GROW_AFTER:])
            if self.limit > 1 and len(self._at_limit) >= 2 and recent > SLOWER * best:
                self._shrink()
            elif (len(self._at_limit) >= self._grow_after and recent <= FLAT * best
                  and self.limit < self.ceiling):
                self.limit += 1
                self._at_limit = []
                self._cond.notify_all()

    def congested(self) -> None:
        """A timeout, a rate limit or an overloaded server: halve the requests in flight."""
        with self._cond:
            self._shrink()

    def _shrink(self) -> None:
        if self.limit > 1:
            self.limit = max(1, self.limit // 2)
        self._at_limit = []
        self._grow_after = min(self._grow_after * 2, 64)  # probe again, but less often


def median(values: list[float]) -> float:
    """The middle value (the upper one of an even count)."""
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


@dataclass
class Breaker:
    """Stop calling a model whose answers keep failing: `in_a_row` failures in a row, or more
    than half of the first `first` answers."""

    in_a_row: int = 5
    first: int = 8
    failures: int = 0
    outcomes: int = 0
    streak: int = 0
    reason: str | None = None  # set once open: why the model is no longer called

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    @property
    def open(self) -> bool:
        """Whether the model is no longer called."""
        return self.reason is not None

    def record(self, ok: bool, error: str = "") -> None:
        """Count one answer (after its retries): valid or not."""
        with self._lock:
            if self.reason is not None:
                return
            self.outcomes += 1
            if ok:
                self.streak = 0
                return
            self.failures += 1
            self.streak += 1
            if self.streak >= self.in_a_row:
                self.reason = f"{self.streak} failed answers in a row (last: {error})"
            elif self.outcomes == self.first and self.failures * 2 > self.first:
                self.reason = (f"{self.failures} of the first {self.first} answers failed "
                               f"(last: {error})")
