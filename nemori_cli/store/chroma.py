"""The vector index on Chroma: one collection per user and kind, embedded or on a server."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nemori_cli.config import validate_user_id
from nemori_cli.errors import BrokenIndex, EmbeddingMismatch, NemoriError, StoreError
from nemori_cli.models import KINDS
from nemori_cli.store.chroma_ef import chroma_embedding_function
from nemori_cli.store.chroma_guard import guarded, is_disk_error, on_fresh_client_if_stale, one_line
from nemori_cli.store.vector_index import collection_name, record_of, text_digest
from nemori_cli.store.where import can_match, chroma_where, matches

if TYPE_CHECKING:
    import numpy as np

    from nemori_cli.embed import Embedder

_PAGE = 5000  # ids/metadatas fetched per call when listing a collection
_DELETE_CHUNK = 500  # record ids per delete filter
# Chroma keeps a digest of each document's text, not the text: the JSONL holds the text, and
# Chroma's full-text index of documents cost a third of every upsert and most of its disk.
DIGEST_KEY = "nemori_text"
# rows per upsert call: Chroma's own maximum (5,461) doubled the memory a call briefly takes
UPSERT_ROWS = 2000


def _clean_metadata(meta: dict[str, Any], text: str) -> dict[str, Any]:
    if "record_id" not in meta:
        raise ValueError("vector metadata must include record_id")
    return {**{k: v for k, v in meta.items() if v is not None}, DIGEST_KEY: text_digest(text)}


def _public(meta: Any) -> dict[str, Any]:
    """A document's metadata as nemori wrote it (without the digest Chroma keeps beside it)."""
    out = dict(meta or {})
    out.pop(DIGEST_KEY, None)
    return out


def _best_per_record(
    ids: Sequence[str],
    dists: Sequence[float],
    metas: Sequence[Any] | None,
    keep: dict[str, Any] | None,
) -> dict[str, float]:
    """Record id -> similarity of its best document (results come best first)."""
    best: dict[str, float] = {}
    for i, (doc_id, dist) in enumerate(zip(ids, dists, strict=True)):
        if keep is not None and not matches((metas[i] if metas else None) or {}, keep):
            continue
        rid = record_of(str(doc_id))
        if rid not in best:
            best[rid] = 1.0 - float(dist)
    return best


