"""Export a user's whole store (JSONL, JSON or markdown) and restore an export verbatim.

An export carries the import log too (what was imported, including the messages of records
deleted since), so a store restored from it skips those messages on re-import as the original
does: a deleted chat stays deleted.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson

from nemori_cli.errors import ImportFormatError, NotFound, UsageError
from nemori_cli.indexing import EPISODE_BATCH, FACT_BATCH, index_records
from nemori_cli.models import Episode, Fact, to_iso, utcnow
from nemori_cli.ops.records import list_episodes, list_facts
from nemori_cli.parts import Parts
from nemori_cli.store.repository import Repository
from nemori_cli.store.users import list_users

EXPORT_VERSION = 2  # 2 added the import log; version 1 exports still restore
READABLE_VERSIONS = (1, 2)
FORMATS = ("jsonl", "json", "markdown")
_SNIFF_BYTES = 512
_HEADER_RE = re.compile(rb'^\s*\{\s*"nemori_export"\s*:')


# --- export ------------------------------------------------------------------------------


def export_user(parts: Parts, user: str | None = None, format: str = "jsonl") -> Iterator[str]:
    """Return the chunks of text that make up the export of one user's store.

    Checks the format and the user before anything is produced, so a caller can open its
    output only once the export is known to work.
    """
    if format not in FORMATS:
        raise UsageError(f"unknown export format {format!r}: use {', '.join(FORMATS)}")
    uid = parts.user_id(user)
    users = list_users(parts.data_dir)
    if uid not in users:
        known = ", ".join(users) if users else "none yet (run `nemori ingest` first)"
        raise NotFound(f"no user {uid!r} in {parts.data_dir}; users: {known}")
    episodes = list_episodes(parts, uid)
    facts = list_facts(parts, uid, include_superseded=True)
    log = parts.repo(uid).import_log()
    header = {
        "nemori_export": EXPORT_VERSION,
        "user": uid,
        "exported_at": to_iso(utcnow()),
        "embed_model": parts.embedder.model_id,
        "episodes": len(episodes),
        "facts": len(facts),
        "ingested": len(log),
    }
    if format == "jsonl":
        return _jsonl(header, episodes, facts, log)
    if format == "json":
        return _json(header, episodes, facts, log)
    return _markdown(header, episodes, facts)


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj).decode()


Log = list[dict[str, Any]]  # import log entries, as users/<id>/ingested.jsonl holds them


def _jsonl(
    header: dict[str, Any], episodes: list[Episode], facts: list[Fact], log: Log
) -> Iterator[str]:
    yield _dumps(header) + "\n"
    for ep in episodes:
        yield _dumps({"type": "episode", **ep.to_dict()}) + "\n"
    for fact in facts:
        yield _dumps({"type": "fact", **fact.to_dict()}) + "\n"
    for entry in log:
        yield _dumps({"type": "ingested", **entry}) + "\n"


def _json(
    header: dict[str, Any], episodes: list[Episode], facts: list[Fact], log: Log
) -> Iterator[str]:
    # Streamed piece by piece (one record a line) rather than built as one string in parts.
    head = {k: v for k, v in header.items() if k not in _LISTS}
    yield _dumps(head)[:-1] + ',\n"episodes": ['
    for i, ep in enumerate(episodes):
        yield ("," if i else "") + "\n" + _dumps(ep.to_dict())
    yield '\n],\n"facts": ['
    for i, fact in enumerate(facts):
        yield ("," if i else "") + "\n" + _dumps(fact.to_dict())
    yield '\n],\n"ingested": ['
    for i, entry in enumerate(log):
        yield ("," if i else "") + "\n" + _dumps(entry)
    yield "\n]}\n"


def _when(value: Any) -> str:
    return value.strftime("%Y-%m-%d %H:%M UTC") if value is not None else "undated"


def _quote(text: str) -> str:
    return "\n".join(f"> {line}" if line.strip() else ">" for line in text.strip().splitlines())


_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


def markdown_lines(text: str) -> str:
    """Text as markdown that keeps its line breaks and never leaves a code fence open.

    A narrative line is a speaker's turn: each ends in a hard break, so they do not run into one
    paragraph. A fence cut short (a long message cut inside its code) is closed at the end, and
    a stray ``` inside a line is escaped, so the rest of the document stays prose.
    """
    out: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        m = _FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            out.append(line)
        elif fence is not None:
            out.append(line)
            if m and m.group(1).startswith(fence):
                fence = None
        elif line.strip():
            out.append(line.replace("```", "\\`\\`\\`").rstrip() + "  ")
        else:
            out.append("")
    if fence is not None:
        out.append(fence)
    return "\n".join(out)


def _markdown(header: dict[str, Any], episodes: list[Episode], facts: list[Fact]) -> Iterator[str]:
    yield f"# Memory of {header['user']}\n\n"
    yield (
        f"Exported {header['exported_at']} by nemori: {len(episodes)} episodes, "
        f"{len(facts)} facts.\n\n"
    )
    yield "## Episodes\n\n"
    for ep in episodes:
        yield _markdown_episode(ep)
    yield "## Facts\n\n"
    titles = {ep.id: ep.title for ep in episodes}
    by_category: dict[str, list[Fact]] = {}
    for fact in facts:
        by_category.setdefault(fact.category, []).append(fact)
    for category, group in sorted(by_category.items()):
        yield f"### {category}\n\n"
        for fact in group:
            yield _markdown_fact(fact, titles)
        yield "\n"


def _markdown_episode(ep: Episode) -> str:
    lines = [
        f"### {ep.title or '(untitled)'}",
        "",
        f"*{_when(ep.timestamp)} · conversation `{ep.conversation_id}` · episode `{ep.id}`*",
        "",
        markdown_lines(ep.content.strip()),
        "",
    ]
    if ep.messages:
        lines += ["Messages:", ""]
        for m in ep.messages:
            stamp = f" · {_when(m.timestamp)}" if m.timestamp else ""
            lines += [f"**{m.speaker}**{stamp} (`{m.id}`)", "", _quote(m.content), ""]
    return "\n".join(lines) + "\n"


def _markdown_fact(fact: Fact, titles: dict[str, str]) -> str:
    sources = ", ".join(
        f'"{titles[e]}" (`{e}`)' if e in titles else f"`{e}`" for e in fact.source_episode_ids
    )
    details = [f"from {sources or 'no episode'}"]
    if fact.source_message_ids:
        details.append("messages " + ", ".join(f"`{m}`" for m in fact.source_message_ids))
    if fact.valid_from:
        details.append(f"since {_when(fact.valid_from)}")
    details.append(f"confidence {fact.confidence:g}")
    details.append(f"by {fact.extractor}")
    if fact.superseded_by:
        details.append(f"superseded by `{fact.superseded_by}`")
    return f"- {fact.dated_content.strip()} (`{fact.id}`)\n  - {'; '.join(details)}\n"


# --- restore -----------------------------------------------------------------------------


def is_export(path: str | Path) -> bool:
    """Tell whether a file is a nemori export (JSON or JSONL), from its first bytes."""
    if str(path) == "-":
        return False
    try:
        with open(path, "rb") as fh:
            head = fh.read(_SNIFF_BYTES)
    except OSError:
        return False
    return bool(_HEADER_RE.match(head.removeprefix(b"\xef\xbb\xbf")))


def read_export(path: str | Path) -> tuple[dict[str, Any], list[Episode], list[Fact]]:
    """Parse a JSON or JSONL export into its header, episodes and facts (validating all)."""
    header, episodes, facts, _ = read_export_log(path)
    return header, episodes, facts


def read_export_log(path: str | Path) -> tuple[dict[str, Any], list[Episode], list[Fact], Log]:
    """Parse an export into its header, episodes, facts and import log (validating all)."""
    try:
        data = Path(path).read_bytes().removeprefix(b"\xef\xbb\xbf")
    except OSError as exc:
        raise ImportFormatError(f"{path}: cannot read: {exc.strerror}") from None
    first, _, rest = data.partition(b"\n")
    try:
        header = orjson.loads(first)
    except orjson.JSONDecodeError:
        header = None
    # A JSONL header counts its records; a JSON document (even on one line) holds them.
    if isinstance(header, dict) and not isinstance(header.get("episodes"), list):
        rows = _jsonl_rows(path, rest)
    else:
        header, rows = _json_rows(path, data)
    version = header.get("nemori_export")
    if version not in READABLE_VERSIONS:
        raise ImportFormatError(
            f"{path}: nemori export version {version!r} is not supported "
            f"(this nemori reads versions {READABLE_VERSIONS[0]} to {READABLE_VERSIONS[-1]})"
        )
    episodes: list[Episode] = []
    facts: list[Fact] = []
    log: Log = []
    for where, kind, d in rows:
        try:
            if kind == "episode":
                episodes.append(Episode.from_dict(d))
            elif kind == "fact":
                facts.append(Fact.from_dict(d))
            elif kind == "ingested":
                log.append(_log_entry(d))
            else:
                raise ImportFormatError(f"{path}: {where}: unknown record type {kind!r}")
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ImportFormatError(f"{path}: {where}: invalid {kind} ({exc!r})") from None
    # A JSONL header counts its records, so a file cut short is caught before it is stored.
    expected = (header.get("episodes"), header.get("facts"), header.get("ingested", len(log)))
    found = (len(episodes), len(facts), len(log))
    if all(isinstance(n, int) for n in expected) and expected != found:
        raise ImportFormatError(
            f"{path}: incomplete export: the header promises {expected[0]} episodes, "
            f"{expected[1]} facts and {expected[2]} import log entries, the file holds "
            f"{found[0]}, {found[1]} and {found[2]}"
        )
    return header, episodes, facts, log


def _log_entry(d: dict[str, Any]) -> dict[str, Any]:
    """An import log entry of an export, checked: a file's hash, or a chat's message ids."""
    entry = {k: v for k, v in d.items() if k != "type"}
    ids = entry.get("message_ids")
    if entry.get("kind") == "file" and isinstance(entry.get("sha256"), str):
        return entry
    if (
        entry.get("kind") == "conversation"
        and isinstance(entry.get("conversation_id"), str)
        and isinstance(ids, list)
        and all(isinstance(i, str) for i in ids)
    ):
        return entry
    raise ValueError("neither a file's sha256 nor a conversation's message_ids")


Row = tuple[str, Any, dict[str, Any]]  # (where in the file, record type, record)
_LISTS = ("episodes", "facts", "ingested")  # a JSON export's lists (a JSONL header's counts)


def _jsonl_rows(path: str | Path, body: bytes) -> list[Row]:
    rows: list[Row] = []
    for lineno, line in enumerate(body.splitlines(), start=2):
        if not line.strip():
            continue
        try:
            d = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise ImportFormatError(f"{path}: line {lineno}: invalid JSON ({exc})") from None
        if not isinstance(d, dict):
            raise ImportFormatError(f"{path}: line {lineno}: expected a JSON object")
        rows.append((f"line {lineno}", d.get("type"), d))
    return rows


def _json_rows(path: str | Path, data: bytes) -> tuple[dict[str, Any], list[Row]]:
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise ImportFormatError(f"{path}: not a valid nemori export: {exc}") from None
    if not isinstance(doc, dict) or "nemori_export" not in doc:
        raise ImportFormatError(f"{path}: not a nemori export (no nemori_export header)")
    rows: list[Row] = []
    for key, kind in (("episodes", "episode"), ("facts", "fact"), ("ingested", "ingested")):
        records = doc.get(key, [])
        if not isinstance(records, list):
            raise ImportFormatError(f"{path}: {key!r} must be a list")
        for i, d in enumerate(records, start=1):
            if not isinstance(d, dict):
                raise ImportFormatError(f"{path}: {kind} {i}: expected a JSON object")
            rows.append((f"{kind} {i}", kind, d))
    return {k: v for k, v in doc.items() if k not in _LISTS}, rows


def restore_file(parts: Parts, path: str | Path, user: str | None = None) -> dict[str, Any]:
    """Store the episodes and facts of an export as they are, log their messages, index them.

    Records keep their ids, times and provenance; only user_id becomes the target user. An
    export already restored for this user (the same bytes) is skipped: "skipped" says so.
    """
    uid = parts.user_id(user)
    _, episodes, facts, log = read_export_log(path)
    sha256 = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    report: dict[str, Any] = {"path": str(path), "user": uid, "skipped": False}
    if sha256 in parts.repo(uid).ingested()[0]:
        zero = dict.fromkeys(("conversations", "messages", "episodes", "facts"), 0)
        return {**report, **zero, "skipped": True}
    episodes = [replace(e, user_id=uid) for e in episodes]
    facts = [replace(f, user_id=uid) for f in facts]
    task = parts.progress.task("Restoring", total=len(episodes) + len(facts))
    with parts.writing(uid) as repo:
        vectors = parts.vectors(uid)
        vectors.delete("episode", [e.id for e in episodes if repo.episodes.get(e.id)])
        vectors.delete("fact", [f.id for f in facts if repo.facts.get(f.id)])
        for chunk in _batches(episodes, EPISODE_BATCH):
            repo.episodes.upsert(chunk)
            repo.mark_ingested(
                (e.conversation_id, e.message_ids, str(path)) for e in chunk if e.message_ids
            )
            index_records(vectors, parts.embedder, "episode", chunk, advance=task.advance)
        for fchunk in _batches(facts, FACT_BATCH):
            repo.facts.upsert(fchunk)
            index_records(vectors, parts.embedder, "fact", fchunk, advance=task.advance)
        _restore_log(repo, log)
        repo.mark_file(str(path), sha256)
        parts.rebuild_lexical("episode", uid)
        parts.rebuild_lexical("fact", uid)
    task.close()
    return {
        **report,
        "conversations": len({e.conversation_id for e in episodes}),
        "messages": sum(len(e.message_ids) for e in episodes),
        "episodes": len(episodes),
        "facts": len(facts),
    }


def _restore_log(repo: Repository, log: Log) -> None:
    """Log as imported what the exported store had imported (deleted records' messages too)."""
    repo.mark_ingested(
        (e["conversation_id"], e["message_ids"], e.get("source"))
        for e in log
        if e["kind"] == "conversation"
    )
    for e in log:
        if e["kind"] == "file":
            repo.mark_file(str(e.get("source") or ""), e["sha256"])


def _batches(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
