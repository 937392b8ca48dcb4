"""Episode boundaries: time gaps, topic shifts between message windows, a maximum length."""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from nemori_cli.models import Message
from nemori_cli.pipeline.rewrite import word_set

if TYPE_CHECKING:
    import numpy as np

MIN_MESSAGES = 4  # no topic or length cut leaves an episode shorter than this
WINDOW = 3  # messages averaged on each side of a candidate topic boundary
EMBED_CHARS = 200  # what of a message is embedded for the topic signal: its opening, cheaply

Span = tuple[int, int]  # half-open [start, end) message indexes


def embed_text(message: Message) -> str:
    """The text of a message that stands for it in the topic signal."""
    return " ".join(message.content.split())[:EMBED_CHARS]


_TOKEN = re.compile(r"[a-z][a-z0-9]{2,}")
_STOP = word_set(
    "the and for are but not you your all any can had her was one our out has have him his how "
    "its let may new now old see way who did get got use she they them then than that this "
    "with from what when where which while will would could should there their about just "
    "like really very some more been were into also only over such even most much well yes "
    "yeah okay sure thanks thank great good nice cool awesome amazing love know think going "
    "want make sounds glad happy"
)


# Tf-idf cosines are sparser than embedding cosines, so their dips are smaller: on LoCoMo the
# 90th/95th percentiles of dips inside sessions are 0.12/0.15 lexical vs 0.19/0.26 embedded.
LEXICAL_DEPTH_SCALE = 1.6
LEXICAL_DIMS = 1024


def lexical_vectors(messages: Sequence[Message], dims: int = LEXICAL_DIMS) -> np.ndarray:
    """Tf-idf rows over the conversation's own words (crudely stemmed): a free topic signal.

    Words are hashed into a fixed number of columns, so a long chat stays small in memory.
    """
    import numpy as np

    bags = [
        Counter(w[:6] for w in _TOKEN.findall(m.content.lower()) if w not in _STOP)
        for m in messages
    ]
    df = Counter(w for bag in bags for w in bag)
    column = {w: zlib.crc32(w.encode()) % dims for w in df}
    out = np.zeros((len(messages), dims), dtype=np.float32)
    for row, bag in enumerate(bags):
        for w, count in bag.items():
            out[row, column[w]] += count * math.log(1 + len(messages) / df[w])
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.maximum(norms, 1e-9)


def gap_spans(messages: Sequence[Message], gap_minutes: float) -> list[Span]:
    """Split at every pause longer than gap_minutes between two dated messages."""
    spans, start = [], 0
    for i in range(1, len(messages)):
        before, after = messages[i - 1].timestamp, messages[i].timestamp
        if before and after and (after - before).total_seconds() > gap_minutes * 60:
            spans.append((start, i))
            start = i
    if messages:
        spans.append((start, len(messages)))
    return spans


def window_similarities(vectors: np.ndarray, window: int = WINDOW) -> list[float]:
    """Cosine between the mean vectors of the windows before and after each gap (index i-1)."""
    import numpy as np

    sims = []
    for i in range(1, len(vectors)):
        left = vectors[max(0, i - window) : i].sum(axis=0)
        right = vectors[i : i + window].sum(axis=0)
        norm = float(np.linalg.norm(left) * np.linalg.norm(right))
        sims.append(float(left @ right) / norm if norm else 1.0)
    return sims


def depth_scores(sims: Sequence[float]) -> list[float]:
    """Score each gap by how far its similarity dips below the peaks on either side (mean)."""
    depths = []
    for i, s in enumerate(sims):
        left = right = s
        for j in range(i - 1, -1, -1):
            if sims[j] < left:
                break
            left = sims[j]
        for j in range(i + 1, len(sims)):
            if sims[j] < right:
                break
            right = sims[j]
        depths.append(((left - s) + (right - s)) / 2)
    return depths


def topic_cuts(depths: Sequence[float], threshold: float, min_len: int) -> list[int]:
    """Pick cut positions, deepest first, where the dip passes threshold and no piece is short."""
    n = len(depths) + 1
    cuts: list[int] = []
    for gap in sorted(range(len(depths)), key=lambda g: -depths[g]):
        if depths[gap] < threshold:
            break
        pos = gap + 1
        edges = sorted([0, n, *cuts])
        k = next(j for j, e in enumerate(edges) if e > pos)
        if pos - edges[k - 1] >= min_len and edges[k] - pos >= min_len:
            cuts.append(pos)
    return sorted(cuts)


def length_cuts(
    length: int, depths: Sequence[float] | None, max_len: int, min_len: int
) -> list[int]:
    """Cut a piece longer than max_len where the topic dips most, without adding extra pieces."""
    if length <= max_len:
        return []
    pieces = math.ceil(length / max_len)
    if depths is None:
        size = length / pieces
        return [round(size * k) for k in range(1, pieces)]
    candidates = [
        pos
        for pos in range(max(1, min_len), length - max(1, min_len) + 1)
        if math.ceil(pos / max_len) + math.ceil((length - pos) / max_len) == pieces
    ] or [length // 2]
    pos = max(candidates, key=lambda p: (depths[p - 1], -abs(length - 2 * p)))
    left = length_cuts(pos, depths[: pos - 1], max_len, min_len)
    right = length_cuts(length - pos, depths[pos:], max_len, min_len)
    return [*left, pos, *(pos + c for c in right)]


def segment_spans(
    messages: Sequence[Message],
    vectors: np.ndarray | None,
    *,
    gap_minutes: float,
    max_messages: int,
    shift_threshold: float,
    min_messages: int = MIN_MESSAGES,
    window: int = WINDOW,
    depth_scale: float = 1.0,
) -> list[Span]:
    """Split messages into contiguous spans covering each exactly once, in order."""
    max_messages = max(1, max_messages)
    min_messages = max(1, min(min_messages, max_messages // 2))
    spans: list[Span] = []
    for start, end in gap_spans(messages, gap_minutes):
        depths = None
        if vectors is not None and end - start > 1:
            sims = window_similarities(vectors[start:end], window)
            depths = [d * depth_scale for d in depth_scores(sims)]
        cuts = topic_cuts(depths, shift_threshold, min_messages) if depths else []
        edges = [0, *cuts, end - start]
        for a, b in _pairs(edges):
            sub = depths[a : b - 1] if depths is not None else None
            inner = [0, *length_cuts(b - a, sub, max_messages, min_messages), b - a]
            spans += [(start + a + x, start + a + y) for x, y in _pairs(inner)]
    return spans


def _pairs(edges: Sequence[int]) -> list[Span]:
    return list(zip(edges, edges[1:], strict=False))


def needs_vectors(messages: Sequence[Message], gap_minutes: float, max_messages: int) -> bool:
    """Whether any time block is long enough for a topic or length cut to need embeddings."""
    limit = min(2 * MIN_MESSAGES, max_messages + 1)
    return any(b - a >= limit for a, b in gap_spans(messages, gap_minutes))
