"""Doctor checks over one user's JSONL files: JSON validity, unique ids, dangling references."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import orjson

from nemori_cli.errors import StoreError
from nemori_cli.models import Episode, Fact, to_iso, utcnow
from nemori_cli.store.files import FILE_MODE
from nemori_cli.store.jsonl import JsonlFile

FILES = ("ingested", "episodes", "facts")  # the import log whole before episodes use it


@dataclass
class ParsedFile:
    """A JSONL file read line by line: its good records, in order, and its bad lines."""

    name: str
    path: Path
    records: list[dict[str, Any]] = field(default_factory=list)
    bad_lines: list[tuple[int, bytes]] = field(default_factory=list)  # (line number, raw line)

    def duplicate_ids(self) -> dict[str, int]:
        """Ids stored on more than one line, with their line counts."""
        counts: dict[str, int] = {}
        for r in self.records:
            if "id" in r:
                counts[r["id"]] = counts.get(r["id"], 0) + 1
        return {i: n for i, n in counts.items() if n > 1}

    def latest(self) -> dict[str, dict[str, Any]]:
        """The records by id, each at its first position with its last value (as reads see it)."""
        out: dict[str, dict[str, Any]] = {}
        for r in self.records:
            out[r["id"]] = r
        return out


def _valid_episode(d: dict[str, Any]) -> bool:
    Episode.from_dict(d)
    return isinstance(d.get("id"), str) and bool(d["id"])


def _valid_fact(d: dict[str, Any]) -> bool:
    Fact.from_dict(d)
    return isinstance(d.get("id"), str) and bool(d["id"])


def _valid_ingested(d: dict[str, Any]) -> bool:
    if d.get("kind") == "file":
        return isinstance(d.get("sha256"), str)
    return isinstance(d.get("conversation_id"), str) and isinstance(d.get("message_ids"), list)


VALIDATORS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "episodes": _valid_episode,
    "facts": _valid_fact,
    "ingested": _valid_ingested,
}


def read_file(folder: Path, name: str) -> ParsedFile:
    """Read users/<id>/<name>.jsonl without repairing anything; sort good lines from bad."""
    path = folder / f"{name}.jsonl"
    parsed = ParsedFile(name, path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return parsed
    valid = VALIDATORS[name]
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
            ok = isinstance(record, dict) and valid(record)
        except Exception:  # any way a line can fail to be a record is a bad line
            ok = False
        if ok:
            parsed.records.append(record)
        else:
            parsed.bad_lines.append((number, line))
    return parsed


def file_problems(parsed: ParsedFile) -> list[str]:
    """Describe what is wrong with one file, one line per problem."""
    out = []
    if parsed.bad_lines:
        numbers = ", ".join(str(n) for n, _ in parsed.bad_lines[:5])
        more = "..." if len(parsed.bad_lines) > 5 else ""
        out.append(
            f"{parsed.path}: {len(parsed.bad_lines)} line(s) are not valid records "
            f"(line {numbers}{more})"
        )
    dups = parsed.duplicate_ids()
    if dups:
        first = next(iter(dups))
        out.append(f"{parsed.path}: {len(dups)} id(s) stored more than once (e.g. {first!r})")
    return out


def repair_file(parsed: ParsedFile, lock_timeout: float) -> list[str]:
    """Drop bad lines (kept aside in <file>.rejected) and duplicates (keeping the last)."""
    dups = parsed.duplicate_ids()
    if not parsed.bad_lines and not dups:
        return []
    if parsed.bad_lines:
        _keep_aside(parsed)
    records = list(parsed.latest().values()) if parsed.name != "ingested" else parsed.records
    JsonlFile(parsed.path, lock_timeout=lock_timeout).rewrite(records)
    done = []
    if parsed.bad_lines:
        done.append(
            f"{parsed.path}: removed {len(parsed.bad_lines)} bad line(s), "
            f"kept in {parsed.path.name}.rejected"
        )
    if dups:
        done.append(f"{parsed.path}: removed duplicate lines of {len(dups)} id(s), kept the last")
    return done


def _keep_aside(parsed: ParsedFile) -> None:
    """Append bad lines to <file>.rejected, so a repair never destroys what it cannot read."""
    target = parsed.path.with_name(parsed.path.name + ".rejected")
    header = f"# removed by nemori doctor at {to_iso(utcnow())}\n".encode()
    payload = header + b"".join(line + b"\n" for _, line in parsed.bad_lines)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE)
        try:
            os.write(fd, payload)
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:  # then the bad lines stay where they are: nothing is rewritten
        raise StoreError(f"{target}: cannot write: {exc.strerror}") from None


@dataclass(frozen=True)
class References:
    """Facts whose sources are gone: orphans (none left), trimmed ones, broken supersessions."""

    orphans: list[str]
    trimmed: list[Fact]
    unsuperseded: list[Fact]

    @property
    def any(self) -> bool:
        return bool(self.orphans or self.trimmed or self.unsuperseded)


def check_references(episodes: dict[str, Episode], facts: dict[str, Fact]) -> References:
    """Find facts pointing at episodes (or superseding facts) that no longer exist."""
    orphans: list[str] = []
    trimmed: dict[str, Fact] = {}
    for f in facts.values():
        if not f.source_episode_ids:
            continue
        kept = tuple(e for e in f.source_episode_ids if e in episodes)
        if not kept:
            orphans.append(f.id)
        elif len(kept) < len(f.source_episode_ids):
            trimmed[f.id] = replace(f, source_episode_ids=kept)
    gone = set(orphans)
    unsuperseded = []
    for f in facts.values():
        if f.id in gone or f.superseded_by is None:
            continue
        if f.superseded_by not in facts or f.superseded_by in gone:
            unsuperseded.append(replace(trimmed.get(f.id, f), superseded_by=None))
            trimmed.pop(f.id, None)
    return References(orphans, list(trimmed.values()), unsuperseded)


def reference_problems(refs: References) -> list[str]:
    """Describe the broken references, one line each."""
    out = []
    if refs.orphans:
        out.append(
            f"{len(refs.orphans)} fact(s) have lost all their source episodes "
            f"(e.g. {refs.orphans[0]!r})"
        )
    if refs.trimmed:
        out.append(
            f"{len(refs.trimmed)} fact(s) name source episodes that are gone "
            f"(e.g. {refs.trimmed[0].id!r})"
        )
    if refs.unsuperseded:
        out.append(
            f"{len(refs.unsuperseded)} fact(s) are superseded by a fact that is gone "
            f"(e.g. {refs.unsuperseded[0].id!r})"
        )
    return out
