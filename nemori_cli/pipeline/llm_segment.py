"""Turn a model's episode grouping into spans that cover every message exactly once."""

from __future__ import annotations

from collections.abc import Callable, Sequence

Span = tuple[int, int]  # half-open [start, end) message indexes

WINDOW = 50  # messages shown to the model per segmentation call


def valid_numbers(groups: Sequence[Sequence[int]], n: int, base: int = 1) -> int:
    """Count the distinct message numbers in the answer that name a real message."""
    return len({k for g in groups for k in g if base <= k < n + base})


def repair_groups(groups: Sequence[Sequence[int]], n: int, base: int = 1) -> list[Span]:
    """Make contiguous spans covering messages 0..n-1 once from the model's groups.

    Groups hold message numbers counted from `base`. Numbers out of range are ignored; a message
    claimed twice stays with the first group that claimed it; a message no group claimed joins
    the episode before it (or after it, at the start); a group whose messages are not
    contiguous becomes one span per run. Nothing is dropped.
    """
    if n <= 0:
        return []
    labels: list[int | None] = [None] * n
    for g, group in enumerate(groups):
        for number in group:
            i = number - base
            if 0 <= i < n and labels[i] is None:
                labels[i] = g
    first = next((label for label in labels if label is not None), 0)
    previous = first
    for i, label in enumerate(labels):
        if label is None:
            labels[i] = previous
        else:
            previous = label
    spans, start = [], 0
    for i in range(1, n):
        if labels[i] != labels[i - 1]:
            spans.append((start, i))
            start = i
    spans.append((start, n))
    return spans


def segment_windows(
    n: int,
    ask: Callable[[int, int], list[Span]],
    fallback: Callable[[int], list[Span]],
    window: int = WINDOW,
) -> list[Span]:
    """Segment n messages window by window; on failure, segment the rest with the fallback.

    ask(start, end) returns spans (relative to start) covering messages start..end-1. The last
    episode of a window may continue past it, so unless it is long it is asked again as the
    start of the next window. fallback(start) returns absolute spans for messages start..n-1.
    """
    spans: list[Span] = []
    start = 0
    window = max(2, window)
    while start < n:
        end = min(n, start + window)
        try:
            local = ask(start, end)
        except Exception:
            local = []
        if not local or local[-1][1] != end - start:
            return spans + fallback(start)
        if end < n and len(local) > 1 and local[-1][1] - local[-1][0] < window // 2:
            local = local[:-1]
        spans += [(start + a, start + b) for a, b in local]
        start += local[-1][1]
    return spans


def spans_of(lengths: Sequence[int], offset: int = 0) -> list[Span]:
    """Turn consecutive segment lengths into spans starting at offset."""
    spans, start = [], offset
    for length in lengths:
        if length > 0:
            spans.append((start, start + length))
            start += length
    return spans
