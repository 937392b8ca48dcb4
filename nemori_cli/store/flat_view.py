"""Read the flat copy of the vectors at any size: a snapshot of its replayed log, plus the tail.

Replaying the log (store/flat.py) parses one JSON line per row: about half a second at 100k
episodes + 100k facts, which a cold `nemori search` would pay on every call. So a reader that
replayed a long stretch saves what it found in `<kind>-<gen>.snap`: per row its record (or -1
when the row is dead) and its metadata, the records, doc ids and metadata as JSON, and how many
bytes of the log that covers. The next reader loads the snapshot (numpy arrays and one small
JSON list) and replays only the log written after it. A generation's log and rows are only ever
appended, so a snapshot stays true for the bytes it covers; a new generation gets its own.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from nemori_cli.store.files import FILE_MODE
from nemori_cli.store.flat import (
    FlatVectors,
    Header,
    best_records,
    count_bad_rows,
    live_sims,
    open_rows,
    some_sims,
    valid_entry,
)
from nemori_cli.store.where import numbers, passing

if TYPE_CHECKING:
    import numpy as np

MAGIC = b"nemori-flat-snapshot 2\n"
RESNAP_BYTES = 256 * 1024  # a log tail longer than this is folded into a new snapshot
CHECK_BYTES = 64  # bytes of the log just before the snapshot's end, to recognise the same log


class SnapView:
    """One kind's live vectors as read at one moment: exact cosine search over them."""

    def __init__(self, matrix: np.ndarray, state: State) -> None:
        import numpy as np

        self.matrix = matrix  # every row written, live or not (memory-mapped)
        self.state = state
        live = np.full(len(matrix), -1, dtype=np.int32)
        n = min(len(matrix), state.extent)
        live[:n] = state.row_record[:n]
        self.row_record = live
        self.dead = np.flatnonzero(live < 0)
        self.live_rows = len(matrix) - len(self.dead)

    @property
    def docs(self) -> dict[str, int]:
        """Live doc id -> row."""
        return self.state.doc_rows()

    def query(
        self, vector: np.ndarray, k: int, where: dict[str, Any] | None
    ) -> list[tuple[str, float]]:
        """Up to k (record_id, cosine), best first, one per record, among rows that pass where
        (a Chroma where clause that `store/where.py can_match` understands)."""
        import numpy as np

        if k <= 0 or not self.live_rows:
            return []
        if where is None:
            sims = live_sims(self.matrix, vector, self.dead)
        else:
            state = self.state
            ok = passing(state.meta_list(), where, state.column)
            live = np.flatnonzero(self.row_record >= 0)  # a live row has its metadata
            sims = some_sims(self.matrix, vector, live[ok[state.row_meta[live]]])
        records, row_record = self.state.records, self.row_record
        return best_records(sims, k, lambda row: records[row_record[row]])

    def embeddings(self, doc_ids: Sequence[str]) -> dict[str, np.ndarray]:
        import numpy as np

        rows = self.state.rows_of(doc_ids)
        block = np.asarray(self.matrix[list(rows.values())])  # one read of all the rows
        return dict(zip(rows, block, strict=True))

    def bad_rows(self) -> int:
        """Live rows that are not finite unit vectors (bit rot, a torn page)."""
        import numpy as np

        return count_bad_rows(self.matrix, np.flatnonzero(self.row_record >= 0))


