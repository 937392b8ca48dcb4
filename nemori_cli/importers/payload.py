"""The raw bytes of one input, and the JSON, JSONL or text views that readers work on."""

from __future__ import annotations

import codecs
import contextlib
import hashlib
import mmap
import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from nemori_cli.errors import ImportFormatError
from nemori_cli.importers.base import display
from nemori_cli.importers.jsonstream import array_spans

# Documents larger than this are not parsed whole: a top-level array is read one element at a
# time, so memory stays near the size of the file instead of several times it.
BIG = 32 * 1024 * 1024
FORGET_EVERY = 16 * 1024 * 1024  # bytes of a mapped file read between dropping its pages
_HEAD = 50  # records parsed up front to recognise the layout
_CHUNK = 8 * 1024 * 1024
_BOM = codecs.BOM_UTF8
_WS = b" \t\r\n"
_LEADING_WS = re.compile(rb"[ \t\r\n]*")


@dataclass(frozen=True)
class BadRecord:
    """A top-level record (array element or JSONL line) that is not valid JSON."""

    where: str
    reason: str


def object_records(doc: JsonDoc, sink: Any, noun: str) -> Iterator[dict[str, Any]]:
    """Yield the document's records that are objects; report the others to the sink."""
    for number, record in enumerate(doc.records(), 1):
        if isinstance(record, BadRecord):
            sink.skip(None, f"{record.where}: {record.reason}")
        elif not isinstance(record, dict):
            sink.skip(None, f"record {number} is not a {noun} object")
        else:
            yield record


@dataclass
class JsonDoc:
    """A parsed JSON document: one object, an array of records, or JSONL lines."""

    kind: str  # "object" | "array" | "lines"
    count: int  # number of records
    head: list[Any]  # the first records, parsed, for recognising the layout
    records: Callable[[], Iterator[Any]]  # every record; a malformed one comes as a BadRecord
    source: str = ""  # the input's path ("-" for stdin, "<zip>:<member>" inside an archive)


class Payload:
    """One input's bytes (read, or memory-mapped when large) with its name for messages."""

    def __init__(self, path: str, data: Any, name: str, *, disk: str | None = None) -> None:
        self.path = path
        self.data = data
        self.name = name
        self.disk = disk  # the file these bytes were read from, for readers that need a file

    @classmethod
    def read(cls, path: str) -> Payload:
        """Read a file, or standard input for "-"."""
        if path == "-":
            return cls(path, sys.stdin.buffer.read(), "")
        try:
            with open(path, "rb") as fh:
                size = os.fstat(fh.fileno()).st_size
                big = size > BIG
                data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) if big else fh.read()
        except IsADirectoryError:
            raise ImportFormatError(f"{path}: is a directory") from None
        except FileNotFoundError:
            raise ImportFormatError(f"{path}: no such file or directory") from None
        except OSError as exc:
            raise ImportFormatError(f"{path}: cannot read ({exc.strerror or exc})") from None
        return cls(path, data, os.path.basename(path), disk=path)

    @property
    def label(self) -> str:
        """Name this input in messages."""
        return display(self.path)

    @property
    def ext(self) -> str:
        """The lower-case extension of the file name, with its dot ("" for stdin)."""
        return os.path.splitext(self.name)[1].lower()

    def error(self, problem: str) -> ImportFormatError:
        """Build the one-line error for a problem with this input."""
        return ImportFormatError(f"{self.label}: {problem}")

    def sha256(self) -> str:
        """Hash the raw bytes, so a re-import of the same file can be recognised.

        A SQLite database in write-ahead-log mode keeps its newest rows in the `-wal` file
        beside it until a checkpoint: that file is part of what was read, so of the hash too.
        """
        digest = hashlib.sha256(self.data)
        forget_pages(self.data)
        if self.disk is not None and self.is_sqlite():
            with contextlib.suppress(OSError), open(self.disk + "-wal", "rb") as wal:
                digest.update(wal.read())
        return digest.hexdigest()

    def is_zip(self) -> bool:
        """Tell whether the bytes are a zip archive."""
        return bytes(self.data[:4]) in (b"PK\x03\x04", b"PK\x05\x06")

    def is_sqlite(self) -> bool:
        """Tell whether the bytes are a SQLite database."""
        return bytes(self.data[:16]) == b"SQLite format 3\x00"

    def check_utf8(self) -> None:
        """Raise unless the bytes are UTF-8 text."""
        head = bytes(self.data[:2])
        if head in (b"\xff\xfe", b"\xfe\xff"):
            raise self.error("not UTF-8 text (it looks like UTF-16; save it as UTF-8)")
        decoder = codecs.getincrementaldecoder("utf-8")()
        size = len(self.data)
        for offset in range(0, size, _CHUNK):
            try:
                decoder.decode(self.data[offset : offset + _CHUNK], offset + _CHUNK >= size)
            except UnicodeDecodeError as exc:
                problem = f"not UTF-8 text (invalid byte at offset {offset + exc.start})"
                raise self.error(problem) from None

    def text(self) -> str:
        """Decode to text with Unix newlines and without a byte-order mark."""
        text = bytes(self.data).decode("utf-8", errors="replace")
        return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")

    def body_start(self) -> int:
        """Offset of the first byte that is not whitespace or a byte-order mark."""
        start = 3 if bytes(self.data[:3]) == _BOM else 0
        return _LEADING_WS.match(self.data, start).end()  # type: ignore[union-attr]

    def looks_like_json(self) -> bool:
        """Tell whether the content starts like a JSON object or array."""
        start = self.body_start()
        return bytes(self.data[start : start + 1]) in (b"[", b"{")

    def json(self) -> JsonDoc:
        """Parse as JSON or JSONL; raise ValueError with the parser's message when neither."""
        doc = self._parse_json()
        doc.source = self.path  # readers whose format keeps facts in the file's name
        return doc

    def _parse_json(self) -> JsonDoc:
        start = self.body_start()
        bom = 3 if bytes(self.data[:3]) == _BOM else 0
        if self.ext in (".jsonl", ".ndjson"):
            return _lines(self.data, bom)
        if len(self.data) > BIG and bytes(self.data[start : start + 1]) == b"[":
            return _big_array(self.data, start)
        try:
            value = orjson.loads(self.data[start:])
        except orjson.JSONDecodeError as exc:
            try:
                doc = _lines(self.data, bom)
            except ValueError:
                raise ValueError(str(exc)) from None
            if doc.count < 2:
                raise ValueError(str(exc)) from None
            return doc
        if isinstance(value, list):
            return JsonDoc("array", len(value), value[:_HEAD], lambda: iter(value))
        return JsonDoc("object", 1, [value], lambda: iter([value]))


