"""The lexical index: BM25 (bm25s) over one user's episodes or facts, rebuilt from JSONL."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import orjson

from nemori_cli.errors import BrokenIndex, StoreError
from nemori_cli.store.bm25_query import SavedBM25, query_tokens, stemmer
from nemori_cli.store.files import DIR_MODE, FILE_MODE, ensure_private_dir
from nemori_cli.store.spelling import VERSION as SPELLING

DOC_IDS_FILE = "doc_ids.json"
DELETED_FILE = "deleted.json"  # ids masked out since the last rebuild
# written by a build whose words were mapped to American spelling (store/spelling.py); an
# index without it, built by an older nemori, is queried without the mapping until rebuilt
SPELLING_FILE = "spelling.json"
MAX_DELETED_SHARE = 0.1  # past this share of masked documents, deleting rebuilds instead
MAX_QUERY_CHARS = 20_000  # longer queries add nothing but tokenizing time


def _bm25s() -> Any:
    """Import bm25s, whose logger is set to DEBUG, and keep its logs quiet."""
    import logging

    import bm25s

    logging.getLogger("bm25s").setLevel(logging.WARNING)
    return bm25s


def _tokenize(texts: Iterable[str], *, return_ids: bool) -> Any:
    return _bm25s().tokenize(
        texts, stopwords="en", stemmer=stemmer(), return_ids=return_ids, show_progress=False
    )


class LexicalIndex:
    """A bm25s index saved in one folder (bm25/<user_id>/<kind>/), swapped atomically."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._retriever: Any = None
        self._doc_ids: list[str] = []
        self._deleted: set[str] = set()
        self._mask: Any = None  # np.ndarray of the positions of deleted documents
        self._stamp: tuple[int, ...] | None = None  # identity of the loaded build
        self._spelling = True  # whether the loaded build mapped its words' spelling

    @property
    def _old(self) -> Path:
        return self.folder.with_name(self.folder.name + ".old")

    def rebuild(self, doc_ids: Sequence[str], texts: Iterable[str]) -> None:
        """Index these documents, replacing the previous index; an empty corpus removes it.

        texts may be a generator (an archive's words need not all be held at once).
        """
        bm25s = _bm25s()

        tokens = _tokenize((t or "" for t in texts), return_ids=True)
        if len(tokens.ids) != len(doc_ids):
            raise ValueError("doc_ids and texts differ in length")
        if not doc_ids or not tokens.vocab:
            self._remove()
            return
        retriever = bm25s.BM25()
        retriever.index(tokens, show_progress=False)
        ensure_private_dir(self.folder.parent)
        tmp = self.folder.with_name(f"{self.folder.name}.tmp-{uuid.uuid4().hex[:8]}")
        try:
            tmp.mkdir(mode=DIR_MODE)
            retriever.save(str(tmp), show_progress=False)
            (tmp / DOC_IDS_FILE).write_bytes(orjson.dumps(list(doc_ids)))
            (tmp / SPELLING_FILE).write_bytes(orjson.dumps({"version": SPELLING}))
            for entry in tmp.iterdir():
                os.chmod(entry, FILE_MODE)
            self._swap_in(tmp)
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            raise StoreError(f"{self.folder}: cannot save the BM25 index: {exc}") from None
        # the next query maps the saved build (as every search does) instead of this one holding
        # its matrices: an ingest rebuilds the next index while this one would stay in memory
        self._unload()

    def _swap_in(self, tmp: Path) -> None:
        # A folder cannot be os.replace'd onto a non-empty one: move the old aside first.
        shutil.rmtree(self._old, ignore_errors=True)
        if self.folder.exists():
            os.replace(self.folder, self._old)
        os.replace(tmp, self.folder)
        shutil.rmtree(self._old, ignore_errors=True)

    def _remove(self) -> None:
        for folder in (self.folder, self._old):
            shutil.rmtree(folder, ignore_errors=True)
        self._unload()

    def _unload(self) -> None:
        self._retriever, self._doc_ids, self._stamp = None, [], None
        self._deleted, self._mask = set(), None

    def _live_folder(self) -> Path | None:
        """The folder holding the current build (the old one if a swap was interrupted)."""
        for folder in (self.folder, self._old):
            if (folder / DOC_IDS_FILE).is_file():
                return folder
        return None

    def _current_stamp(self) -> tuple[int, ...] | None:
        folder = self._live_folder()
        if folder is None:
            return None
        st = (folder / DOC_IDS_FILE).stat()
        try:
            deleted = (folder / DELETED_FILE).stat()
            masked: tuple[int, ...] = (deleted.st_ino, deleted.st_mtime_ns)
        except FileNotFoundError:
            masked = ()
        return (st.st_ino, st.st_mtime_ns, *masked)

    def delete(self, doc_ids: Sequence[str]) -> bool:
        """Mask documents out of the index without rebuilding it; False if it needs a rebuild.

        Rebuilding costs seconds at 100k documents. Masked documents are never returned;
        the others keep the corpus statistics of the last rebuild until the next one (a
        rebuild at the next ingest or reindex), which changes scores only marginally.
        Returns False (changing nothing) when there is no index or too much would be masked.
        """
        if not self._load():
            return False
        known = set(self._doc_ids)
        deleted = self._deleted | {d for d in doc_ids if d in known}
        if len(deleted) > MAX_DELETED_SHARE * len(self._doc_ids):
            return False
        if deleted == self._deleted:
            return True
        folder = self._live_folder()
        if folder is None:
            return False
        tmp = folder / f"{DELETED_FILE}.tmp-{uuid.uuid4().hex[:8]}"
        try:
            tmp.write_bytes(orjson.dumps(sorted(deleted)))
            os.chmod(tmp, FILE_MODE)
            os.replace(tmp, folder / DELETED_FILE)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise StoreError(f"{folder}: cannot save the BM25 index: {exc}") from None
        self._set_deleted(deleted)
        self._stamp = self._current_stamp()
        return True

    def _load(self) -> bool:
        """Load (or reload after another process rebuilt it); False when there is no index."""
        stamp = self._current_stamp()
        if stamp is None:
            self._retriever, self._doc_ids, self._stamp = None, [], None
            return False
        if stamp == self._stamp and self._retriever is not None:
            return True
        for attempt in range(2):  # a rebuild by another process may move the folder meanwhile
            folder = self._live_folder()
            if folder is None:
                return False
            try:
                stamp = self._current_stamp()
                doc_ids = orjson.loads((folder / DOC_IDS_FILE).read_bytes())
                spelling = (folder / SPELLING_FILE).exists()
                deleted_file = folder / DELETED_FILE
                deleted = (
                    set(orjson.loads(deleted_file.read_bytes()))
                    if deleted_file.exists()
                    else set()
                )
                if (
                    self._retriever is not None
                    and self._stamp is not None
                    and stamp is not None
                    and stamp[:2] == self._stamp[:2]
                ):
                    retriever = self._retriever  # same build: only the mask changed
                else:
                    # numpy alone reads it: importing bm25s costs a cold search more
                    retriever = SavedBM25.load(folder) or _bm25s().BM25.load(
                        str(folder), mmap=True, show_progress=False
                    )
                if not isinstance(doc_ids, list) or not set(map(type, doc_ids)) <= {str}:
                    raise ValueError(f"{DOC_IDS_FILE} is not a list of ids")
                if not all(isinstance(d, str) for d in deleted):
                    raise ValueError(f"{DELETED_FILE} is not a list of ids")
                break
            except Exception as exc:  # bm25s and numpy raise anything on a damaged file
                if attempt:
                    why = f"the BM25 index cannot be read ({type(exc).__name__})"
                    raise BrokenIndex(
                        f"{folder}: {why}: run `nemori doctor --repair`", why
                    ) from None
        self._retriever, self._doc_ids, self._stamp = retriever, list(doc_ids), stamp
        self._spelling = spelling
        self._set_deleted(deleted)
        return True

    def _set_deleted(self, deleted: set[str]) -> None:
        import numpy as np

        self._deleted = deleted
        self._mask = (
            np.array([i for i, d in enumerate(self._doc_ids) if d in deleted], dtype=np.int64)
            if deleted
            else None
        )

    def query(self, text: str, k: int) -> list[tuple[str, float]]:
        """Return up to k (doc_id, BM25 score), best first, only documents that match."""
        import numpy as np

        if k <= 0 or not text or not self._load():
            return []
        tokens = query_tokens(text[:MAX_QUERY_CHARS], self._spelling)
        try:
            token_ids = list(dict.fromkeys(self._retriever.get_tokens_ids(tokens)))
            if not token_ids:
                return []
            with np.errstate(all="ignore"):
                scores = np.asarray(self._retriever.get_scores_from_ids(token_ids))
        except Exception as exc:  # a damaged matrix fails in numpy or scipy, anyhow
            raise BrokenIndex(f"{self.folder}: {exc}", "the BM25 index cannot be read") from None
        if len(scores) != len(self._doc_ids) or not np.isfinite(scores).all():
            why = "the BM25 index gives scores that are not numbers"
            raise BrokenIndex(f"{self.folder}: {why}", why)
        if self._mask is not None:
            scores = scores.copy()
            scores[self._mask] = 0
        matched = np.flatnonzero(scores > 0)
        if matched.size > k:
            matched = matched[np.argpartition(-scores[matched], k - 1)[:k]]
        ranked = matched[np.argsort(-scores[matched], kind="stable")]
        return [(self._doc_ids[i], float(scores[i])) for i in ranked]

    def doc_ids(self) -> list[str]:
        """Return the ids of the indexed documents, in index order."""
        if not self._load():
            return []
        return [d for d in self._doc_ids if d not in self._deleted]
