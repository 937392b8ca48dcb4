"""Open inputs: expand paths, detect formats, and stream conversations with what was skipped."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from nemori_cli.errors import ImportFormatError
from nemori_cli.importers import detect, llm_db, manifest, sniff, sqlite_file, zipped
from nemori_cli.importers.base import EmptySource, Sink, Skipped, display
from nemori_cli.importers.payload import Payload
from nemori_cli.models import Conversation

EXTENSIONS = frozenset({".json", ".jsonl", ".md", ".markdown", ".txt", ".zip"})


@dataclass
class Source:
    """One opened input: its format, content hash, and a stream of its conversations."""

    path: str
    format: str
    sha256: str  # of the raw bytes, so re-importing the same file can be recognised
    skipped: list[Skipped] = field(default_factory=list)  # filled while conversations() runs
    expected: int | None = None  # conversations in the file, when known without reading them
    strict: bool = False
    _read: detect.Reader | None = field(default=None, repr=False, compare=False)

    def conversations(self) -> Iterator[Conversation]:
        """Yield the conversations; broken ones go to `skipped` (or raise, when strict)."""
        assert self._read is not None, "open a Source with open_source()"
        self.skipped.clear()
        sink = Sink(self.path, self.strict, self.skipped)
        produced = 0
        shown: dict[str, set[str]] = {}  # message ids yielded so far, by conversation
        for conv in self._read(sink):
            before = shown.setdefault(conv.id, set())
            if before:  # the file holds this conversation twice: give each message once
                conv = replace(conv, messages=tuple(m for m in conv.messages if m.id not in before))
                if not conv.messages:
                    self.skipped.append(Skipped(conv.id, "stored twice in the file; read once"))
                    continue
            before.update(m.id for m in conv.messages)
            produced += 1
            yield conv
        if not produced:
            raise EmptySource(f"{display(self.path)}: no conversations{_why(self.skipped)}")


def open_source(path: str, *, format: str | None = None, strict: bool = False) -> Source:
    """Open a file (or "-" for stdin), recognise its format, and check that it can be read."""
    detect.format_name(format)  # an unknown format is reported before a missing file
    return open_payload(Payload.read(path), format=format, strict=strict)


def open_bytes(
    data: bytes, *, label: str = "input", format: str | None = None, strict: bool = False
) -> Source:
    """Open a document held in memory as open_source opens a file; messages name it `label`."""
    return open_payload(Payload(label, data, label), format=format, strict=strict)


def open_payload(payload: Payload, *, format: str | None = None, strict: bool = False) -> Source:
    """Recognise the format of an input read already, and check that it can be read."""
    forced = detect.format_name(format)
    path = payload.path
    if payload.is_zip():
        plan = zipped.plan_zip(payload, lambda member: detect.plan(member, forced))
    else:
        plan = detect.plan(payload, forced)
    return Source(
        path=path,
        format=plan.format,
        sha256=payload.sha256(),
        expected=plan.expected,
        strict=strict,
        _read=plan.read,
    )


def expand_paths(paths: Sequence[str]) -> list[str]:
    """List the files to import: files as given, directories walked in order, "-" for stdin."""
    found: dict[str, None] = {}
    for path in paths:
        if path != "-" and os.path.isdir(path):
            walked_files = _walk(path)
            if not walked_files:  # as a file without conversations: an error, not 0 stored
                raise ImportFormatError(f"{path}: no chat files found in the folder")
            for walked in walked_files:
                found.update(dict.fromkeys(manifest.listed_zips(walked) or [walked]))
        elif path == "-":
            found.setdefault(path)
        elif os.path.exists(path):
            # A multi-part download's manifest stands for its zips (each read once).
            found.update(dict.fromkeys(manifest.listed_zips(path) or [path]))
        else:
            raise ImportFormatError(f"{path}: no such file or directory")
    return list(found)


def _walk(top: str) -> list[str]:
    """Files under a directory that an importer may read, sorted; hidden ones are passed over."""
    files: list[tuple[tuple[str, ...], str]] = []
    for folder, dirs, names in os.walk(top):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        rel = os.path.relpath(folder, top)
        parts = () if rel == "." else tuple(rel.split(os.sep))
        for name in names:
            if name.startswith(".") or (name.lower() in zipped.COMPANIONS
                                        and not _claude_memory(os.path.join(folder, name))):
                continue
            path = os.path.join(folder, name)
            if os.path.splitext(name)[1].lower() in EXTENSIONS or _sniffed(path, name):
                files.append(((*parts, name), path))
    return [path for _, path in sorted(files)]


def _claude_memory(path: str) -> bool:
    """Whether a companion file is Claude's memories.json, which holds what Claude kept about
    the user."""
    if os.path.basename(path).lower() != zipped.MEMORIES:
        return False
    try:
        with open(path, "rb") as f:
            return zipped.holds_memory(f.read(1 << 16))
    except OSError:
        return False


def _sniffed(path: str, name: str) -> bool:
    """Read files that only their content shows to hold chats: Takeout activity pages, AI Studio
    prompts (no extension), and llm's logs.db among other SQLite databases."""
    ext = sniff.extension(name)
    if ext in sqlite_file.EXTENSIONS:
        return llm_db.may_be_log(path)
    if ext not in ("", ".html", ".htm"):
        return False
    size = sniff.PAGE_SNIFF if ext else sniff.PROMPT_SNIFF
    try:
        with open(path, "rb") as fh:
            head = fh.read(size)
    except OSError:
        return False
    return sniff.is_takeout_page(head) if ext else sniff.is_ai_studio_prompt(head)


def _why(skipped: list[Skipped]) -> str:
    if not skipped:
        return ""
    more = f", and {len(skipped) - 1} more skipped" if len(skipped) > 1 else ""
    return f" ({skipped[0].reason}{more})"
