"""Attribute ingest wall time to stages (parse, segment, embed, facts, index, write).

Wraps the functions each stage runs with timers that count exclusive time: when one timed
function calls another (facts -> embed), the inner time goes to the inner stage only.
For benchmarks: install() patches classes in place for the rest of the process.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from typing import Any

STAGES = ("parse", "segment", "embed", "facts", "index", "write")


class StageClock:
    """Exclusive wall time per stage."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = dict.fromkeys(STAGES, 0.0)
        self._stack: list[tuple[str, float]] = []  # (stage, start of its current slice)

    def _enter(self, stage: str) -> None:
        now = time.perf_counter()
        if self._stack:
            outer, since = self._stack[-1]
            self.totals[outer] += now - since
        self._stack.append((stage, now))

    def _leave(self) -> None:
        now = time.perf_counter()
        stage, since = self._stack.pop()
        self.totals[stage] += now - since
        if self._stack:
            outer, _ = self._stack[-1]
            self._stack[-1] = (outer, now)

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._enter(stage)
            try:
                return fn(*args, **kwargs)
            finally:
                self._leave()

        return timed

    def wrap_iter(self, stage: str, fn: Callable[..., Iterator[Any]]) -> Callable[..., Any]:
        """Time each step of the iterator fn returns (the parse of each conversation)."""

        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Iterator[Any]:
            it = iter(fn(*args, **kwargs))
            while True:
                self._enter(stage)
                try:
                    item = next(it)
                except StopIteration:
                    return
                finally:
                    self._leave()
                yield item

        return timed


def _patch(clock: StageClock, owner: Any, name: str, stage: str, *, iterator: bool = False) -> None:
    original = getattr(owner, name)
    wrapped = clock.wrap_iter(stage, original) if iterator else clock.wrap(stage, original)
    setattr(owner, name, wrapped)


def install() -> StageClock:
    """Patch the ingest code path's stage functions; return the clock they report to."""
    import nemori_cli.ops.ingest as ingest
    from nemori_cli.embed import LocalEmbedder
    from nemori_cli.importers.source import Source
    from nemori_cli.ops.ingest import IngestRun
    from nemori_cli.pipeline.offline import OfflineExtractor
    from nemori_cli.store.chroma import ChromaVectorIndex
    from nemori_cli.store.jsonl import JsonlFile
    from nemori_cli.store.lexical import LexicalIndex
    from nemori_cli.store.repository import RecordTable, Repository

    clock = StageClock()
    _patch(clock, ingest, "open_source", "parse")
    _patch(clock, Source, "conversations", "parse", iterator=True)
    _patch(clock, OfflineExtractor, "segment", "segment")
    _patch(clock, OfflineExtractor, "episode", "segment")
    _patch(clock, LocalEmbedder, "embed", "embed")
    _patch(clock, OfflineExtractor, "extract", "facts")
    _patch(clock, IngestRun, "related_facts", "facts")
    _patch(clock, ingest, "fold_duplicates", "facts")
    _patch(clock, ingest, "episode_docs", "index")
    _patch(clock, ChromaVectorIndex, "upsert", "index")
    _patch(clock, ChromaVectorIndex, "delete", "index")
    _patch(clock, LexicalIndex, "rebuild", "index")
    for name in ("append", "upsert", "rewrite", "delete_ids", "read"):
        _patch(clock, JsonlFile, name, "write")
    _patch(clock, RecordTable, "all", "write")
    _patch(clock, Repository, "ingested", "write")
    return clock
