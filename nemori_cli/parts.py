"""The parts a memory is made of, and the write protocol every operation follows."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from nemori_cli.config import Settings, validate_user_id
from nemori_cli.embed import Embedder, make_embedder, prefetch
from nemori_cli.models import Episode, Kind
from nemori_cli.progress import NullProgress, Progress
from nemori_cli.store.activity import DirtyMarker
from nemori_cli.store.repository import Repository

if TYPE_CHECKING:  # the methods import these: a listing needs none of the indexes' modules
    from nemori_cli.pipeline.base import Extractor
    from nemori_cli.store.lexical import LexicalIndex
    from nemori_cli.store.vector_index import VectorIndex


class Parts:
    """Settings, embedder, extractor, and each user's repository, indexes and dirty marker.

    Built on first use and kept for the life of the object. Operations receive this, never
    Memory. Every change to a user's store happens inside `writing()`.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        progress: Progress | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
    ) -> None:
        self.settings = settings
        self.progress: Progress = progress or NullProgress()
        if embedder is not None:
            self.embedder = embedder
        if extractor is not None:
            self.extractor = extractor
        self._repos: dict[str, Repository] = {}
        self._vectors: dict[str, VectorIndex] = {}
        self._lexical: dict[tuple[str, str], LexicalIndex] = {}
        self._markers: dict[str, DirtyMarker] = {}
        self._open_changes: dict[str, int] = {}
        self._flagged: dict[str, DirtyMarker] = {}  # marks held for a damaged index found
        self._said: set[str] = set()  # each damage is told once per process

    @property
    def data_dir(self) -> Path:
        return self.settings.data_dir

    def user_id(self, user: str | None = None) -> str:
        """Return the validated user id (the settings' user when none is given)."""
        return validate_user_id(user or self.settings.user)

    @cached_property
    def embedder(self) -> Embedder:
        """The embedder the settings ask for (the local model by default)."""
        return make_embedder(self.settings, note=lambda text: self.progress.note(text))

    @cached_property
    def extractor(self) -> Extractor:
        """The extractor new records are made by: the LLM when one is configured."""
        if self.settings.llm_model:
            # lazily: its pydantic prompt models would cost every command's startup
            from nemori_cli.pipeline.llm_extractor import LLMExtractor

            return LLMExtractor(self.settings, self.embedder.embed)
        from nemori_cli.pipeline.offline import OfflineExtractor

        return OfflineExtractor(self.settings, self.embedder.embed)

    def repo(self, user: str | None = None) -> Repository:
        """The user's JSONL files."""
        uid = self.user_id(user)
        if uid not in self._repos:
            self._repos[uid] = Repository(
                self.data_dir, uid, lock_timeout=self.settings.lock_timeout
            )
        return self._repos[uid]

    def prefetch_query(self, query: str, user: str | None = None) -> None:
        """Start embedding a search's query in the background, while the rest loads."""
        if query.strip() and self.repo(user).folder.exists():
            prefetch(self.embedder, [query])

    def vectors(self, user: str | None = None) -> VectorIndex:
        """The user's vector index."""
        from nemori_cli.store.open_index import open_vector_index

        uid = self.user_id(user)
        if uid not in self._vectors:
            self._vectors[uid] = open_vector_index(
                self.settings, uid, self.embedder, lambda text: self.found_broken(uid, text)
            )
        return self._vectors[uid]

    def reopen_vectors(self, user: str | None = None) -> None:
        """Open the user's vector index afresh at its next use, as a new process would."""
        self._vectors.pop(self.user_id(user), None)

    def found_broken(self, user: str, text: str) -> None:
        """A read found an index damaged and worked around it: say so, and mark it for repair.

        The mark is held until this process ends and then left behind as a crash's would be,
        so the next command (not this one, mid-search) rebuilds the index; a read-only data
        dir only gets the message.
        """
        if text not in self._said:
            self._said.add(text)
            self.progress.note(text)
        if user not in self._flagged:
            marker = DirtyMarker(self.repo(user).folder)
            with contextlib.suppress(OSError):
                marker.mark()
                self._flagged[user] = marker

    def lexical(self, kind: Kind, user: str | None = None) -> LexicalIndex:
        """The user's BM25 index of one kind."""
        from nemori_cli.store.lexical import LexicalIndex

        uid = self.user_id(user)
        if (uid, kind) not in self._lexical:
            folder = self.data_dir / "bm25" / uid / f"{kind}s"
            self._lexical[(uid, kind)] = LexicalIndex(folder)
        return self._lexical[(uid, kind)]

    def turns(self, user: str | None = None) -> LexicalIndex:
        """The user's BM25 index over the single turns of episodes (see indexing.turn_docs)."""
        from nemori_cli.store.lexical import LexicalIndex

        uid = self.user_id(user)
        if (uid, "turn") not in self._lexical:
            self._lexical[(uid, "turn")] = LexicalIndex(self.data_dir / "bm25" / uid / "turns")
        return self._lexical[(uid, "turn")]

    def marker(self, user: str | None = None) -> DirtyMarker:
        """This process's dirty marker for the user (see store/activity.py)."""
        uid = self.user_id(user)
        if uid not in self._markers:
            self._markers[uid] = DirtyMarker(self.repo(uid).folder)
        return self._markers[uid]

    def reopen(self) -> None:
        """Drop every open index, so the next use opens what is on disk now (after a heal)."""
        self._vectors.clear()
        self._lexical.clear()

    def forget(self, user: str) -> None:
        """Drop what is open for a user whose files were deleted."""
        uid = self.user_id(user)
        self._repos.pop(uid, None)
        self._vectors.pop(uid, None)
        for key in [k for k in self._lexical if k[0] == uid]:
            del self._lexical[key]

    # --- the write protocol ------------------------------------------------------------

    @contextlib.contextmanager
    def changing(self, user: str | None = None) -> Iterator[None]:
        """Keep the indexes marked dirty across several writes; clear the mark if it completes.

        A block that raises leaves the mark: whoever reads next repairs the indexes.
        """
        uid = self.user_id(user)
        self._open_changes[uid] = self._open_changes.get(uid, 0) + 1
        completed = False
        try:
            yield
            completed = True
        finally:
            self._open_changes[uid] -= 1
            if completed and not self._open_changes[uid]:
                self.marker(uid).clear()

    @contextlib.contextmanager
    def writing(self, user: str | None = None) -> Iterator[Repository]:
        """Hold the user's write lock with the indexes marked dirty until the block completes.

        Inside `changing()`, the mark stays until that outer block completes.
        """
        repo = self.repo(user)
        with repo.files.lock, self.changing(user):  # the lock creates the user's private folder
            self.marker(user).mark()
            try:
                yield repo
            except BaseException:
                self.marker(user).abandon()  # half-written: whoever reads next repairs it
                raise

    def rebuild_lexical(self, kind: Kind, user: str | None = None) -> None:
        """Rebuild one BM25 index of the user from the JSONL, a record at a time.

        Episodes rebuild the turn index with theirs.
        """
        from nemori_cli.indexing import lexical_text, turn_docs

        table = self.repo(user).episodes if kind == "episode" else self.repo(user).facts
        # ids first, then the JSONL again for each index's texts (a record parsed at a time):
        # an archive's words are never all held at once, only one index's tokens of them
        ids: list[str] = []
        turn_ids: list[str] = []
        for record in table.stream():
            ids.append(record.id)
            if isinstance(record, Episode):
                turn_ids.extend(doc_id for doc_id, _ in turn_docs(record))
        self.lexical(kind, user).rebuild(ids, (lexical_text(r) for r in table.stream()))
        if kind == "episode":
            turns = (text for ep in table.stream() for _, text in turn_docs(ep))  # type: ignore[arg-type]
            self.turns(user).rebuild(turn_ids, turns)
