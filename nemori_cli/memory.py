"""Memory: the one service object that the CLI, scripts, tests and benchmarks use."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nemori_cli.config import Settings, load_settings, validate_user_id
from nemori_cli.errors import NotFound, UsageError
from nemori_cli.models import KINDS, Episode, Fact, Kind, SearchHit
from nemori_cli.progress import NullProgress, Progress
from nemori_cli.search.fusion import SearchFilters, accepts, fuse, to_hit
from nemori_cli.store.activity import DirtyMarker
from nemori_cli.store.repository import Repository

if TYPE_CHECKING:
    from nemori_cli.embed import Embedder
    from nemori_cli.ops.run_summary import IngestSummary
    from nemori_cli.pipeline.base import Extractor
    from nemori_cli.store.lexical import LexicalIndex
    from nemori_cli.store.vector_index import VectorIndex

REFINE_POOL = 50  # fused hits reranked by their own match (see focus.py) before the cut to k


class Memory:
    """A person's memory: import chats, search them, and manage what is stored."""

    def __init__(self, settings: Settings, *, progress: Progress | None = None) -> None:
        self.settings = settings
        self.progress: Progress = progress or NullProgress()
        self._repos: dict[str, Repository] = {}
        self._vectors: dict[str, VectorIndex] = {}
        self._lexical: dict[tuple[str, Kind], LexicalIndex] = {}
        self._markers: dict[str, DirtyMarker] = {}

    @classmethod
    def open(cls, progress: Progress | None = None, **overrides: Any) -> Memory:
        """Build a Memory from defaults, config file, environment and these overrides."""
        return cls(load_settings(overrides), progress=progress)

    # --- components, built on first use -------------------------------------------------

    @property
    def data_dir(self) -> Path:
        return self.settings.data_dir

    def user_id(self, user: str | None = None) -> str:
        """Return the validated user id (the settings' user when none is given)."""
        return validate_user_id(user or self.settings.user)

    @cached_property
    def embedder(self) -> Embedder:
        from nemori_cli.embed import make_embedder

        return make_embedder(self.settings)

    @cached_property
    def extractor(self) -> Extractor:
        """The extractor new records are made by: the LLM when one is configured."""
        from nemori_cli.pipeline.offline import OfflineExtractor

        if self.settings.llm_model:
            from nemori_cli.pipeline.llm_extractor import LLMExtractor

            return LLMExtractor(self.settings, self.embedder.embed)
        return OfflineExtractor(self.settings, self.embedder.embed)

    def repo(self, user: str | None = None) -> Repository:
        uid = self.user_id(user)
        if uid not in self._repos:
            self._repos[uid] = Repository(
                self.data_dir, uid, lock_timeout=self.settings.lock_timeout
            )
        return self._repos[uid]

    def vectors(self, user: str | None = None) -> VectorIndex:
        uid = self.user_id(user)
        if uid not in self._vectors:
            from nemori_cli.store.open_index import open_vector_index

            self._vectors[uid] = open_vector_index(self.settings, uid, self.embedder)
        return self._vectors[uid]

    def lexical(self, kind: Kind, user: str | None = None) -> LexicalIndex:
        uid = self.user_id(user)
        if (uid, kind) not in self._lexical:
            from nemori_cli.store.lexical import LexicalIndex

            folder = self.data_dir / "bm25" / uid / f"{kind}s"
            self._lexical[(uid, kind)] = LexicalIndex(folder)
        return self._lexical[(uid, kind)]

    @contextlib.contextmanager
    def writing(self, user: str | None = None) -> Iterator[Repository]:
        """Hold the user's write lock; mark the indexes dirty until the block completes."""
        repo = self.repo(user)
        with repo.files.lock:  # creates the user folder, private to the owner
            self.marker(user).mark()
            try:
                yield repo
            except BaseException:
                self.marker(user).abandon()  # half-written: whoever reads next repairs it
                raise

    def marker(self, user: str | None = None) -> DirtyMarker:
        """This process's dirty marker for the user (see store/activity.py)."""
        uid = self.user_id(user)
        if uid not in self._markers:
            self._markers[uid] = DirtyMarker(self.repo(uid).folder)
        return self._markers[uid]

    def _clean(self, user: str | None = None) -> None:
        """Mark the user's indexes as consistent with the JSONL again (as far as we wrote)."""
        self.marker(user).clear()

    def _ensure_indexes(self, user: str | None = None) -> None:
        """Repair what an interrupted write left stale, before reading the indexes.

        Only markers of writers that are gone count: a live writer finishes its own indexes.
        """
        if self.marker(user).leftovers():
            from nemori_cli.ops.doctor_indexes import repair_indexes

            self.progress.note("an earlier run was interrupted: bringing the indexes up to date")
            repair_indexes(self, self.user_id(user))

    # --- ingest and extraction ---------------------------------------------------------

    def ingest(
        self,
        paths: Sequence[str],
        *,
        user: str | None = None,
        format: str | None = None,
        strict: bool = False,
        facts: bool = True,
    ) -> IngestSummary:
        """Import chat files, build episodes and (unless facts=False) facts, and index them."""
        from nemori_cli.ops.ingest import IngestRun

        return IngestRun(self, self.user_id(user), facts=facts).run(
            paths, format=format, strict=strict
        )

    def dry_run(self, paths: Sequence[str], *, format: str | None = None) -> list[Any]:
        """Report what ingest would read from each file, writing nothing."""
        from nemori_cli.ops.dry_run import scan_paths

        return scan_paths(paths, format=format)

    def backfill(self, *, user: str | None = None, redo: bool = False) -> IngestSummary:
        """Extract facts for episodes whose extraction is missing, failed or (redo) foreign."""
        from nemori_cli.ops.ingest import IngestRun

        return IngestRun(self, self.user_id(user), facts=True).backfill(redo=redo)

    # --- search ------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        kind: str = "all",
        since: datetime | None = None,
        until: datetime | None = None,
        user: str | None = None,
        conversation_id: str | None = None,
        category: str | None = None,
        include_superseded: bool = False,
    ) -> list[SearchHit]:
        """Return the k best episodes and facts for a query, hybrid-ranked."""
        if kind not in ("all", *KINDS):
            raise UsageError(f"unknown kind {kind!r}: use episode, fact or all")
        if k < 1:
            raise UsageError("-k/--limit must be at least 1")
        kinds: tuple[Kind, ...] = KINDS if kind == "all" else (kind,)  # type: ignore[assignment]
        filters = SearchFilters(kinds, since, until, conversation_id, category, include_superseded)
        repo = self.repo(user)
        if not repo.folder.exists() or not query.strip():
            return []
        self._ensure_indexes(user)
        pool = max(50, 3 * k) * (4 if filters.narrowing else 1)
        from concurrent.futures import ThreadPoolExecutor

        # A cold model takes ~0.3 s to load: embed the query while the other indexes load.
        with ThreadPoolExecutor(max_workers=1) as background:
            embedding = background.submit(self.embedder.embed, [query])
            # parsed on demand: a search reads a few hundred records, not the whole store
            episodes: Mapping[str, Episode] = repo.episodes.lookup()
            tables: dict[str, Mapping[str, Episode | Fact]] = {
                "episode": episodes,
                "fact": repo.facts.lookup(),
            }
            kinds = tuple(kd for kd in kinds if tables[kd])
            lexical = {kd: self.lexical(kd, user).query(query, pool) for kd in kinds}
            qvec = embedding.result()[0]

        def admitted(kind: Kind, ids: Sequence[str]) -> list[str]:
            out = []
            for rid in ids:
                rec = tables[kind].get(rid)
                if (
                    rec is not None
                    and accepts(rec, filters)
                    and self._in_conversation(rec, conversation_id, episodes)
                ):
                    out.append(rid)
            return out

        candidates: dict[Kind, list[Sequence[str]]] = {}
        for kd in kinds:
            # admitted() re-checks every filter; the vector index is asked to filter only when
            # the filters may drop many (superseded facts are few, and metadata costs Chroma)
            where = filters.vector_where(kd) if filters.narrowing else None
            vec = self.vectors(user).query(kd, qvec, pool, where=where)
            candidates[kd] = [
                admitted(kd, [r for r, _ in vec]),
                admitted(kd, [r for r, _ in lexical[kd]]),
            ]
        hits = [
            to_hit(kd, tables[kd][rid], score, episodes.get)
            for kd, rid, score in fuse(candidates, max(k, REFINE_POOL))
        ]
        from nemori_cli.search.focus import refine

        vectors = self.vectors(user)
        return refine(hits, episodes, query, qvec, vectors.embeddings)[:k]

    @staticmethod
    def _in_conversation(
        record: Episode | Fact, conversation_id: str | None, episodes: Mapping[str, Episode]
    ) -> bool:
        if conversation_id is None or isinstance(record, Episode):
            return True
        return any(
            (ep := episodes.get(e)) is not None and ep.conversation_id == conversation_id
            for e in record.source_episode_ids
        )

    # --- listing -----------------------------------------------------------------------

    def episodes(self, *, user: str | None = None) -> list[Episode]:
        """Every episode of the user, oldest first."""
        eps = list(self.repo(user).episodes.all().values())
        return sorted(eps, key=lambda e: (e.timestamp is None, e.timestamp or e.created_at, e.id))

    def facts(
        self,
        *,
        user: str | None = None,
        category: str | None = None,
        include_superseded: bool = True,
    ) -> list[Fact]:
        """Every fact of the user (optionally one category), oldest first."""
        out = [
            f
            for f in self.repo(user).facts.all().values()
            if (category is None or f.category == category)
            and (include_superseded or f.superseded_by is None)
        ]
        return sorted(out, key=lambda f: (f.valid_from is None, f.valid_from or f.created_at, f.id))

    def episode(self, episode_id: str, *, user: str | None = None) -> Episode:
        ep = self.repo(user).episodes.get(episode_id)
        if ep is None:
            raise NotFound(f"no episode {episode_id!r} for user {self.user_id(user)!r}")
        return ep

    def fact(self, fact_id: str, *, user: str | None = None) -> Fact:
        fact = self.repo(user).facts.get(fact_id)
        if fact is None:
            raise NotFound(f"no fact {fact_id!r} for user {self.user_id(user)!r}")
        return fact

    def users(self) -> list[str]:
        from nemori_cli.store.jsonl import list_users

        return list_users(self.data_dir)

    # --- deleting ----------------------------------------------------------------------

    def delete_facts(self, ids: Sequence[str], *, user: str | None = None) -> list[str]:
        """Delete facts from the JSONL and both indexes; return the ids deleted."""
        facts = self.repo(user).facts.lookup()
        missing = [i for i in ids if i not in facts]
        if missing:
            raise NotFound(f"no fact {missing[0]!r} for user {self.user_id(user)!r}")
        with self.writing(user) as repo:
            gone = set(ids)
            revived = [
                replace(f, superseded_by=None)
                for f in repo.facts.mentioning(gone)  # parses only lines naming a deleted id
                if f.superseded_by in gone and f.id not in gone
            ]
            repo.facts.delete(gone)
            repo.facts.upsert(revived)
            self.vectors(user).delete("fact", gone)
            if revived:
                from nemori_cli.indexing import fact_docs

                vecs = self.embedder.embed([f.content for f in revived])
                docs = fact_docs(revived, vecs)
                self.vectors(user).upsert(
                    "fact", docs.ids, docs.vectors, docs.documents, docs.metadatas
                )
            # revived facts keep their text: masking the deleted ones is enough for BM25
            if not self.lexical("fact", user).delete(sorted(gone)):
                self._rebuild_lexical("fact", user)
        self._clean(user)
        return list(ids)

    def delete_episodes(self, ids: Sequence[str], *, user: str | None = None) -> dict[str, Any]:
        """Delete episodes, and the facts that only they support, from all three stores."""
        episodes = self.repo(user).episodes.all()
        missing = [i for i in ids if i not in episodes]
        if missing:
            raise NotFound(f"no episode {missing[0]!r} for user {self.user_id(user)!r}")
        gone = set(ids)
        orphan: list[str] = []
        trimmed: list[Fact] = []
        for f in self.repo(user).facts.all().values():
            rest = tuple(e for e in f.source_episode_ids if e not in gone)
            if not rest:
                orphan.append(f.id)
            elif len(rest) < len(f.source_episode_ids):
                dropped = {m for e in gone for m in episodes[e].message_ids}
                keep = tuple(m for m in f.source_message_ids if m not in dropped)
                trimmed.append(replace(f, source_episode_ids=rest, source_message_ids=keep))
        with self.writing(user) as repo:
            repo.episodes.delete(gone)
            self.vectors(user).delete("episode", gone)
            repo.facts.upsert(trimmed)
            if not self.lexical("episode", user).delete(sorted(gone)):
                self._rebuild_lexical("episode", user)
        self._clean(user)
        if orphan:
            self.delete_facts(orphan, user=user)
        return {"episodes": sorted(gone), "facts": sorted(orphan)}

    def delete_user(self, user: str) -> None:
        """Delete everything stored for a user: JSONL files and both indexes."""
        uid = self.user_id(user)
        if uid not in self.users():
            raise NotFound(f"no user {uid!r} in {self.data_dir}")
        self.vectors(uid).drop()
        from nemori_cli.store.jsonl import delete_user_files

        delete_user_files(self.data_dir, uid)
        self._repos.pop(uid, None)
        self._vectors.pop(uid, None)
        for kd in KINDS:
            self._lexical.pop((uid, kd), None)

    # --- maintenance -------------------------------------------------------------------

    def _rebuild_lexical(self, kind: Kind, user: str | None = None) -> None:
        from nemori_cli.indexing import lexical_text

        repo = self.repo(user)
        table = repo.episodes if kind == "episode" else repo.facts
        ids: list[str] = []
        texts: list[str] = []
        for record in table.stream():  # one record parsed at a time: archives can be large
            ids.append(record.id)
            texts.append(lexical_text(record))
        self.lexical(kind, user).rebuild(ids, texts)

    def reindex(self, user: str | None = None) -> dict[str, int]:
        """Rebuild every index of a user from the JSONL files."""
        from nemori_cli.indexing import episode_docs, fact_docs

        with self.writing(user) as repo:
            episodes = list(repo.episodes.all().values())
            facts = list(repo.facts.all().values())
            vectors = self.vectors(user)
            task = self.progress.task("Indexing", total=len(episodes) + len(facts))
            for kd in KINDS:
                vectors.reset(kd)
            for start in range(0, len(episodes), 256):
                chunk = episodes[start : start + 256]
                docs = episode_docs(chunk, self.embedder.embed)
                vectors.upsert("episode", docs.ids, docs.vectors, docs.documents, docs.metadatas)
                task.advance(len(chunk))
            for start in range(0, len(facts), 1024):
                batch = facts[start : start + 1024]
                fdocs = fact_docs(batch, self.embedder.embed([f.content for f in batch]))
                vectors.upsert("fact", fdocs.ids, fdocs.vectors, fdocs.documents, fdocs.metadatas)
                task.advance(len(batch))
            for kd in KINDS:
                self._rebuild_lexical(kd, user)
            task.close()
        self._clean(user)
        return {"episodes": len(episodes), "facts": len(facts)}

    def doctor(self, *, repair: bool = False, users: Sequence[str] | None = None) -> list[Any]:
        """Check each user's files and indexes (with repair, fix them); one report per user."""
        from nemori_cli.ops.doctor import doctor

        return doctor(self, repair=repair, users=[self.user_id(u) for u in users or ()] or None)

    def stats(self, user: str | None = None) -> dict[str, Any]:
        """Counts and LLM spend for a user."""
        episodes = self.repo(user).episodes.all().values()
        facts = list(self.repo(user).facts.all().values())
        by_status: dict[str, int] = {}
        made_by: dict[str, int] = {}
        usage = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost": 0.0}
        for ep in episodes:
            st = ep.extraction.get("status", "unknown")
            by_status[st] = by_status.get(st, 0) + 1
            reason = ep.fallback_reason
            who = f"offline fallback ({reason})" if reason else ep.made_by
            made_by[who] = made_by.get(who, 0) + 1
            for key in usage:
                usage[key] += ep.extraction.get(key, 0) or 0
        categories: dict[str, int] = {}
        extractors: dict[str, int] = {}
        for f in facts:
            categories[f.category] = categories.get(f.category, 0) + 1
            extractors[f.extractor] = extractors.get(f.extractor, 0) + 1
        return {
            "user": self.user_id(user),
            "episodes": len(episodes),
            "messages": sum(len(e.message_ids) for e in episodes),
            "facts": len(facts),
            "current_facts": sum(1 for f in facts if f.superseded_by is None),
            "facts_by_category": categories,
            "extraction": by_status,
            "episodes_made_by": made_by,
            "facts_by_extractor": extractors,
            "llm_usage": usage,
            "data_dir": str(self.data_dir),
        }
