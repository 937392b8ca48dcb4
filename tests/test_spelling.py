"""A British spelling finds the American one and back ("practise" the session that says
"practice"), in every lexical index; an index built before the mapping is queried as built."""

from __future__ import annotations

from pathlib import Path

import pytest

from nemori_cli.store import lexical
from nemori_cli.store.bm25_query import query_tokens, stemmer
from nemori_cli.store.lexical import SPELLING_FILE, LexicalIndex
from nemori_cli.store.spelling import american


@pytest.mark.parametrize(
    ("british", "us"),
    [
        ("practise", "practice"), ("favourite", "favorite"), ("colours", "colors"),
        ("neighbourhood", "neighborhood"), ("organisation", "organization"),
        ("apologising", "apologizing"), ("analysed", "analyzed"), ("centred", "centered"),
        ("kilometres", "kilometers"), ("travelled", "traveled"), ("counsellor", "counselor"),
        ("paediatrician", "pediatrician"), ("grey", "gray"), ("programme", "program"),
        ("jewellery", "jewelry"), ("licence", "license"),
    ],
)
def test_a_british_spelling_reads_as_the_american_one(british: str, us: str) -> None:
    assert american(british) == us
    assert query_tokens(british) == query_tokens(us)


@pytest.mark.parametrize(
    "word",
    # "-ise" words that are American too, "-our" and "-re" words that are not "-or", "-er"
    ["promise", "exercise", "advise", "surprise", "compromise", "supervise", "wise", "hour",
     "four", "your", "flour", "tour", "acre", "genre", "massacre", "specialist", "criticism",
     "installed", "skilled", "holiday", "practice"],
)
def test_a_word_spelled_one_way_only_stays_as_it_is(word: str) -> None:
    assert american(word) == word


DOCS = ["Practice switching G, C and D in a loop: those chords cover thousands of songs.",
        "My favourite colour is the grey of the sea in Porto.",
        "We booked the hotel near the station."]


def index(tmp_path: Path) -> LexicalIndex:
    idx = LexicalIndex(tmp_path / "episode")
    idx.rebuild(["guitar", "sea", "hotel"], DOCS)
    return LexicalIndex(tmp_path / "episode")  # as a later process opens it


@pytest.mark.parametrize(
    ("query", "found"),
    [("songs I could practise", "guitar"), ("my favorite color", "sea"),
     ("gray sea", "sea"), ("favourite colour", "sea")],
)
def test_the_lexical_index_matches_either_spelling(tmp_path: Path, query: str, found: str) -> None:
    assert index(tmp_path).query(query, 3)[0][0] == found


def test_an_index_built_before_the_mapping_is_queried_as_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexical, "stemmer", lambda: stemmer(False))  # an older nemori's build
    idx = LexicalIndex(tmp_path / "episode")
    idx.rebuild(["guitar", "sea", "hotel"], DOCS)
    (tmp_path / "episode" / SPELLING_FILE).unlink()
    monkeypatch.undo()
    old = LexicalIndex(tmp_path / "episode")
    assert old.query("favourite colour", 3)[0][0] == "sea"  # its own words, as stemmed then
    old.rebuild(["guitar", "sea", "hotel"], DOCS)  # the next ingest or reindex: mapped
    assert LexicalIndex(tmp_path / "episode").query("favorite color", 3)[0][0] == "sea"
