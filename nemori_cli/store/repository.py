"""Typed access to one user's JSONL files, cached until another process changes them."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

import orjson

from nemori_cli.errors import StoreError
from nemori_cli.models import Episode, Fact, to_iso, utcnow
from nemori_cli.store.jsonl import JsonlFile
from nemori_cli.store.line_index import IndexedLines, indexed_lines
from nemori_cli.store.users import UserStore

R = TypeVar("R", Episode, Fact)


class LazyRecords(Mapping[str, R]):
    """Records by id, each parsed from its raw line only when first looked up."""

    def __init__(self, lines: Mapping[str, bytes], parse: Any, path: Path) -> None:
        self._lines = lines
        self._parse = parse
        self._path = path
        self._parsed: dict[str, R] = {}

    def __getitem__(self, record_id: str) -> R:
        record = self._parsed.get(record_id)
        if record is None:
            line = self._lines[record_id]
            try:
                record = self._parse(orjson.loads(line))
            except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
                raise StoreError(
                    f"{self._path}: record {record_id!r} is not a valid JSON record: "
                    "run `nemori doctor --repair`"
                ) from None
            self._parsed[record_id] = record
        return record

    def __contains__(self, record_id: object) -> bool:
        return record_id in self._lines

    def __iter__(self) -> Iterator[str]:
        return iter(self._lines)

    def __len__(self) -> int:
        return len(self._lines)

    def mentioning(self, texts: Collection[str]) -> list[R]:
        """Parse only the records whose stored line contains one of these strings."""
        needles = [orjson.dumps(t) for t in texts]  # as they appear, JSON-quoted, in a line
        if isinstance(self._lines, IndexedLines):  # one read of the file, not a read a line
            return [self[rid] for rid in self._lines.containing(needles)]
        return [self[rid] for rid, line in self._lines.items() if any(n in line for n in needles)]


class RecordTable(Generic[R]):
    """Records of one kind, keyed by id, backed by one JSONL file."""

    def __init__(self, file: JsonlFile, parse: Any) -> None:
        self.file = file
        self._parse = parse
        self._cache: dict[str, R] | None = None
        self._stamp: tuple[int, int] | None = None
        self._lazy: LazyRecords[R] | None = None
        self._lazy_stamp: tuple[int, int] | None = None
        self._ids: set[str] | None = None
        self._ids_stamp: tuple[int, int] | None = None

    def _current_stamp(self) -> tuple[int, int] | None:
        try:
            st = Path(self.file.path).stat()
        except FileNotFoundError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def all(self) -> dict[str, R]:
        """Return every record by id (reloaded when the file changed on disk)."""
        stamp = self._current_stamp()
        if self._cache is None or stamp != self._stamp:
            records = {}
            for d in self.file.read():
                records[d["id"]] = self._parse(d)
            self._cache, self._stamp = records, self._current_stamp()
        return self._cache

    def stream(self) -> Iterator[R]:
        """Yield every record, parsing one line at a time and keeping none (for rebuilds)."""
        table = (
            self._cache
            if self._cache is not None and self._stamp == self._current_stamp()
            else None
        )
        if table is not None:
            yield from table.values()
            return
        for line in self.file.read_lines():
            if line.strip():
                yield self._parse(orjson.loads(line))

    def get(self, record_id: str) -> R | None:
        return self.lookup().get(record_id)

    def mentioning(self, texts: Collection[str]) -> list[R]:
        """Records that may refer to one of these strings (a superset: filter the result)."""
        table = self.lookup()
        if isinstance(table, LazyRecords):
            return table.mentioning(texts)
        return list(table.values())

    def lookup(self) -> Mapping[str, R]:
        """Return the records by id for reading a few of them (search): parsed on demand.

        Uses the full cache when it is current; otherwise indexes the raw lines, which is
        several times cheaper than parsing every record (episodes carry their messages).
        """
        stamp = self._current_stamp()
        if self._cache is not None and stamp == self._stamp:
            return self._cache
        if self._lazy is None or stamp != self._lazy_stamp:
            lines = indexed_lines(self.file)  # a saved line index: the file is not read whole
            self._lazy = LazyRecords(lines, self._parse, Path(self.file.path))
            self._lazy_stamp = stamp  # as before reading: a write meanwhile forces a reload
        return self._lazy

    def ids(self) -> set[str]:
        """The ids stored, found without parsing the records (reloaded when the file changed)."""
        stamp = self._current_stamp()
        if self._ids is None or stamp != self._ids_stamp:
            self._ids, self._ids_stamp = set(self.file.index_lines()), stamp
        return self._ids

    def upsert(self, records: Sequence[R]) -> None:
        """Store records, replacing those with the same id (parsing none of the stored ones)."""
        if not records:
            return
        before = self._current_stamp()
        cache_current = self._cache is not None and self._stamp == before
        known = self.ids()
        if any(r.id in known for r in records):
            self.file.upsert([r.to_dict() for r in records])
        else:
            self.file.append([r.to_dict() for r in records])
        after = self._current_stamp()
        known.update(r.id for r in records)
        self._ids_stamp = after
        if cache_current and self._cache is not None:
            self._cache.update({r.id: r for r in records})
            self._stamp = after
        else:
            self._cache = None

    def delete(self, ids: Collection[str]) -> int:
        """Remove records by id; return how many were removed."""
        removed = self.file.delete_ids(ids)
        self._ids = None
        if self._cache is not None:
            for i in ids:
                self._cache.pop(i, None)
            self._stamp = self._current_stamp()
        return removed


class Repository:
    """One user's episodes, facts and import log."""

    def __init__(self, data_dir: Path, user_id: str, *, lock_timeout: float) -> None:
        self.user_id = user_id
        self.files = UserStore(data_dir, user_id, lock_timeout=lock_timeout)
        self.episodes: RecordTable[Episode] = RecordTable(self.files.episodes, Episode.from_dict)
        self.facts: RecordTable[Fact] = RecordTable(self.files.facts, Fact.from_dict)

    @property
    def folder(self) -> Path:
        return Path(self.files.folder)

    def ingested(self) -> tuple[set[str], dict[str, set[str]]]:
        """Return (file hashes imported whole, conversation id -> message ids imported)."""
        files: set[str] = set()
        messages: dict[str, set[str]] = {}
        for d in self.files.ingested.read():
            if d.get("kind") == "file":
                files.add(d["sha256"])
            else:
                messages.setdefault(d["conversation_id"], set()).update(d["message_ids"])
        return files, messages

    def import_log(self) -> list[dict[str, Any]]:
        """Every entry of the import log, deleted records' messages too (see ingested)."""
        return self.files.ingested.read()

    def mark_ingested(self, conversations: Iterable[tuple[str, Sequence[str], str | None]]) -> None:
        """Record (conversation id, message ids, source) as imported."""
        at = to_iso(utcnow())
        lines = [
            {
                "kind": "conversation",
                "conversation_id": c,
                "message_ids": list(m),
                "source": s,
                "at": at,
            }
            for c, m, s in conversations
        ]
        if lines:
            self.files.ingested.append(lines)

    def mark_file(self, source: str, sha256: str) -> None:
        """Record that a whole file was imported."""
        self.files.ingested.append(
            [{"kind": "file", "source": source, "sha256": sha256, "at": to_iso(utcnow())}]
        )
