"""Records lost to a torn JSONL line: read what the torn bytes still say, and arrange that the
next `nemori ingest` or `nemori backfill` re-creates them under their deterministic ids."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nemori_cli.ops.doctor_files import ParsedFile, read_file
from nemori_cli.store.jsonl import JsonlFile

_ID = re.compile(rb'^\s*\{"id":"([^"\\]+)"')
_CONVERSATION = re.compile(rb'"conversation_id":"([^"\\]+)"')
_SOURCES = re.compile(rb'"source_episode_ids":\[([^\]]*)')
_QUOTED = re.compile(rb'"([^"\\]*)("?)')
MIN_PREFIX = 6  # characters of a cut-off id that must survive for it to name an episode


@dataclass(frozen=True)
class TornRecord:
    """What a torn record line still tells: its id, and what it came from."""

    id: str | None
    conversation_id: str | None  # an episode's
    source_parts: tuple[tuple[str, bool], ...]  # a fact's source episode ids, (text, complete)
    preview: str

    def label(self, kind: str) -> str:
        return f"{kind} {self.id!r}" if self.id else f"a {kind} ({self.preview!r}...)"


def read_torn(line: bytes) -> TornRecord:
    """Read the fields a torn line still holds whole (ids come first in every nemori record)."""
    found_id = _ID.match(line)
    conv = _CONVERSATION.search(line)
    sources = _SOURCES.search(line)
    parts = tuple(
        (m.group(1).decode("utf-8", "replace"), bool(m.group(2)))
        for m in _QUOTED.finditer(sources.group(1) if sources else b"")
        if m.group(1)
    )
    return TornRecord(
        id=found_id.group(1).decode("utf-8", "replace") if found_id else None,
        conversation_id=conv.group(1).decode("utf-8", "replace") if conv else None,
        source_parts=parts,
        preview=line[:60].decode("utf-8", "replace"),
    )


def restore_lost(parsed: ParsedFile, lock_timeout: float) -> list[str]:
    """For each torn episode or fact line just removed, make the next run re-create it.

    A lost episode: its conversation is dropped from ingested.jsonl, so `nemori ingest` of its
    file imports it again. A lost fact: its source episodes go back to pending extraction, so
    `nemori backfill` (or the next ingest) extracts it again. Return one line per record.
    """
    if parsed.name not in ("episodes", "facts") or not parsed.bad_lines:
        return []
    folder = parsed.path.parent
    torn = [read_torn(line) for _, line in parsed.bad_lines]
    if parsed.name == "episodes":
        return _forget_conversations(folder, torn, lock_timeout)
    return _reopen_extraction(folder, torn, lock_timeout)


def _forget_conversations(folder: Path, torn: list[TornRecord], lock_timeout: float) -> list[str]:
    ingested = read_file(folder, "ingested")
    episodes = read_file(folder, "episodes").records
    covered = {m for e in episodes for m in e.get("message_ids") or ()}
    logged = [r for r in ingested.records if r.get("kind") != "file"]
    out: list[str] = []
    drop: set[str] = set()
    for t in torn:
        if t.conversation_id is not None:
            convs = {t.conversation_id}
        else:  # the conversations some of whose messages no episode holds any more
            convs = {r["conversation_id"] for r in logged if set(r["message_ids"]) - covered}
        sources = sorted({r.get("source") or "?" for r in logged if r["conversation_id"] in convs})
        drop |= convs
        if sources:
            files = ", ".join(sources)
            out.append(f"{t.label('episode')} lost: re-run `nemori ingest {files}` to restore it")
        else:
            out.append(f"{t.label('episode')} lost: its conversation cannot be told")
    gone_sources = {r.get("source") for r in logged if r["conversation_id"] in drop}
    kept = [
        r
        for r in ingested.records
        if not (r.get("kind") == "file" and r.get("source") in gone_sources)
        and not (r.get("kind") != "file" and r["conversation_id"] in drop)
    ]
    if len(kept) < len(ingested.records) and not ingested.bad_lines:
        JsonlFile(ingested.path, lock_timeout=lock_timeout).rewrite(kept)
    return out


def _reopen_extraction(folder: Path, torn: list[TornRecord], lock_timeout: float) -> list[str]:
    episodes = read_file(folder, "episodes")
    by_id = episodes.latest()
    out: list[str] = []
    reopen: dict[str, dict[str, Any]] = {}
    for t in torn:
        found = [_episode_named(text, complete, by_id) for text, complete in t.source_parts]
        ids = sorted({i for i in found if i is not None})
        if ids:
            reopen.update({i: _pending(by_id[i]) for i in ids})
            out.append(
                f"{t.label('fact')} lost: run `nemori backfill` to extract it again "
                f"from {len(ids)} episode(s)"
            )
        else:
            out.append(f"{t.label('fact')} lost: its source episodes cannot be read")
    if reopen and not episodes.bad_lines:
        JsonlFile(episodes.path, lock_timeout=lock_timeout).upsert(list(reopen.values()))
    return out


def _episode_named(text: str, complete: bool, episodes: dict[str, Any]) -> str | None:
    """The episode an id names; a cut-off id names the one episode it begins, if only one."""
    if complete:
        return text if text in episodes else None
    if len(text) < MIN_PREFIX:
        return None
    matches = [i for i in episodes if i.startswith(text)]
    return matches[0] if len(matches) == 1 else None


def _pending(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "extraction": {**(record.get("extraction") or {}), "status": "pending"}}
