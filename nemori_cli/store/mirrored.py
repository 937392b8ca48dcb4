"""The embedded vector index: Chroma, plus a flat copy that one-shot readers search instead.

Every write goes to Chroma and then to the flat copy (store/flat.py), under the user's write
lock. A process that has written nothing (a `nemori search`, the MCP server between ingests)
searches the copy exactly, without importing chromadb, at any size one person's archive reaches
(FLAT_MAX_ROWS); it loads through a snapshot of the copy's log (store/flat_view.py).
A reader that keeps searching a big kind (FLAT_EXACT_ROWS) loads Chroma's HNSW index for it on a
thread of its own from its second query, and moves to it once it is ready; until then the copy
answers, exactly, so no query waits the seconds that loading takes. A filtered query (a time
range, a category) stays on the copy, which reads only the rows that pass.
A crash between the two writes leaves a dirty marker, and the repair rebuilds the copy.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nemori_cli.errors import BrokenIndex, StoreError
from nemori_cli.models import KINDS
from nemori_cli.store.flat import FlatVectors, Header, is_record_id
from nemori_cli.store.flat_view import SnapView, load_view
from nemori_cli.store.where import can_match, chroma_where

if TYPE_CHECKING:
    import numpy as np

    from nemori_cli.embed import Embedder
    from nemori_cli.store.chroma import ChromaVectorIndex

# Exact search multiplies every row, memory-bound: 300k rows x 384 floats (460 MB) take ~25 ms
# here; 2M rows would take 3 GB of page cache, past which Chroma's HNSW index answers instead.
FLAT_MAX_ROWS = 2_000_000
# Exact search reads every row per query: past this many, a process that keeps searching
# loads Chroma's HNSW index from its second query (a one-shot `nemori search` never does).
FLAT_EXACT_ROWS = 60_000


class MirroredVectorIndex:
    """A VectorIndex on embedded Chroma whose reads use the flat copy while it is current."""

    def __init__(
        self,
        flat: FlatVectors,
        open_chroma: Callable[[], ChromaVectorIndex],
        embedder: Embedder,
        *,
        chroma_dir: Path | None = None,
        on_broken: Callable[[str], None] | None = None,
    ) -> None:
        self.flat = flat
        self.chroma_dir = chroma_dir
        self._on_broken = on_broken
        self._broken: set[str] = set()  # kinds whose copy was found damaged in this process
        self._open_chroma = open_chroma
        self._chroma: ChromaVectorIndex | None = None
        self._model = (embedder.model_id, int(embedder.dim))
        self._wrote = False
        self._views: dict[str, tuple[tuple[int, int], SnapView | None]] = {}
        self._heads: dict[str, Header] = {}
        self._searched: dict[str, int] = {}  # unfiltered queries per kind in this process
        self._opening = threading.Lock()  # Chroma is opened once, by whichever thread is first
        self._hnsw: dict[str, threading.Thread] = {}  # big kinds whose HNSW index is loading
        self._hnsw_ready: set[str] = set()

    @property
    def chroma(self) -> ChromaVectorIndex:
        with self._opening:
            if self._chroma is None:
                self._chroma = self._open_chroma()
            return self._chroma

    def _load_hnsw(self, kind: str, embedding: np.ndarray) -> None:
        """Open Chroma and load the kind's HNSW index on a thread (once); ready when done."""
        if kind in self._hnsw:
            return

        def load() -> None:
            try:
                self.chroma.query(kind, embedding, 1)  # loads the index into memory
            except Exception:  # chromadb's own errors (or a StoreError): the copy answers on
                return
            self._hnsw_ready.add(kind)

        self._hnsw[kind] = thread = threading.Thread(target=load, name=f"nemori-hnsw-{kind}")
        thread.start()

    def wait_for_hnsw(self) -> None:
        """Wait for the HNSW indexes that are loading in the background."""
        for thread in list(self._hnsw.values()):
            thread.join()

    @property
    def client(self) -> Any:
        return self.chroma.client

    # --- reads --------------------------------------------------------------------------

    def _view(self, kind: str) -> SnapView | None:
        """The copy to search, or None: after this process wrote, or when it is absent or big.

        Reloaded when another process has written since (a long-running MCP server sees new
        memories as a search run afterwards would).
        """
        if self._wrote or kind in self._broken:
            return None
        head = self.flat.header(kind)
        if head is None or (head.model, head.dim) != self._model:
            if (self.flat.folder / f"{kind}.json").exists() and head is None:
                self._broke(kind, "its header cannot be read")
            return None
        stamp = (head.gen, self.flat.log_size(kind, head))
        cached = self._views.get(kind)
        if cached is None or cached[0] != stamp:
            fits = self.flat.rows(kind, head) <= FLAT_MAX_ROWS
            cached = (stamp, load_view(self.flat, kind, head) if fits else None)
            self._views[kind] = cached
            if fits and cached[1] is None:
                self._broke(kind, "its files disagree")
        return cached[1]

    def _broke(self, kind: str, why: str) -> None:
        """Stop using a damaged copy of one kind, and say so (once) to whoever listens."""
        if kind in self._broken:
            return
        self._broken.add(kind)
        if self._on_broken is not None:
            self._on_broken(
                f"the flat copy of the {kind} vectors is damaged ({why}): searching Chroma "
                "instead; `nemori doctor --repair` (or the next ingest) rebuilds it"
            )

    def query(
        self, kind: str, embedding: np.ndarray, k: int, where: dict[str, Any] | None = None
    ) -> list[tuple[str, float]]:
        view = self._view(kind)
        clause = chroma_where(where)
        # a filtered query reads only the rows that pass (store/where.py passing), which
        # the copy answers faster than HNSW with a filter: only plain ones call for HNSW
        if clause is None:
            self._searched[kind] = done = self._searched.get(kind, 0) + 1
            if view is not None and done > 1 and len(view.matrix) > FLAT_EXACT_ROWS:
                if kind in self._hnsw_ready:  # a long-running reader of a big store
                    view = None
                else:
                    self._load_hnsw(kind, embedding)
        if view is not None and (clause is None or can_match(clause)):
            try:
                return view.query(embedding, k, clause)
            except BrokenIndex:
                self._broke(kind, "rows that are not finite unit vectors")
        return self._unpended(kind, [self.chroma.query(kind, embedding, k, where)])[0]

    def query_many(
        self, kind: str, embeddings: np.ndarray, k: int, where: dict[str, Any] | None = None
    ) -> list[list[tuple[str, float]]]:
        if self._view(kind) is None:
            return self._unpended(kind, self.chroma.query_many(kind, embeddings, k, where))
        return [self.query(kind, row, k, where) for row in embeddings]

    def _unpended(
        self, kind: str, results: list[list[tuple[str, float]]]
    ) -> list[list[tuple[str, float]]]:
        gone = self.flat.pending(kind)
        return [[h for h in hits if h[0] not in gone] for hits in results] if gone else results

    def embeddings(self, kind: str, doc_ids: Sequence[str]) -> dict[str, np.ndarray]:
        view = self._view(kind)  # searched first: a damaged copy is known by now
        return self.chroma.embeddings(kind, doc_ids) if view is None else view.embeddings(doc_ids)

    def record_ids(self, kind: str) -> set[str]:
        return self.chroma.record_ids(kind) - self.flat.pending(kind)

    def documents(self, kind: str) -> dict[str, tuple[str, dict[str, Any]]]:
        gone = self.flat.pending(kind)
        docs = self.chroma.documents(kind)
        return {d: v for d, v in docs.items() if str(v[1].get("record_id", d)) not in gone}

    def built_with(self, kind: str) -> tuple[str | None, int | None]:
        return self.chroma.built_with(kind)

    def count(self, kind: str) -> int:
        return len(self.documents(kind)) if self.flat.pending(kind) else self.chroma.count(kind)

    # --- writes (under the user's write lock) --------------------------------------------

    @property
    def _writable(self) -> ChromaVectorIndex:
        """Chroma for writing: first carry out the deletes that waited for it."""
        chroma = self.chroma
        for kd in KINDS:  # another process may have left some since this one last wrote
            gone = self.flat.pending(kd)
            if gone:
                chroma.delete(kd, gone)
                self.flat.clear_pending(kd)
        return chroma

    def _ready(self, kind: str) -> Header:
        """The kind's current generation; on a first write, every kind's copy is made current.

        Read again at every write (under the user's lock): another process may have begun a
        new generation since this one last wrote, and the old one's files are gone.
        """
        self._wrote = True
        if kind in self._heads:
            current = self.flat.header(kind)
            if current is not None and (current.model, current.dim) == self._model:
                self._heads[kind] = current
                return current
        for kd in KINDS:  # both, so that a reader never finds one kind without a copy
            head = self.flat.header(kd)
            if head is None or (head.model, head.dim) != self._model:
                self._writable.check_model(kd)  # copy nothing built by another embedder
                head = self._copy_from_chroma(kd)
            self._heads[kd] = head
        return self._heads[kind]

    def _copy_from_chroma(self, kind: str) -> Header:
        head = self.flat.start(kind, *self._model, self._writable.dump(kind))
        self._heads[kind] = head
        return head

    def upsert(
        self,
        kind: str,
        doc_ids: Sequence[str],
        embeddings: np.ndarray,
        documents: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
    ) -> None:
        head = self._ready(kind)
        self._writable.upsert(kind, doc_ids, embeddings, documents, metadatas)
        if len(doc_ids):
            self.flat.append(kind, head, doc_ids, embeddings, metadatas)

    def delete(self, kind: str, record_ids: Collection[str]) -> None:
        """Delete from the copy at once, and from Chroma now if it is open, else at its next write.

        `nemori facts delete` then needs no chromadb import (a second of a one-second command);
        every read through Chroma leaves the waiting records out meanwhile.
        """
        ids = list(dict.fromkeys(record_ids))
        head = self._ready(kind)
        if self._chroma is None:
            self.flat.add_pending(kind, ids)
        else:
            self._writable.delete(kind, ids)
        self.flat.delete(kind, head, ids)

    def settle(self) -> None:
        """Carry out the deletes that wait for Chroma now (doctor --repair)."""
        if any(self.flat.pending(kd) for kd in KINDS):
            self._wrote = True
            self._writable  # noqa: B018  (the property does it)

    def reset(self, kind: str) -> None:
        self._wrote = True
        self._writable.reset(kind)
        self._heads[kind] = self.flat.start(kind, *self._model)

    def drop(self) -> None:
        self._wrote = True
        self.chroma.drop()
        self.flat.drop()
        self._heads.clear()

    # --- the copy itself (doctor) --------------------------------------------------------

    def damaged(self) -> list[tuple[Path, str]]:
        """Derived files that cannot be read (Chroma's folder, the copy), and why."""
        found: list[tuple[Path, str]] = []
        try:
            self.chroma.probe()
        except BrokenIndex as exc:
            if self.chroma_dir is not None:
                found.append((self.chroma_dir, exc.reason))
        for kind in KINDS:
            why = self.copy_damage(kind)
            if why:
                found.append((self.flat.folder, f"{kind} copy: {why}"))
                break
        for kind in KINDS:
            bad = [ln for ln in self.flat.pending_lines(kind) if not is_record_id(ln)]
            if bad:
                found.append((self.flat.pending_file(kind), f"{len(bad)} line(s) are not ids"))
        return found

    def copy_damage(self, kind: str) -> str | None:
        """Why one kind's copy cannot be used (None when it reads as whole, or is absent)."""
        head = self.flat.header(kind)
        if head is None:
            exists = (self.flat.folder / f"{kind}.json").exists()
            return "its header cannot be read" if exists else None
        if (head.model, head.dim) != self._model:
            return None  # another embedder's: rebuilt, not damaged
        view = self.flat.view(kind, head)
        if view is None:
            return "its rows and log disagree, or the log is torn"
        bad = view.bad_rows()
        return f"{bad} row(s) are not finite unit vectors" if bad else None

    def sample_problem(self, kind: str, size: int = 64) -> str | None:
        """Rows of the copy that differ from Chroma's vectors, on an evenly spread sample."""
        import numpy as np

        head = self.flat.header(kind)
        view = self.flat.view(kind, head) if head is not None else None
        if view is None or not view.docs:
            return None
        ids = sorted(view.docs)
        sample = ids[:: max(1, len(ids) // size)][:size]
        try:
            theirs = self.chroma.embeddings(kind, sample)
        except StoreError:
            return None  # Chroma's own problem is reported on its own
        mine = view.embeddings(sample)
        differ = [
            d
            for d in sample
            if d in theirs
            and not np.allclose(np.asarray(theirs[d], np.float32), mine[d], rtol=0, atol=1e-5)
        ]
        if not differ:
            return None
        return f"{len(differ)} of {len(sample)} sampled row(s) differ from Chroma"

    def copy_problem(self, kind: str, chroma_doc_ids: Collection[str]) -> str | None:
        """How the flat copy differs from Chroma's documents, or None when it matches."""
        head = self.flat.header(kind)
        if head is None:
            return "missing" if chroma_doc_ids else None
        if (head.model, head.dim) != self._model:
            return f"built with {head.model} (dim {head.dim})"
        view = self.flat.view(kind, head)
        if view is None:
            return "unreadable"
        missing = set(chroma_doc_ids) - set(view.docs)
        extra = set(view.docs) - set(chroma_doc_ids)
        if missing or extra:
            return f"{len(missing)} document(s) missing, {len(extra)} extra"
        return None

    def rebuild_copy(self, kind: str) -> None:
        """Copy Chroma's documents of this kind into a fresh generation of the flat copy."""
        self._wrote = True
        self._copy_from_chroma(kind)
