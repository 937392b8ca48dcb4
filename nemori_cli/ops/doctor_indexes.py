"""Doctor checks of the indexes against the JSONL: ids missing, extra or stale in each."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from nemori_cli.indexing import episode_texts, fact_text, index_records, turn_docs, turn_episode
from nemori_cli.models import KINDS, Episode, Fact, Kind
from nemori_cli.ops.heal import damaged_stores, move_aside_damaged
from nemori_cli.parts import Parts
from nemori_cli.store.vector_index import text_digest


@dataclass
class Drift:
    """How one kind's indexes differ from the JSONL."""

    kind: Kind
    mismatch: str | None = None  # the vector index was built with another embedder
    missing: set[str] = field(default_factory=set)  # in JSONL, not in Chroma
    extra: set[str] = field(default_factory=set)  # in Chroma, not in JSONL
    stale: set[str] = field(default_factory=set)  # in both, but Chroma indexed other text
    lexical_missing: set[str] = field(default_factory=set)
    lexical_extra: set[str] = field(default_factory=set)
    lexical_duplicates: int = 0
    copy: str | None = None  # how the flat copy of the vectors differs from Chroma

    @property
    def vectors_drift(self) -> bool:
        return bool(self.mismatch or self.missing or self.extra or self.stale)

    @property
    def any(self) -> bool:
        return self.vectors_drift or self.lexical_drift or self.copy is not None

    @property
    def lexical_drift(self) -> bool:
        return bool(self.lexical_missing or self.lexical_extra or self.lexical_duplicates)

    def problems(self) -> list[str]:
        """Describe the drift, one line per index."""
        out = []
        if self.mismatch:
            out.append(f"{self.kind} vector index: {self.mismatch}")
        elif self.missing or self.extra or self.stale:
            out.append(
                f"{self.kind} vector index (Chroma): {_ids('missing', self.missing)}, "
                f"{_ids('extra', self.extra)}, {_ids('out of date', self.stale)}"
            )
        if self.copy and not self.mismatch:
            out.append(f"{self.kind} vector index (flat copy for search): {self.copy}")
        if self.lexical_drift:
            out.append(
                f"{self.kind} lexical index (bm25s): {_ids('missing', self.lexical_missing)}, "
                f"{_ids('extra', self.lexical_extra)}, {self.lexical_duplicates} duplicate(s)"
            )
        return out


def _ids(label: str, ids: set[str]) -> str:
    if not ids:
        return f"0 {label}"
    return f"{len(ids)} {label} (e.g. {sorted(ids)[0]!r})"


def _expected_docs(kind: Kind, records: Sequence[Episode | Fact]) -> dict[str, dict[str, str]]:
    """record id -> {doc id: text_digest of its text} that a fresh index would hold."""
    out: dict[str, dict[str, str]] = {r.id: {} for r in records}
    if kind == "fact":
        for r in records:
            out[r.id][r.id] = text_digest(fact_text(r))  # type: ignore[arg-type]
        return out
    docs = episode_texts(records)  # type: ignore[arg-type]
    for doc_id, text, meta in zip(docs.ids, docs.documents, docs.metadatas, strict=True):
        out[meta["record_id"]][doc_id] = text_digest(text)
    return out


def _fact_meta_ok(fact: Fact, meta: dict[str, Any]) -> bool:
    return (
        bool(meta.get("superseded")) == (fact.superseded_by is not None)
        and meta.get("category") == fact.category
    )


def check_drift(parts: Parts, user: str, kind: Kind, records: dict[str, Any]) -> Drift:
    """Compare one kind's Chroma documents and bm25s doc ids with the JSONL records."""
    drift = Drift(kind)
    vectors = parts.vectors(user)
    built, dim = vectors.built_with(kind)
    ours, our_dim = parts.embedder.model_id, int(parts.embedder.dim)
    if built != ours or dim != our_dim:
        drift.mismatch = f"built with {built} (dim {dim}) but nemori uses {ours} (dim {our_dim})"
    actual: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {}
    documents = vectors.documents(kind)
    for doc_id, (text, meta) in documents.items():
        actual.setdefault(str(meta.get("record_id", doc_id)), {})[doc_id] = (text, meta)
    drift.copy = vectors.copy_problem(kind, documents.keys()) or vectors.sample_problem(kind)
    expected = _expected_docs(kind, list(records.values()))
    drift.missing = set(expected) - set(actual)
    drift.extra = set(actual) - set(expected)
    for rid in set(expected) & set(actual):
        have = actual[rid]
        texts_differ = {d: t for d, (t, _) in have.items()} != expected[rid]
        if texts_differ or (kind == "fact" and not _fact_meta_ok(records[rid], have[rid][1])):
            drift.stale.add(rid)
    lex_ids = parts.lexical(kind, user).doc_ids()
    drift.lexical_duplicates = len(lex_ids) - len(set(lex_ids))
    drift.lexical_missing = set(records) - set(lex_ids)
    drift.lexical_extra = set(lex_ids) - set(records)
    if kind == "episode":  # the turn index: every episode with words has turns in it
        turned = {turn_episode(d) for d in parts.turns(user).doc_ids()}
        worded = {r.id for r in records.values() if turn_docs(r)}
        drift.lexical_missing |= worded - turned
        drift.lexical_extra |= turned - set(records)
    return drift


