"""Score a query against a saved bm25s index without importing bm25s.

`import bm25s` (with its scipy-free numpy backend still ~0.1-0.3 s) was the largest single
cost of a cold `nemori search` after the vectors. A saved bm25s index is plain numpy: the BM25
weight of every (token, document) pair in a CSC matrix, and the vocabulary as JSON. A query's
scores are the sum of its tokens' columns, which is what `BM25.get_scores_from_ids` computes;
the query is tokenized as `bm25s.tokenize` does (lowercase, `\\b\\w\\w+\\b`, English stopwords,
the Snowball stemmer, of each word's American spelling: store/spelling.py). Writing an index
still goes through bm25s (store/lexical.py).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from nemori_cli.store.spelling import american

if TYPE_CHECKING:
    import numpy as np

STOPWORDS_FILE = Path(__file__).resolve().parent.parent / "data" / "stopwords_en.txt"
TOKEN = re.compile(r"(?u)\b\w\w+\b")  # bm25s's default token pattern (scikit-learn's)
# methods whose scores need nothing beyond the matrix (BM25L and BM25+ add a constant per token)
PLAIN_METHODS = {"robertson", "lucene", "atire"}


@functools.cache
def stopwords() -> frozenset[str]:
    """bm25s's English stopwords (a copy; a test holds it equal to bm25s's)."""
    return frozenset(STOPWORDS_FILE.read_text("utf-8").split())


class SpelledStemmer:
    """The Snowball English stemmer, of each word's American spelling (store/spelling.py)."""

    def __init__(self, inner: Any, spelling: bool) -> None:
        self.inner = inner
        self.spelling = spelling

    def stemWord(self, word: str) -> str:  # noqa: N802 (PyStemmer's name, which bm25s calls)
        return str(self.inner.stemWord(american(word) if self.spelling else word))

    def stemWords(self, words: Sequence[str]) -> list[str]:  # noqa: N802
        return list(self.inner.stemWords([american(w) for w in words] if self.spelling else words))


@functools.cache
def stemmer(spelling: bool = True) -> SpelledStemmer:
    """The stemmer of indexes and queries; spelling=False for an index built without it."""
    import Stemmer

    return SpelledStemmer(Stemmer.Stemmer("english"), spelling)


def query_tokens(text: str, spelling: bool = True) -> list[str]:
    """The query's tokens as `bm25s.tokenize(..., stopwords="en", stemmer=...)` makes them."""
    stop = stopwords()
    words = list(dict.fromkeys(w for w in TOKEN.findall(text.lower()) if w not in stop))
    if not words:
        return []
    stems = dict(zip(words, stemmer(spelling).stemWords(words), strict=True))
    return [stems[w] for w in TOKEN.findall(text.lower()) if w not in stop]


class SavedBM25:
    """A saved bm25s index read with numpy alone: the two calls LexicalIndex.query makes."""

    def __init__(self, vocab: dict[str, int], arrays: Sequence[Any], n: int) -> None:
        self.vocab_dict = vocab
        self.data, self.indices, self.indptr = arrays
        self.num_docs = n

    @classmethod
    def load(cls, folder: Path) -> SavedBM25 | None:
        """Read the index in folder (memory-mapped); None when only bm25s can score it."""
        import numpy as np

        params = orjson.loads((folder / "params.index.json").read_bytes())
        if (
            not isinstance(params, dict)
            or params.get("method") not in PLAIN_METHODS
            or params.get("dtype") != "float32"
            or not isinstance(params.get("num_docs"), int)
        ):
            return None
        if (folder / "nonoccurrence_array.index.npy").exists():
            return None
        arrays = [
            np.load(folder / f"{name}.csc.index.npy", mmap_mode="r", allow_pickle=False)
            for name in ("data", "indices", "indptr")
        ]
        vocab = orjson.loads((folder / "vocab.index.json").read_bytes())
        return cls(vocab, arrays, int(params["num_docs"]))

    def get_tokens_ids(self, tokens: Sequence[str]) -> list[int]:
        return [self.vocab_dict[t] for t in tokens if t in self.vocab_dict]

    def get_scores_from_ids(self, token_ids: Sequence[int]) -> np.ndarray:
        import numpy as np

        scores = np.zeros(self.num_docs, dtype=np.float32)
        for t in token_ids:
            start, end = int(self.indptr[t]), int(self.indptr[t + 1])
            # a token's column names each document once, so += adds as np.add.at would
            scores[self.indices[start:end]] += self.data[start:end]
        return scores
