"""One ingest (or backfill) run: read files, build episodes, extract facts, store, index."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from nemori_cli.errors import NemoriError
from nemori_cli.importers import Source, expand_paths, open_source
from nemori_cli.indexing import episode_docs, fact_docs, fact_text, index_records
from nemori_cli.models import Conversation, Episode, Fact
from nemori_cli.native_memory import release_free_memory
from nemori_cli.ops.delete import delete_facts
from nemori_cli.ops.doctor_indexes import ensure_indexes
from nemori_cli.ops.export import is_export, restore_file
from nemori_cli.ops.records import list_episodes, list_facts
from nemori_cli.ops.run_summary import IngestSummary, Interrupted
from nemori_cli.parts import Parts
from nemori_cli.pipeline.base import Extraction, Extractor
from nemori_cli.pipeline.facts import attribute, fold_duplicates, superseded_by
from nemori_cli.pipeline.pool import run_pool
from nemori_cli.progress import Task

BATCH_CONVERSATIONS = 200  # conversations segmented and stored together
COMMIT_EVERY = 64  # extracted episodes whose facts are stored together


class IngestRun:
    """Drives importers, the extractor and the stores for one user."""

    def __init__(
        self, parts: Parts, user_id: str, *, facts: bool, extractor: Extractor | None = None
    ) -> None:
        self.parts = parts
        self.extractor = extractor  # facts by this one instead of the parts' (a note)
        self.user_id = user_id
        self.with_facts = facts
        self.summary = IngestSummary()
        self.progress = parts.progress
        self._touched_kinds: set[str] = set()
        self._tasks: dict[str, Task] = {}

    def _bar(self, description: str, more: int) -> Task:
        """The run's one progress bar for a stage, its total grown by the work just found."""
        if description not in self._tasks:
            self._tasks[description] = self.progress.task(description, total=0)
        task = self._tasks[description]
        task.grow(more)
        return task

    # --- reading ---------------------------------------------------------------------

    def run(self, paths: Sequence[str], *, format: str | None, strict: bool) -> IngestSummary:
        """Import chat files (and nemori exports), skipping what was imported before."""
        started = time.perf_counter()
        files: list[str] = []
        for path in paths:
            try:
                files.extend(expand_paths([path]))
            except NemoriError as exc:
                self.summary.failed.append((path, str(exc)))
        # an interrupted run may have left drift, a damaged disk an unreadable index
        ensure_indexes(self.parts, self.user_id, probe=True)
        repo = self.parts.repo(self.user_id)
        done_files, seen = repo.ingested()
        with self._running("ingest", started):
            if files:  # no bar at 0/0 above the error that no file could be read
                reading = self.progress.task("Reading files", total=len(files))
                for path in files:
                    self._ingest_file(path, format, strict, done_files, seen)
                    reading.advance()
                reading.close()
            self._resume_pending()
        return self.summary

    def add(self, source: Source) -> IngestSummary:
        """Store the conversations of an opened source, skipping messages stored before.

        Only this source's episodes are extracted: pending ones belong to an ingest running
        now or to an interrupted one, which ingest and backfill finish, so the summary is
        this call's own.
        """
        started = time.perf_counter()
        ensure_indexes(self.parts, self.user_id)
        _, seen = self.parts.repo(self.user_id).ingested()
        with self._running("add", started):
            batch = [c for c in (self._unseen(conv, seen) for conv in source.conversations()) if c]
            self.summary.skipped.extend(
                (f"conversation {s.conversation_id or '?'}", s.reason) for s in source.skipped
            )
            self._store_conversations(batch)
        return self.summary

    @staticmethod
    def _unseen(conv: Conversation, seen: dict[str, set[str]]) -> Conversation | None:
        """The conversation's messages not imported before (None if none); now seen."""
        known = seen.get(conv.id, set())
        fresh = tuple(m for m in conv.messages if m.id not in known)
        if not fresh:
            return None
        seen.setdefault(conv.id, set()).update(m.id for m in fresh)
        return replace(conv, messages=fresh) if known else conv

    @contextlib.contextmanager
    def _running(self, command: str, started: float) -> Iterator[None]:
        """Finish a run: indexes up to date (clean only if it completed), time taken, and
        on Ctrl-C an Interrupted that says what was saved."""
        with self.parts.changing(self.user_id):
            try:
                yield
            except KeyboardInterrupt:
                raise Interrupted(self.summary, command) from None
            finally:
                self._finish_indexes()
                self.summary.seconds = time.perf_counter() - started
                self.summary.llm_stopped = getattr(self.parts.extractor, "stopped", None)

    def _ingest_file(self, path, format, strict, done_files, seen) -> None:  # type: ignore[no-untyped-def]
        if is_export(path):
            self._restore_export(path, seen)
            return
        try:
            source = open_source(path, format=format, strict=strict)
        except NemoriError as exc:
            self.summary.failed.append((path, str(exc)))
            return
        self.summary.files += 1
        if source.sha256 in done_files:
            self.summary.skipped.append((path, "already imported"))
            return
        batch: list[Conversation] = []
        try:
            for conv in source.conversations():
                fresh = self._unseen(conv, seen)
                if fresh is None:
                    continue
                batch.append(fresh)
                if len(batch) >= BATCH_CONVERSATIONS:
                    self._store_conversations(batch)
                    batch = []
        except NemoriError as exc:
            self.summary.failed.append((path, str(exc)))
            self._store_conversations(batch)
            return
        self._store_conversations(batch)
        self.summary.skipped.extend(
            (f"{path}: conversation {s.conversation_id or '?'}", s.reason) for s in source.skipped
        )
        with self.parts.writing(self.user_id) as repo:
            repo.mark_file(path, source.sha256)
            done_files.add(source.sha256)

    def _restore_export(self, path: str, seen: dict[str, set[str]]) -> None:
        """Store the episodes and facts of a nemori export verbatim."""
        try:
            restored = restore_file(self.parts, path, self.user_id)
        except NemoriError as exc:
            self.summary.failed.append((path, str(exc)))
            return
        self.summary.files += 1
        if restored["skipped"]:
            self.summary.skipped.append((path, "already imported"))
            return
        for key in ("conversations", "messages", "episodes", "facts"):
            setattr(self.summary, key, getattr(self.summary, key) + restored[key])
        for conv, ids in self.parts.repo(self.user_id).ingested()[1].items():
            seen.setdefault(conv, set()).update(ids)  # so chats in the same run add nothing

    # --- episodes --------------------------------------------------------------------

    def _store_conversations(self, conversations: list[Conversation]) -> None:
        """Segment conversations into episodes, store and index them, then extract facts."""
        if not conversations:
            return
        extractor = self.parts.extractor
        total = sum(len(c.messages) for c in conversations)
        task = self._bar("Grouping messages into episodes", total)  # counts messages
        episodes: list[Episode] = []
        status = "pending" if self.with_facts else "skipped"
        for conv in conversations:
            for segment in extractor.segment(conv):
                ep = extractor.episode(self.user_id, conv, segment)
                episodes.append(ep.with_extraction(extractor=extractor.name, status=status))
                self.summary.segment_fallbacks += "segment_error" in ep.extraction
            task.advance(len(conv.messages))
        take_usage = getattr(extractor, "take_segment_usage", None)
        if take_usage is not None:  # the LLM's segmentation calls
            self.summary.usage = self.summary.usage + take_usage()
        docs = episode_docs(episodes, self.parts.embedder.embed)
        with self.parts.writing(self.user_id) as repo:
            repo.episodes.upsert(episodes)
            repo.mark_ingested((c.id, [m.id for m in c.messages], c.source) for c in conversations)
            self._touched_kinds.add("episode")
            self.summary.conversations += len(conversations)
            self.summary.memories += sum(c.metadata.get("source") == "memory"
                                         for c in conversations)
            self.summary.messages += total
            self.summary.episodes += len(episodes)
            self.parts.vectors(self.user_id).upsert(
                "episode", docs.ids, docs.vectors, docs.documents, docs.metadatas
            )
        if self.with_facts:
            self.extract(episodes)
        release_free_memory()  # what the batch's parsing, embedding and upserts freed

    # --- facts -----------------------------------------------------------------------

    def backfill(self, *, redo: bool) -> IngestSummary:
        """Extract facts for episodes that have none yet (or, with redo, another extractor's)."""
        started = time.perf_counter()
        ensure_indexes(self.parts, self.user_id)
        name = self.parts.extractor.name
        todo = [
            ep
            for ep in list_episodes(self.parts, self.user_id)
            if ep.extraction.get("status") != "done"
            or (redo and ep.extraction.get("extractor") != name)
        ]
        with self._running("backfill", started):
            # a failed episode keeps its offline fallback facts until it is redone
            self._drop_foreign_facts(todo, name)
            self.extract(todo)
        return self.summary

    def _resume_pending(self) -> None:
        """Finish extraction that an interrupted run left pending."""
        if not self.with_facts or self.parts.marker(self.user_id).active():
            return  # another run is live: its pending episodes are its own to extract
        table = self.parts.repo(self.user_id).episodes
        pending = [  # parse only the lines that can be pending, not the whole archive
            ep for ep in table.mentioning(["pending"]) if ep.extraction.get("status") == "pending"
        ]
        if pending:
            self.progress.note(f"resuming fact extraction for {len(pending)} pending episode(s)")
            self.extract(pending)

    def _drop_foreign_facts(self, episodes: list[Episode], name: str) -> None:
        """Before redoing episodes, remove the facts only they support from other extractors."""
        ids = {e.id for e in episodes}
        stale = [
            f.id
            for f in list_facts(self.parts, self.user_id)
            if f.extractor != name and set(f.source_episode_ids) <= ids
        ]
        if stale:
            delete_facts(self.parts, stale, self.user_id)

    def extract(self, episodes: list[Episode]) -> None:
        """Run the extractor over episodes (concurrently with an LLM), storing as results come."""
        if not episodes:
            return
        extractor = self.extractor or self.parts.extractor
        task = self._bar("Extracting facts from episodes", len(episodes))
        done: list[Extraction] = []

        def work(ep: Episode) -> Extraction:
            return extractor.extract(ep, self.related_facts(ep))

        def on_done(result: Extraction) -> None:
            done.append(result)
            task.advance()
            if len(done) >= COMMIT_EVERY:
                self._store_extractions(done)
                done.clear()

        workers = self.parts.settings.workers if extractor.name != "offline" else 1
        try:
            run_pool(episodes, work, workers, on_done)
        finally:
            self._store_extractions(done)

    def related_facts(self, episode: Episode) -> list[Fact]:
        """Stored facts related to an episode (for prediction-correction)."""
        if not self.parts.settings.prediction_correction:
            return []
        text = f"{episode.title}\n{episode.content}"[:2000]
        vec = self.parts.embedder.embed([text])[0]
        hits = self.parts.vectors(self.user_id).query("fact", vec, 20, where={"superseded": False})
        facts = self.parts.repo(self.user_id).facts.all()
        return [facts[i] for i, _ in hits if i in facts]

    def _store_extractions(self, results: list[Extraction]) -> None:
        """Dedup the new facts against stored ones, then store facts and episodes, and index."""
        if not results:
            return
        parts = self.parts
        candidates = [f for r in results for f in r.facts]
        vectors = parts.embedder.embed([fact_text(f) for f in candidates]) if candidates else None
        index = parts.vectors(self.user_id)
        for r in results:
            self.summary.usage = self.summary.usage + r.usage
            self.summary.count_extraction(
                r.episode.made_by, r.episode.fallback_reason, r.episode.extraction.get("error")
            )
        with parts.writing(self.user_id) as repo:
            stored = repo.facts.all()
            new: list[Fact] = []
            merges: list[tuple[str, Fact]] = []
            if candidates and vectors is not None:

                def nearest(vecs: Any) -> list[tuple[Fact, float] | None]:
                    if not stored:
                        return [None] * len(vecs)
                    hits = index.query_many("fact", vecs, 1)  # one call for the whole batch
                    return [
                        (stored[hit[0][0]], hit[0][1]) if hit and hit[0][0] in stored else None
                        for hit in hits
                    ]

                new, merges, keep = fold_duplicates(
                    candidates, vectors, nearest, parts.settings.dedup_threshold
                )
            updated: dict[str, Fact] = {}
            for target_id, dup in merges:
                base = updated.get(target_id) or stored.get(target_id)
                if base is not None:
                    updated[target_id] = base.merged_with(dup)
            changes = {k: v for r in results for k, v in r.superseded.items()}
            if new and vectors is not None and parts.extractor.name == "offline":
                changes.update(self._changed_values(new, vectors[keep], stored))
            superseded: list[Fact] = []
            position = {f.id: i for i, f in enumerate(new)}
            for old_id, new_id in changes.items():
                if old_id in position:  # replaced by a newer fact of the same batch
                    i = position[old_id]
                    new[i] = replace(new[i], superseded_by=new_id)
                    continue
                old = updated.get(old_id) or stored.get(old_id)
                if old is not None and old.superseded_by is None:
                    superseded.append(replace(old, superseded_by=new_id))
            for f in superseded:
                updated[f.id] = f
            repo.facts.upsert([*new, *updated.values()])
            eps = [
                r.episode.with_extraction(status=r.episode.extraction.get("status") or "done")
                for r in results
            ]
            repo.episodes.upsert(eps)
            if new and vectors is not None:
                docs = fact_docs(new, vectors[keep])
                index.upsert("fact", docs.ids, docs.vectors, docs.documents, docs.metadatas)
            index_records(index, parts.embedder, "fact", superseded)
            rewritten = [r.episode for r in results if r.episode.extraction.get("rewritten")]
            index_records(index, parts.embedder, "episode", rewritten)
        self._touched_kinds.update({"fact", "episode"})
        self.summary.facts += len(new)
        self.summary.merged += len(merges)
        self.summary.fact_ids.update(dict.fromkeys([*(f.id for f in new), *(t for t, _ in merges)]))
        self.summary.superseded += len(superseded)

    def _changed_values(
        self, new: list[Fact], vectors: Any, stored: Mapping[str, Fact]
    ) -> dict[str, str]:
        """Stored facts that new ones replace offline (moved to another city, a new employer)."""
        movers = [i for i, f in enumerate(new) if attribute(f) is not None]
        if not movers:
            return {}
        fresh = [new[i] for i in movers]
        known: list[Fact] = []
        if stored:
            hits = self.parts.vectors(self.user_id).query_many("fact", vectors[movers], 10)
            known = [stored[rid] for found in hits for rid, _ in found if rid in stored]
        # either may be the newer one: a resumed run can extract an old episode last
        pairs = {**superseded_by(fresh, [*fresh, *known]), **superseded_by(known, fresh)}
        when = {f.id: f.valid_from for f in [*fresh, *known]}
        # only a strictly later statement replaces: two said at once ("moved to Lisbon, now
        # living in Arroios") are both true
        return {
            old: newer
            for old, newer in pairs.items()
            if (a := when.get(old)) is not None and (b := when.get(newer)) is not None and a < b
        }

    def _finish_indexes(self) -> None:
        """Rebuild the lexical indexes once for the run (see _running for the dirty mark).

        A run cut short (Ctrl-C, an error) may have stored records that a vector index lacks:
        the dirty marker stays, so the next run or search repairs the drift.
        """
        if not self._touched_kinds:
            return
        with self.parts.writing(self.user_id):
            task = self.progress.task("Indexing", total=len(self._touched_kinds))
            for kind in sorted(self._touched_kinds):
                self.parts.rebuild_lexical(kind, self.user_id)  # type: ignore[arg-type]
                task.advance()
            task.close()
