"""Turn a model's episode starts into spans that cover every message exactly once."""

from __future__ import annotations

from collections.abc import Callable, Sequence

Span = tuple[int, int]  # half-open [start, end) message indexes

WINDOW = 50  # messages shown to the model per segmentation call


def spans_from_starts(starts: Sequence[int], n: int, base: int = 1) -> list[Span]:
    """Make contiguous spans covering messages 0..n-1 once from the episodes' first messages.

    Starts are message numbers counted from `base`. Numbers out of range and repeats are
    ignored, the order is the messages', and the first message always starts an episode, so
    nothing is dropped. Empty when no number names a message: the answer said nothing.
    """
    firsts = {k - base for k in starts if base <= k < n + base}
    if not firsts:
        return []
    edges = sorted(firsts | {0})
    return [(a, b) for a, b in zip(edges, [*edges[1:], n], strict=True)]


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