class ChromaVectorIndex:
    """A VectorIndex on any Chroma client (PersistentClient or HttpClient)."""

    def __init__(
        self,
        client: Any,
        user_id: str,
        embedder: Embedder,
        *,
        location: str,
        reopen: Callable[[], Any] | None = None,
    ) -> None:
        self.client = client
        self._reopen = reopen  # a fresh client on the same store (embedded Chroma)
        self.user_id = validate_user_id(user_id)
        self.embedder = embedder
        self.location = location
        self._ef = chroma_embedding_function(embedder)
        self._collections: dict[str, Any] = {}
        self._checked: set[str] = set()  # kinds whose collection matches the embedder
        self._batch: int | None = None

    def reconnect(self) -> bool:
        """Open a new client on the same store (False when there is none to open)."""
        if self._reopen is None:
            return False
        self.client = self._reopen()
        self._collections.clear()
        self._batch = None
        return True

    def _metadata(self, kind: str) -> dict[str, Any]:
        return {
            "nemori_user_id": self.user_id,
            "nemori_kind": kind,
            "embed_model": self.embedder.model_id,
            "embed_dim": int(self.embedder.dim),
        }

    def _collection(self, kind: str, *, check: bool = True) -> Any:
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}")
        coll = self._collections.get(kind)
        if coll is None:
            coll = self.client.get_or_create_collection(
                name=collection_name(self.user_id, kind),
                metadata=self._metadata(kind),
                configuration={"hnsw": {"space": "cosine"}},
                embedding_function=self._ef,
            )
            self._collections[kind] = coll
        if check and kind not in self._checked:
            self._check_model(kind, coll)
            self._checked.add(kind)
        return coll

    def _check_model(self, kind: str, coll: Any) -> None:
        meta = coll.metadata or {}
        built_with, built_dim = meta.get("embed_model"), meta.get("embed_dim")
        ours, dim = self.embedder.model_id, int(self.embedder.dim)
        if built_with != ours or built_dim != dim:
            raise EmbeddingMismatch(
                f"the {kind} index of user {self.user_id} was built with {built_with} "
                f"(dim {built_dim}); you use {ours} (dim {dim}): run `nemori reindex`"
            )

    def _max_batch(self) -> int:
        if self._batch is None:
            try:
                self._batch = int(self.client.get_max_batch_size())
            except Exception:
                self._batch = 1000
        return max(1, self._batch)

    @guarded
    def upsert(
        self,
        kind: str,
        doc_ids: Sequence[str],
        embeddings: np.ndarray,
        documents: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
    ) -> None:
        """Add or replace documents (several may belong to one record)."""
        import numpy as np

        vectors = np.asarray(embeddings, dtype=np.float32)
        n = len(doc_ids)
        if not (vectors.shape[0] == len(documents) == len(metadatas) == n):
            raise ValueError("doc_ids, embeddings, documents and metadatas differ in length")
        if n == 0:
            return
        coll = self._collection(kind)
        metas = [_clean_metadata(m, t) for m, t in zip(metadatas, documents, strict=True)]
        step = min(self._max_batch(), UPSERT_ROWS)
        for start in range(0, n, step):
            end = start + step
            ids = list(doc_ids[start:end])
            coll.upsert(ids=ids, embeddings=vectors[start:end], metadatas=metas[start:end])

    @guarded
    def query(
        self, kind: str, embedding: np.ndarray, k: int, where: dict[str, Any] | None = None
    ) -> list[tuple[str, float]]:
        """Return up to k (record_id, cosine similarity), best first, one per record."""
        import numpy as np

        if k <= 0:
            return []
        coll = self._collection(kind)
        vector = np.asarray(embedding, dtype=np.float32).reshape(1, -1)
        clause = chroma_where(where)
        if clause is not None and can_match(clause):
            # Chroma pre-filters by scanning the metadata of every document (0.7 s at 100k
            # facts). When the filter keeps most documents (superseded facts are few), the
            # nearest documents filtered here give the same answer in milliseconds.
            hits = self._nearest(coll, vector, k, None, clause, max_want=8 * k + 64)
            if hits is not None:
                return hits
        hits = self._nearest(coll, vector, k, clause, None, max_want=None)
        assert hits is not None
        return hits

    @staticmethod
    def _nearest(
        coll: Any,
        vector: np.ndarray,
        k: int,
        where: dict[str, Any] | None,
        keep: dict[str, Any] | None,
        *,
        max_want: int | None,
    ) -> list[tuple[str, float]] | None:
        """Best k records, widening the search as needed; None once past max_want."""
        want = max(k * 2, k + 8)
        # metadata costs most of a query at 100k documents: fetch it only to filter on it
        include = ["metadatas", "distances"] if keep is not None else ["distances"]
        while True:
            result = coll.query(
                query_embeddings=vector, n_results=want, where=where, include=include
            )
            ids, dists = result["ids"][0], result["distances"][0]
            metas = result["metadatas"][0] if keep is not None else None
            best = _best_per_record(ids, dists, metas, keep)
            if len(best) >= k or len(ids) < want:  # enough, or the whole collection seen
                return list(best.items())[:k]
            if max_want is not None and want >= max_want:
                return None
            want *= 2

    @guarded
    def query_many(
        self, kind: str, embeddings: np.ndarray, k: int, where: dict[str, Any] | None = None
    ) -> list[list[tuple[str, float]]]:
        """query() for many vectors in one call: one result list per row, as query() gives."""
        import numpy as np

        vectors = np.asarray(embeddings, dtype=np.float32).reshape(len(embeddings), -1)
        if not len(vectors) or k <= 0:
            return [[] for _ in range(len(vectors))]
        coll = self._collection(kind)
        want = max(k * 2, k + 8)
        result = coll.query(
            query_embeddings=vectors,
            n_results=want,
            where=chroma_where(where),
            include=["distances"],
        )
        out: list[list[tuple[str, float]]] = []
        for row, (ids, dists) in enumerate(zip(result["ids"], result["distances"], strict=True)):
            best = _best_per_record(ids, dists, None, None)
            if len(best) >= k or len(ids) < want:
                out.append(list(best.items())[:k])
            else:  # records with many documents crowded this one out: widen as query() does
                out.append(self.query(kind, vectors[row], k, where))
        return out

    @guarded
    def delete(self, kind: str, record_ids: Collection[str]) -> None:
        """Delete every document of these records."""
        ids = list(dict.fromkeys(record_ids))
        if not ids:
            return
        coll = self._collection(kind, check=False)
        for start in range(0, len(ids), _DELETE_CHUNK):
            chunk = ids[start : start + _DELETE_CHUNK]
            coll.delete(where={"record_id": {"$in": chunk}})

    @guarded
    def record_ids(self, kind: str) -> set[str]:
        """Return the ids of the records that have at least one document."""
        coll = self._collection(kind, check=False)
        out: set[str] = set()
        offset = 0
        while True:
            page = coll.get(include=["metadatas"], limit=_PAGE, offset=offset)
            metas = page["metadatas"] or []
            out.update(str(m["record_id"]) for m in metas if m and "record_id" in m)
            if len(page["ids"]) < _PAGE:
                return out
            offset += _PAGE

    @guarded
    def documents(self, kind: str) -> dict[str, tuple[str, dict[str, Any]]]:
        """Every document of this kind as doc id -> (digest of its text, metadata), for checks
        (a store written before the digests keeps the text, whose digest is taken here)."""
        coll = self._collection(kind, check=False)
        out: dict[str, tuple[str, dict[str, Any]]] = {}
        offset = 0
        while True:
            page = coll.get(include=["documents", "metadatas"], limit=_PAGE, offset=offset)
            docs = page["documents"] or [None] * len(page["ids"])
            metas = page["metadatas"] or [None] * len(page["ids"])
            for doc_id, doc, meta in zip(page["ids"], docs, metas, strict=True):
                digest = (meta or {}).get(DIGEST_KEY) or text_digest(doc or "")
                out[str(doc_id)] = (str(digest), _public(meta))
            if len(page["ids"]) < _PAGE:
                return out
            offset += _PAGE

    @guarded
    def embeddings(self, kind: str, doc_ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Return the stored vectors of these documents (doc id -> vector); missing ids left out."""
        if not doc_ids:
            return {}
        # Chroma refuses a get that names an id twice (two hits cut from one episode do)
        got = self._collection(kind).get(ids=list(dict.fromkeys(doc_ids)), include=["embeddings"])
        vectors = got.get("embeddings")
        if vectors is None:
            return {}
        return {str(i): v for i, v in zip(got["ids"], vectors, strict=True)}

    def dump(self, kind: str) -> Iterator[tuple[list[str], np.ndarray, list[dict[str, Any]]]]:
        """Yield every document of this kind as pages of (doc ids, vectors, metadatas)."""
        import numpy as np

        offset = 0
        while True:
            page = self._page(kind, offset)
            ids = [str(i) for i in page["ids"]]
            if ids:
                vectors = np.asarray(page["embeddings"], dtype=np.float32)
                yield ids, vectors, [_public(m) for m in page["metadatas"]]
            if len(ids) < _PAGE:
                return
            offset += _PAGE

    @guarded
    def _page(self, kind: str, offset: int) -> Any:
        coll = self._collection(kind, check=False)
        return coll.get(include=["embeddings", "metadatas"], limit=_PAGE, offset=offset)

    def probe(self) -> None:
        """Read a little of each of the user's collections: BrokenIndex when that fails."""
        def read_each() -> None:
            for kind in KINDS:
                coll = self._collection(kind, check=False)
                coll.count()
                coll.get(limit=1, include=["embeddings"])

        try:
            on_fresh_client_if_stale(self, read_each)  # a stale client is not a damaged store
        except NemoriError:
            raise
        except Exception as exc:
            if is_disk_error(exc):  # the disk's fault, not the index's: nothing to move aside
                raise StoreError(f"vector index at {self.location}: {one_line(exc)}") from None
            raise BrokenIndex(
                f"vector index at {self.location}: {one_line(exc)}", one_line(exc)
            ) from None

    def check_model(self, kind: str) -> None:
        """Raise EmbeddingMismatch when the kind's collection was built by another embedder."""
        self._collection(kind)

    def copy_problem(self, kind: str, chroma_doc_ids: Collection[str]) -> str | None:
        return None  # a Chroma server has no flat copy: it is a long-running process already

    def rebuild_copy(self, kind: str) -> None:
        return None

    def settle(self) -> None:
        return None  # deletes on a server are immediate

    def damaged(self) -> list[tuple[Path, str]]:
        return []  # a server's files are the server's to keep: nothing here is moved aside

    def copy_damage(self, kind: str) -> str | None:
        return None

    def sample_problem(self, kind: str, size: int = 64) -> str | None:
        return None

    @guarded
    def count(self, kind: str) -> int:
        """Return the number of documents (vectors) of this kind."""
        return int(self._collection(kind, check=False).count())

    @guarded
    def built_with(self, kind: str) -> tuple[str | None, int | None]:
        """Return the embed model id and dimension the collection was built with."""
        meta = self._collection(kind, check=False).metadata or {}
        return meta.get("embed_model"), meta.get("embed_dim")

    @guarded
    def reset(self, kind: str) -> None:
        """Drop the collection and create it empty for the current embedder."""
        self._drop(kind)
        self._collection(kind)

    @guarded
    def drop(self) -> None:
        """Delete this user's collections (for deleting the user)."""
        for kind in KINDS:
            self._drop(kind)

    def _drop(self, kind: str) -> None:
        from chromadb.errors import NotFoundError

        self._collections.pop(kind, None)
        self._checked.discard(kind)
        with contextlib.suppress(NotFoundError, ValueError):  # nothing to drop
            self.client.delete_collection(collection_name(self.user_id, kind))
