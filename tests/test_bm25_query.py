"""A saved BM25 index scored with numpy alone gives bm25s's own scores, token for token."""

from __future__ import annotations

from pathlib import Path

import bm25s
import numpy as np
import pytest
from bm25s.stopwords import STOPWORDS_EN

from nemori_cli.store import lexical
from nemori_cli.store.bm25_query import SavedBM25, query_tokens, stemmer, stopwords

DOCS = [
    "I went hiking in the Alps in September with Maria",
    "My sister moved to Lyon last spring and loves her new job",
    "Python asyncio gather cancels the remaining tasks when one raises",
    "We camped near the lake before the pass; the hikes were long",
    "Je voudrais réserver une chambre à Chamonix près du téléphérique",
    "running, runner, runs: the marathon in Lisbon",
    "",
]
QUERIES = [
    "hiking Alps",
    "The HIKES and the hiking!",
    "what did I do in september?",
    "réserver chambre Chamonix",
    "runs running runner",
    "the and of",  # stopwords only
    "zzz unknownword",
    "lake lake lake pass",
    "Lisbon 🙂 marathon",
]


def test_the_stopwords_are_bm25s_own() -> None:
    assert stopwords() == frozenset(STOPWORDS_EN)


@pytest.mark.parametrize("query", QUERIES)
def test_query_tokens_are_what_bm25s_makes(query: str) -> None:
    want = bm25s.tokenize([query], stopwords="en", stemmer=stemmer(), return_ids=False)
    want_tokens = want[0] if want and want[0] != [""] else []
    assert query_tokens(query) == [t for t in want_tokens if t]


def test_scores_match_bm25s_and_a_search_does_not_need_it(tmp_path: Path) -> None:
    index = lexical.LexicalIndex(tmp_path / "facts")
    ids = [f"d{i}" for i in range(len(DOCS))]
    index.rebuild(ids, DOCS)
    saved = SavedBM25.load(tmp_path / "facts")
    assert saved is not None
    reference = bm25s.BM25.load(str(tmp_path / "facts"), mmap=False, show_progress=False)
    for query in QUERIES:
        tokens = query_tokens(query)
        got_ids = saved.get_tokens_ids(tokens)
        assert got_ids == reference.get_tokens_ids(tokens)
        if got_ids:
            assert np.array_equal(
                saved.get_scores_from_ids(got_ids), reference.get_scores_from_ids(got_ids)
            )
    fresh = lexical.LexicalIndex(tmp_path / "facts")
    hits = fresh.query("hiking in the Alps", 5)
    assert hits[0][0] == "d0" and {d for d, _ in hits} <= {"d0", "d3"}
    assert fresh.query("the and of", 5) == []