def forget_pages(data: Any, upto: int | None = None) -> None:
    """Drop a mapped file's pages before upto (all by default) from this process's memory.

    A read touches every page of a large export, and each stays resident (in RSS: 200 MB of
    a 200 MB export by its end) although it will not be read again; a page read once more
    comes back from the page cache.
    """
    if not isinstance(data, mmap.mmap) or not hasattr(mmap, "MADV_DONTNEED"):
        return
    end = len(data) if upto is None else upto - upto % mmap.PAGESIZE
    if end > 0:
        data.madvise(mmap.MADV_DONTNEED, 0, end)


def forgetting(data: Any) -> Callable[[int], None]:
    """A reader's mark of how far it has read data: pages behind it are dropped every
    FORGET_EVERY bytes."""
    forgotten = 0

    def reached(pos: int) -> None:
        nonlocal forgotten
        if pos - forgotten > FORGET_EVERY:
            forget_pages(data, pos)
            forgotten = pos

    return reached


def _big_array(data: Any, start: int) -> JsonDoc:
    spans = array_spans(data, start)
    forget_pages(data)

    def records() -> Iterator[Any]:
        reached = forgetting(data)
        for index, (lo, hi) in enumerate(spans):
            reached(lo)
            try:
                yield orjson.loads(data[lo:hi])
            except orjson.JSONDecodeError as exc:
                yield BadRecord(f"record {index + 1}", f"invalid JSON ({exc})")

    head: list[Any] = []
    for record in records():
        if isinstance(record, BadRecord) or len(head) >= _HEAD:
            break
        head.append(record)
    return JsonDoc("array", len(spans), head, records)


def _line_spans(data: Any, start: int) -> list[tuple[int, int, int]]:
    """Return (line number, start, end) of each non-blank line."""
    spans = []
    size = len(data)
    pos, number = start, 0
    while pos < size:
        end = data.find(b"\n", pos)
        end = size if end < 0 else end
        number += 1
        if bytes(data[pos:end]).strip(_WS):
            spans.append((number, pos, end))
        pos = end + 1
    return spans


def _lines(data: Any, start: int) -> JsonDoc:
    """Parse JSONL; small files are parsed whole now, so a bad line is an error up front."""
    spans = _line_spans(data, start)
    if len(data) <= BIG:
        parsed = []
        for number, lo, hi in spans:
            try:
                parsed.append(orjson.loads(data[lo:hi]))
            except orjson.JSONDecodeError as exc:
                raise ValueError(f"line {number}: {exc}") from None
        return JsonDoc("lines", len(parsed), parsed[:_HEAD], lambda: iter(parsed))

    forget_pages(data)

    def records() -> Iterator[Any]:
        reached = forgetting(data)
        for number, lo, hi in spans:
            reached(lo)
            try:
                yield orjson.loads(data[lo:hi])
            except orjson.JSONDecodeError as exc:
                yield BadRecord(f"line {number}", f"invalid JSON ({exc})")

    head: list[Any] = []
    for record in records():
        if isinstance(record, BadRecord):
            raise ValueError(f"{record.where}: {record.reason}")
        if len(head) >= _HEAD:
            break
        head.append(record)
    return JsonDoc("lines", len(spans), head, records)
