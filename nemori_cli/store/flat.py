"""A flat, memory-mapped copy of a user's vectors, so a one-shot command can search without Chroma.

`import chromadb` and loading its HNSW index cost a cold `nemori search` about a second; exact
search over a memory-mapped float32 matrix costs milliseconds at personal-archive sizes. The copy
is written beside every Chroma write (see store/mirrored.py) and is derived like every index:
doctor checks it against Chroma and rebuilds it from there.

Per user and kind, under <data_dir>/flat/<user>/:
  <kind>.json        {"model", "dim", "gen"}: which generation is current, and what made it
  <kind>-<gen>.f32   vector rows, appended
  <kind>-<gen>.log   one JSON line per change, appended after its rows:
                     ["+", row, doc_id, metadata] or ["-", next_row, record_id]
  <kind>.pending     records deleted while Chroma was not open: Chroma drops them at its next
                     write, and reads through Chroma leave them out until then
Readers replay the log; a row is live while no later line replaces its doc or deletes its record.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from nemori_cli.errors import BrokenIndex
from nemori_cli.store.files import FILE_MODE, ensure_private_dir
from nemori_cli.store.where import passing

if TYPE_CHECKING:
    import numpy as np

NORM_TOLERANCE = 0.01  # every stored vector is L2-normalised (embed.py, indexing.py)
ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:@")


@dataclass(frozen=True)
class Header:
    """What made the current generation of one kind's copy."""

    model: str
    dim: int
    gen: int


class FlatView:
    """One kind's live vectors as read at one moment: exact cosine search over them."""

    def __init__(self, matrix: np.ndarray, docs: dict[str, int], metas: dict[int, Any]) -> None:
        import numpy as np

        self.matrix = matrix  # every row written, live or not (memory-mapped)
        self.docs = docs  # live doc id -> row
        self.metas = metas  # live row -> metadata
        self.live = np.zeros(len(matrix), dtype=bool)
        self.live[list(docs.values())] = True

    def query(
        self, vector: np.ndarray, k: int, where: dict[str, Any] | None
    ) -> list[tuple[str, float]]:
        """Up to k (record_id, cosine), best first, one per record, among rows that pass where
        (a Chroma where clause that `store/where.py can_match` understands)."""
        import numpy as np

        if k <= 0 or not self.docs:
            return []
        metas = self.metas
        if where is None:
            sims = live_sims(self.matrix, vector, ~self.live)
        else:
            rows = np.fromiter(metas, dtype=np.int64, count=len(metas))
            sims = some_sims(self.matrix, vector, rows[passing(list(metas.values()), where)])
        return best_records(sims, k, lambda row: str(metas[row]["record_id"]))

    def embeddings(self, doc_ids: Sequence[str]) -> dict[str, np.ndarray]:
        import numpy as np

        found = [d for d in doc_ids if d in self.docs]
        return dict(zip(found, np.asarray(self.matrix[[self.docs[d] for d in found]]), strict=True))

    def bad_rows(self) -> int:
        """Live rows that are not finite unit vectors (bit rot, a torn page)."""
        return count_bad_rows(self.matrix, sorted(self.docs.values()))


