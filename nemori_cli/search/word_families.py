"""Words of one family that the stemmer keeps apart: a query naming one asks for the others.

Snowball stems "allergies" to "allergi" and "allergic" to "allerg", "painter" stays
"painter" beside "paint", "Italian" beside "Italy": `nemori search allergies` shared no word
with "I'm allergic to peanuts". Each line below is one family; a query word of a family adds the
family's other words to the lexical query, and a text holding any of them matches the query
word in focus's match, relevance's coverage and the snippet. Only families whose words mean
one thing are listed: not "law" (in "mother-in-law") and "lawyer", nor "run", "write" or
"teach" (an assistant is asked to write a function, teach a trick) beside the person who does.
"""

from __future__ import annotations

import functools

from nemori_cli.search.turns import terms

FAMILIES = """
allergy allergies allergic
asthma asthmatic
anxiety anxious
injury injuries injured
pregnant pregnancy
religion religious
marriage married marry
retirement retiree
swim swimmer
cycling cyclist
paint painter
photography photographer
music musician
art artist
dance dancer
sing singer
bake baker
climb climber
hike hiker
ski skier
surf surfer
drum drummer
guitar guitarist
piano pianist
violin violinist
science scientist
therapy therapist
farm farmer
italy italian
japan japanese
china chinese
spain spanish
germany german
greece greek
mexico mexican
india indian
korea korean
thailand thai
vietnam vietnamese
brazil brazilian
portugal portuguese
sweden swedish
norway norwegian
ireland irish
scotland scottish
canada canadian
australia australian
america american
europe european
africa african
russia russian
france french
netherlands dutch
"""


@functools.cache
def kin_stems() -> dict[str, dict[str, str]]:
    """Each stem of a family: the family's other stems, each with a word that has it."""
    out: dict[str, dict[str, str]] = {}
    for line in FAMILIES.split("\n"):
        words = {stem: word for word in line.split() for stem in terms(word)}
        for stem in words:
            out[stem] = {other: word for other, word in words.items() if other != stem}
    return out


def family_words(query: str) -> list[str]:
    """A word for each other stem of the query words' families, each once."""
    table = kin_stems()
    found = [word for stem in sorted(terms(query)) for word in table.get(stem, {}).values()]
    return list(dict.fromkeys(found))


def family_stand_ins(query: str) -> dict[str, frozenset[str]]:
    """Each query stem with a family, and the other stems that count as it."""
    table = kin_stems()
    return {stem: frozenset(table[stem]) for stem in terms(query) if stem in table}


def with_family(query: str) -> str:
    """The query with its words' family members added, for a lexical index."""
    extra = family_words(query)
    return f"{query} {' '.join(extra)}" if extra else query