def repair_drift(
    parts: Parts, user: str, drift: Drift, records: dict[str, Any], *, rebuild: bool = False
) -> list[str]:
    """Bring one kind's indexes back in line with the JSONL, embedding only what is needed.

    rebuild=True rebuilds the lexical index and the flat copy of the vectors even when their ids
    match: after a crash, a record's text may have changed without its id changing.
    """
    done: list[str] = []
    vectors = parts.vectors(user)
    kind = drift.kind
    if drift.vectors_drift:
        if drift.mismatch:
            vectors.reset(kind)
            redo = set(records)
        else:
            vectors.delete(kind, drift.extra | drift.stale)
            redo = drift.missing | drift.stale
        todo = [r for rid, r in records.items() if rid in redo]
        index_records(vectors, parts.embedder, kind, todo)
        done.append(
            f"{kind} vector index: rebuilt for the embedder in use, {len(todo)} record(s)"
            if drift.mismatch
            else f"{kind} vector index: indexed {len(todo)} record(s) ({len(drift.stale)} out "
            f"of date), removed {len(drift.extra)} the JSONL no longer holds"
        )
    if drift.vectors_drift or drift.copy or rebuild:
        vectors.rebuild_copy(kind)
        if drift.copy:
            done.append(f"{kind} vector index: rebuilt the flat copy from Chroma")
    if drift.lexical_drift or rebuild:
        parts.rebuild_lexical(kind, user)
        done.append(f"{kind} lexical index: rebuilt from {len(records)} record(s)")
    return done


def check_all(parts: Parts, user: str) -> list[Drift]:
    """Check both kinds' indexes of one user."""
    repo = parts.repo(user)
    tables: dict[str, dict[str, Any]] = {"episode": repo.episodes.all(), "fact": repo.facts.all()}
    return [check_drift(parts, user, kd, tables[kd]) for kd in KINDS]


def repair_indexes(parts: Parts, user: str) -> list[str]:
    """Bring every index of a user in line with the JSONL after an interrupted write."""
    repo = parts.repo(user)
    with parts.writing(user):
        leftovers = parts.marker(user).leftovers()
        done = move_aside_damaged(parts, user)
        tables: dict[str, dict[str, Any]] = {
            "episode": repo.episodes.all(),
            "fact": repo.facts.all(),
        }
        for drift in check_all(parts, user):
            done.extend(repair_drift(parts, user, drift, tables[drift.kind], rebuild=True))
        for path in leftovers:
            path.unlink(missing_ok=True)
    return done


def ensure_indexes(parts: Parts, user: str | None = None, *, probe: bool = False) -> None:
    """Repair what an interrupted write (or a read that found damage) left, before reading.

    Only markers of writers that are gone count: a live writer finishes its own indexes.
    probe=True (an ingest) also looks for derived stores that cannot be read.
    """
    uid = parts.user_id(user)
    if parts.marker(uid).leftovers():
        parts.progress.note(
            "the indexes were left behind (an interrupted write, or damage a search found): "
            "bringing them up to date"
        )
    elif not (probe and parts.repo(uid).folder.is_dir() and needs_repair(parts, uid)):
        return
    for line in repair_indexes(parts, uid):
        if "moved aside" in line:
            parts.progress.note(line)
    # the repair wrote, and a writer reads Chroma's HNSW index: this search reads the flat
    # copy just rebuilt, as every search after it does, so both give the same hits
    parts.reopen_vectors(uid)


def needs_repair(parts: Parts, user: str) -> bool:
    """Whether a derived store cannot be read, or a vector index is empty beside records."""
    if damaged_stores(parts, user):
        return True
    repo = parts.repo(user)
    tables = {"episode": repo.episodes.lookup(), "fact": repo.facts.lookup()}
    return any(tables[kd] and not parts.vectors(user).count(kd) for kd in KINDS)