class FlatVectors:
    """The flat copy of one user's vectors (both kinds), under <data_dir>/flat/<user>."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        # the header last read per kind, by the stat of its file (a writer replaces the file)
        self._headers: dict[str, tuple[tuple[int, int, int], Header]] = {}

    # --- reading ------------------------------------------------------------------------

    def header(self, kind: str) -> Header | None:
        path = self.folder / f"{kind}.json"
        try:
            st = os.stat(path)
            seen = (st.st_ino, st.st_mtime_ns, st.st_size)
            cached = self._headers.get(kind)
            if cached is not None and cached[0] == seen:
                return cached[1]
            raw = orjson.loads(path.read_bytes())
            head = Header(str(raw["model"]), int(raw["dim"]), int(raw["gen"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
        self._headers[kind] = (seen, head)
        return head

    def rows(self, kind: str, head: Header) -> int:
        """Rows written to the current generation, live or not (what a search multiplies)."""
        try:
            return os.path.getsize(self._file(kind, head.gen, "f32")) // (4 * head.dim)
        except OSError:
            return 0

    def log_size(self, kind: str, head: Header) -> int:
        """Bytes in the current generation's log: it grows with every change."""
        try:
            return os.path.getsize(self._file(kind, head.gen, "log"))
        except OSError:
            return -1

    def view(self, kind: str, head: Header) -> FlatView | None:
        """Replay the current generation; None when its files are missing or disagree."""

        try:
            log = self._file(kind, head.gen, "log").read_bytes()
            path = self._file(kind, head.gen, "f32")
            matrix = open_rows(path, head.dim)
        except (OSError, ValueError):
            return None
        rows = len(matrix)
        docs: dict[str, int] = {}
        metas: dict[int, Any] = {}
        of_record: dict[str, list[str]] = {}
        lines = log.split(b"\n")
        for n, line in enumerate(lines):
            if not line:
                continue
            try:
                entry = orjson.loads(line)
            except orjson.JSONDecodeError:
                if n == len(lines) - 1:  # a line cut short by a crash: the last one
                    break
                return None  # torn inside the log: damaged, not interrupted
            if not valid_entry(entry):
                return None
            if entry[0] == "+":
                _, row, doc, meta = entry
                if row >= rows:
                    return None
                old = docs.get(doc)
                if old is not None:
                    metas.pop(old, None)
                docs[doc] = row
                metas[row] = meta
                of_record.setdefault(str(meta["record_id"]), []).append(doc)
            else:
                for doc in of_record.pop(entry[2], ()):
                    row = docs.pop(doc, None)
                    if row is not None:
                        metas.pop(row, None)
        return FlatView(matrix, docs, metas)

    # --- writing (callers hold the user's write lock) ------------------------------------

    def append(
        self,
        kind: str,
        head: Header,
        doc_ids: Sequence[str],
        vectors: np.ndarray,
        metadatas: Sequence[dict[str, Any]],
    ) -> None:
        """Add rows (replacing documents with the same id)."""
        import numpy as np

        start = self._next_row(kind, head)
        matrix = np.ascontiguousarray(vectors, dtype=np.float32).reshape(len(doc_ids), head.dim)
        with self._file(kind, head.gen, "f32").open("r+b") as fh:
            fh.truncate(start * 4 * head.dim)  # rows a crash left without a log line
            fh.seek(0, os.SEEK_END)
            fh.write(matrix.tobytes())
        lines = [
            orjson.dumps(["+", start + i, d, m]) + b"\n"
            for i, (d, m) in enumerate(zip(doc_ids, metadatas, strict=True))
        ]
        self._log(kind, head, lines)

    def delete(self, kind: str, head: Header, record_ids: Iterable[str]) -> None:
        """Drop every document of these records."""
        nxt = self._next_row(kind, head)
        self._log(kind, head, [orjson.dumps(["-", nxt, r]) + b"\n" for r in record_ids])

    def start(
        self,
        kind: str,
        model: str,
        dim: int,
        batches: Iterable[tuple[Sequence[str], np.ndarray, Sequence[dict[str, Any]]]] = (),
    ) -> Header:
        """Begin a new generation holding these batches, make it current, drop the old one."""
        ensure_private_dir(self.folder)
        old = self.header(kind)
        head = Header(model, dim, (old.gen + 1) if old else 1)
        for ext in ("f32", "log"):
            self._file(kind, head.gen, ext).write_bytes(b"")
            os.chmod(self._file(kind, head.gen, ext), FILE_MODE)
        for doc_ids, vectors, metas in batches:
            self.append(kind, head, doc_ids, vectors, metas)
        body = {"model": model, "dim": dim, "gen": head.gen}
        tmp = self.folder / f"{kind}.json.tmp"
        tmp.write_bytes(orjson.dumps(body))
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, self.folder / f"{kind}.json")
        if old:
            for ext in ("f32", "log"):
                self._file(kind, old.gen, ext).unlink(missing_ok=True)
        return head

    def pending(self, kind: str) -> set[str]:
        """Records deleted here whose Chroma documents wait for Chroma's next write.

        Lines that are not record ids (a damaged file) are left out: doctor names them.
        """
        return {line for line in self.pending_lines(kind) if is_record_id(line)}

    def pending_lines(self, kind: str) -> list[str]:
        try:
            raw = self._pending_file(kind).read_bytes()
        except FileNotFoundError:
            return []
        return [ln for ln in raw.decode("utf-8", errors="replace").splitlines() if ln]

    def pending_file(self, kind: str) -> Path:
        return self._pending_file(kind)

    def add_pending(self, kind: str, record_ids: Iterable[str]) -> None:
        ensure_private_dir(self.folder)
        with self._pending_file(kind).open("a", encoding="utf-8") as fh:
            fh.write("".join(f"{r}\n" for r in record_ids))

    def clear_pending(self, kind: str) -> None:
        self._pending_file(kind).unlink(missing_ok=True)

    def drop(self) -> None:
        """Delete the whole copy (the user is being deleted)."""
        if self.folder.is_dir():
            for path in self.folder.iterdir():
                path.unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                self.folder.rmdir()

    def _pending_file(self, kind: str) -> Path:
        return self.folder / f"{kind}.pending"

    def _file(self, kind: str, gen: int, ext: str) -> Path:
        return self.folder / f"{kind}-{gen}.{ext}"

    def _log(self, kind: str, head: Header, lines: list[bytes]) -> None:
        with self._file(kind, head.gen, "log").open("ab") as fh:
            fh.write(b"".join(lines))

    def _next_row(self, kind: str, head: Header) -> int:
        """The row the next append writes: what the last complete log line says."""
        path = self._file(kind, head.gen, "log")
        with path.open("r+b") as fh:
            size = fh.seek(0, os.SEEK_END)
            tail = b""
            while True:  # read back until the last complete line is whole in tail
                end = tail.rfind(b"\n")
                if size == 0 or (end >= 0 and tail.rfind(b"\n", 0, end) >= 0):
                    break
                step = min(size, 4096)
                size -= step
                fh.seek(size)
                tail = fh.read(step) + tail
            if end + 1 < len(tail):  # a line cut short by a crash: drop it
                fh.truncate(size + end + 1)
        if end < 0:
            return 0
        entry = orjson.loads(tail[tail.rfind(b"\n", 0, end) + 1 : end])
        return int(entry[1]) + 1 if entry[0] == "+" else int(entry[1])