class State:
    """The replayed log: per row its record index (-1 dead) and metadata index; grows on replay."""

    def __init__(
        self,
        row_record: np.ndarray,
        row_meta: np.ndarray,
        records: list[str],
        docs_json: bytes | memoryview | None = None,
        metas_json: bytes | memoryview | None = None,
    ) -> None:
        self.row_record = row_record
        self.row_meta = row_meta
        self.extent = len(row_record)  # rows up to the last one added (the arrays grow ahead)
        self.records = records
        self._docs_json = docs_json  # parsed on first need: a plain search never needs them
        self._metas_json = metas_json
        self._docs: list[str | None] | None = None if docs_json is not None else []
        self._metas: list[Any] | None = None if metas_json is not None else []
        self._doc_rows: dict[str, int] | None = None
        # live doc ids sorted (fixed-width bytes) and their rows, as saved: found by binary
        # search without parsing 300k doc ids; dropped once the replay changes anything
        self.sorted_docs: np.ndarray | None = None
        self.sorted_rows: np.ndarray | None = None
        self._record_index: dict[str, int] | None = None
        self._meta_index: dict[bytes, int] = {}
        self._columns: dict[str, np.ndarray] = {}

    @classmethod
    def empty(cls) -> State:
        import numpy as np

        return cls(np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32), [])

    def doc_list(self) -> list[str | None]:
        if self._docs is None:
            self._docs = orjson.loads(self._docs_json or b"[]")
        return self._docs

    def meta_list(self) -> list[Any]:
        if self._metas is None:
            self._metas = orjson.loads(self._metas_json or b"[]")
        return self._metas

    def meta_of(self, row: int) -> dict[str, Any]:
        return self.meta_list()[int(self.row_meta[row])]  # type: ignore[no-any-return]

    def column(self, key: str) -> np.ndarray:
        """One metadata key as a float column over the metadata list (kept: filters reuse it)."""
        metas = self.meta_list()
        cached = self._columns.get(key)
        if cached is None or len(cached) != len(metas):
            self._columns[key] = cached = numbers(metas, key)
        return cached

    def rows_of(self, doc_ids: Sequence[str]) -> dict[str, int]:
        """The rows of those of these doc ids that are live."""
        import numpy as np

        if self.sorted_docs is None or self.sorted_rows is None:
            rows = self.doc_rows()
            return {d: rows[d] for d in doc_ids if d in rows}
        width = self.sorted_docs.dtype.itemsize
        wanted = [d for d in dict.fromkeys(doc_ids) if 0 < len(d.encode("utf-8")) <= width]
        if not wanted or not len(self.sorted_docs):
            return {}
        keys = np.array([d.encode("utf-8") for d in wanted], dtype=self.sorted_docs.dtype)
        at = np.minimum(np.searchsorted(self.sorted_docs, keys), len(self.sorted_docs) - 1)
        found = self.sorted_docs[at] == keys
        where = self.sorted_rows
        return {d: int(where[i]) for d, i, ok in zip(wanted, at, found, strict=True) if ok}

    def sorted_live_docs(self) -> tuple[np.ndarray, np.ndarray]:
        """(live doc ids as sorted fixed-width bytes, their rows), for saving."""
        import numpy as np

        if self.sorted_docs is not None and self.sorted_rows is not None:
            return self.sorted_docs, self.sorted_rows
        live = sorted(
            (d.encode("utf-8"), row)
            for row, d in enumerate(self.doc_list()[: self.extent])
            if d is not None and self.row_record[row] >= 0
        )
        names = np.array([d for d, _ in live] or [b""], dtype=bytes)[: len(live)]
        return names, np.array([r for _, r in live], dtype=np.int32)

    def doc_rows(self) -> dict[str, int]:
        if self._doc_rows is None:
            self._doc_rows = {
                d: row
                for row, d in enumerate(self.doc_list())
                if d is not None and self.row_record[row] >= 0
            }
        return self._doc_rows

    # --- replaying the log ----------------------------------------------------------------

    def _grow(self, rows: int) -> None:
        import numpy as np

        if rows > len(self.row_record):
            extra = rows - len(self.row_record)
            more = max(extra, len(self.row_record) // 2)
            self.row_record = np.concatenate([self.row_record, np.full(more, -1, np.int32)])
            self.row_meta = np.concatenate([self.row_meta, np.full(more, -1, np.int32)])
            self.doc_list().extend([None] * more)

    def _record(self, rid: str) -> int:
        if self._record_index is None:
            self._record_index = {r: i for i, r in enumerate(self.records)}
        index = self._record_index.get(rid)
        if index is None:
            index = self._record_index[rid] = len(self.records)
            self.records.append(rid)
        return index

    def _meta(self, meta: Any) -> int:
        key = orjson.dumps(meta, option=orjson.OPT_SORT_KEYS)
        index = self._meta_index.get(key)
        if index is None:
            metas = self.meta_list()
            index = self._meta_index[key] = len(metas)
            metas.append(meta)
        return index

    def add(self, row: int, doc: str, meta: dict[str, Any]) -> None:
        self.sorted_docs = self.sorted_rows = None
        docs, rows = self.doc_list(), self.doc_rows()
        old = rows.get(doc)
        if old is not None:
            self.row_record[old] = -1
        self._grow(row + 1)
        self.extent = max(self.extent, row + 1)
        rows[doc] = row
        docs[row] = doc
        self.row_record[row] = self._record(str(meta["record_id"]))
        self.row_meta[row] = self._meta(meta)

    def delete(self, rid: str) -> None:
        import numpy as np

        if self._record_index is None:
            self._record_index = {r: i for i, r in enumerate(self.records)}
        index = self._record_index.get(rid)
        if index is None:
            return
        hit = np.flatnonzero(self.row_record == index)
        if len(hit):
            self.sorted_docs = self.sorted_rows = None
            self.row_record[hit] = -1
            rows, docs = self.doc_rows(), self.doc_list()
            for row in hit.tolist():
                rows.pop(docs[row] or "", None)

    def replay(self, log: bytes, rows: int) -> tuple[int, bool]:
        """Apply whole log lines; return (bytes consumed, False when the log is damaged)."""
        used = 0
        for line in log.split(b"\n")[:-1]:  # the last piece lacks its newline: not whole yet
            if line:
                try:
                    entry = orjson.loads(line)
                except orjson.JSONDecodeError:  # torn inside the log: damaged, not interrupted
                    return used, False
                if not valid_entry(entry):
                    return used, False
                if entry[0] == "+":
                    _, row, doc, meta = entry
                    if row >= rows:
                        return used, False
                    self.add(int(row), str(doc), meta)
                else:
                    self.delete(str(entry[2]))
            used += len(line) + 1
        return used, True

    # --- saving ---------------------------------------------------------------------------

    def dump(self, header: dict[str, Any]) -> bytes:
        import numpy as np

        n = self.extent
        docs = self.doc_list()[:n] if self._docs is not None else None
        names, rows = self.sorted_live_docs()
        parts = [
            np.ascontiguousarray(self.row_record[:n], dtype=np.int32).tobytes(),
            np.ascontiguousarray(self.row_meta[:n], dtype=np.int32).tobytes(),
            orjson.dumps(self.records),
            orjson.dumps(docs) if docs is not None else (self._docs_json or b"[]"),
            orjson.dumps(self._metas) if self._metas is not None else (self._metas_json or b"[]"),
            names.tobytes(),
            np.ascontiguousarray(rows, dtype=np.int32).tobytes(),
        ]
        sizes = [len(p) for p in parts]
        head = orjson.dumps({**header, "rows": n, "sizes": sizes, "doc_width": names.itemsize})
        return MAGIC + head + b"\n" + b"".join(parts)


def snap_path(flat: FlatVectors, kind: str, gen: int) -> Path:
    return flat.folder / f"{kind}-{gen}.snap"


def read_snapshot(flat: FlatVectors, kind: str, head: Header, log: Path) -> tuple[State, int]:
    """The saved state and the log bytes it covers; an empty state when none fits this log."""
    import numpy as np

    try:
        # mapped, not read: the doc ids and metadata (most of the file) are parsed only when a
        # command needs them, and each part is a view of the mapping, not a copy of its bytes
        with snap_path(flat, kind, head.gen).open("rb") as fh:
            mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        raw = memoryview(mapped)
        if raw[: len(MAGIC)] != MAGIC:
            return State.empty(), 0
        end = mapped.find(b"\n", len(MAGIC))
        if end < 0:
            return State.empty(), 0
        meta = orjson.loads(raw[len(MAGIC) : end])
        covered = int(meta["log_bytes"])
        with log.open("rb") as fh:
            fh.seek(max(0, covered - CHECK_BYTES))
            if fh.read(min(covered, CHECK_BYTES)).hex() != meta["check"]:
                return State.empty(), 0  # another log (a user deleted and made again)
        n = int(meta["rows"])
        sizes = [int(s) for s in meta["sizes"]]
        at = end + 1
        parts = []
        for size in sizes:
            parts.append(raw[at : at + size])
            at += size
        if at != len(raw) or 4 * n != sizes[0]:
            return State.empty(), 0  # cut short or grown: not what was saved
        row_record = np.frombuffer(parts[0], dtype=np.int32, count=n).copy()
        row_meta = np.frombuffer(parts[1], dtype=np.int32, count=n).copy()
        state = State(row_record, row_meta, orjson.loads(parts[2]), parts[3], parts[4])
        width = int(meta["doc_width"])
        state.sorted_docs = np.frombuffer(parts[5], dtype=f"S{width}")
        state.sorted_rows = np.frombuffer(parts[6], dtype=np.int32)
        if len(state.sorted_docs) != len(state.sorted_rows):
            return State.empty(), 0
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return State.empty(), 0
    return state, covered


def load_view(flat: FlatVectors, kind: str, head: Header) -> SnapView | None:
    """The kind's current generation from its snapshot and log tail; None when unreadable."""

    folder = flat.folder
    log = folder / f"{kind}-{head.gen}.log"
    path = folder / f"{kind}-{head.gen}.f32"
    try:
        matrix = open_rows(path, head.dim)
        rows = len(matrix)
        state, covered = read_snapshot(flat, kind, head, log)
        with log.open("rb") as fh:
            fh.seek(covered)
            tail = fh.read()
    except (OSError, ValueError):
        return None
    if state.extent > rows:
        return None
    used, ok = state.replay(tail, rows)
    if not ok:
        return None
    if used >= RESNAP_BYTES:
        save_snapshot(flat, kind, head, state, covered + used, log)
    return SnapView(matrix, state)


def save_snapshot(
    flat: FlatVectors, kind: str, head: Header, state: State, covered: int, log: Path
) -> None:
    """Save the state replayed from the first `covered` bytes of the log (best effort)."""
    try:
        with log.open("rb") as fh:
            fh.seek(max(0, covered - CHECK_BYTES))
            check = fh.read(min(covered, CHECK_BYTES)).hex()
        body = state.dump({"gen": head.gen, "log_bytes": covered, "check": check})
        tmp = flat.folder / f".{kind}-{head.gen}.snap.{uuid.uuid4().hex[:8]}"
        tmp.write_bytes(body)
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, snap_path(flat, kind, head.gen))
    except OSError:
        with contextlib.suppress(OSError, UnboundLocalError):
            tmp.unlink(missing_ok=True)
        return
    current = flat.header(kind)
    for old in flat.folder.glob(f"{kind}-*.snap"):  # generations gone since
        if current is None or old.name != f"{kind}-{current.gen}.snap":
            old.unlink(missing_ok=True)