def is_record_id(text: str) -> bool:
    """Whether a line of a pending list can be a record id."""
    return 0 < len(text) <= 200 and set(text) <= ID_CHARS


def valid_entry(entry: Any) -> bool:
    """Whether a replayed log line has the shape the writer gives it."""
    if not isinstance(entry, list) or not entry:
        return False
    if entry[0] == "+":
        return (
            len(entry) == 4
            and isinstance(entry[1], int)
            and entry[1] >= 0
            and isinstance(entry[2], str)
            and isinstance(entry[3], dict)
            and "record_id" in entry[3]
        )
    return entry[0] == "-" and len(entry) == 3 and isinstance(entry[2], str)


def live_sims(matrix: np.ndarray, vector: np.ndarray, dead: Any) -> np.ndarray:
    """Cosines of every row with the vector, dead rows at -inf; BrokenIndex on a damaged row."""
    import numpy as np

    with np.errstate(all="ignore"):  # a damaged row must not print numpy warnings
        sims = matrix @ np.asarray(vector, dtype=np.float32).reshape(-1)
    sims[dead] = 0.0
    ensure_cosines(sims)
    sims[dead] = -np.inf
    return sims


def some_sims(matrix: np.ndarray, vector: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Cosines of these rows with the vector, every other row at -inf (a filter's few rows
    cost their own product, not the whole matrix's); BrokenIndex on a damaged row."""
    import numpy as np

    sims = np.full(len(matrix), -np.inf, dtype=np.float32)
    if len(rows):
        with np.errstate(all="ignore"):
            part = np.asarray(matrix[rows]) @ np.asarray(vector, dtype=np.float32).reshape(-1)
        ensure_cosines(part)
        sims[rows] = part
    return sims


def ensure_cosines(sims: np.ndarray) -> None:
    """BrokenIndex unless every value is a cosine of unit vectors (finite, at most 1)."""
    import numpy as np

    if not np.isfinite(sims).all() or float(np.abs(sims).max()) > 1 + NORM_TOLERANCE:
        raise BrokenIndex("the flat copy of the vectors holds damaged rows")


def best_records(
    sims: np.ndarray,
    k: int,
    record_of: Callable[[int], str],
) -> list[tuple[str, float]]:
    """Up to k (record_id, score), best first, one per record (a row at -inf is left out)."""
    import numpy as np

    want = 4 * k + 64  # rows to sort first: records have several rows
    while True:
        if want < len(sims):
            top = np.argpartition(-sims, want)[:want]
            order = top[np.lexsort((top, -sims[top]))]  # ties by row, as argsort below
        else:
            order = np.argsort(-sims, kind="stable")
        best: dict[str, float] = {}
        for row in order.tolist():
            score = float(sims[row])
            if score == -np.inf:  # the rest are left out too: every row was seen
                return list(best.items())
            rid = record_of(row)
            if rid not in best:
                best[rid] = score
                if len(best) >= k:
                    return list(best.items())
        if want >= len(sims):
            return list(best.items())
        want *= 4


def count_bad_rows(matrix: np.ndarray, rows: Sequence[int] | np.ndarray) -> int:
    """How many of these rows are not finite unit vectors."""
    import numpy as np

    bad = 0
    for start in range(0, len(rows), 4096):
        with np.errstate(all="ignore"):
            block = np.asarray(matrix[rows[start : start + 4096]], dtype=np.float64)
            norms = np.sqrt((block * block).sum(axis=1))
        bad += int((~np.isfinite(norms) | (np.abs(norms - 1) > NORM_TOLERANCE)).sum())
    return bad


def open_rows(path: Path, dim: int) -> np.ndarray:
    """The whole rows of a copy's file, memory-mapped (a row cut short by a crash is left out)."""
    import numpy as np

    rows = path.stat().st_size // (4 * dim)
    if not rows:
        return np.zeros((0, dim), dtype=np.float32)
    return np.memmap(path, dtype=np.float32, mode="r", shape=(rows, dim))
