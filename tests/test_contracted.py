"""A person's "'s" read as "is" or "has" only where it cannot be what they own."""

from __future__ import annotations

import pytest

from nemori_cli.pipeline.contracted import with_is_written_out


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("Mom's in the hospital again", "Mom is in the hospital again"),
        ("my daughter's home for the holidays", "my daughter is home for the holidays"),
        ("My sister's older than me", "My sister is older than me"),
        ("my wife's kind of strict", "my wife is kind of strict"),
        ("I think my dad's retired now", "I think my dad is retired now"),
        ("our dog's obsessed with balls", "our dog is obsessed with balls"),
        ("My partner's diabetic", "My partner is diabetic"),
        ("My husband’s allergic to shellfish", "My husband is allergic to shellfish"),
        ("my best friend's got a new job", "my best friend has got a new job"),
        ("btw my name's Sam", "btw my name is Sam"),
        ("my dad's never been to Paris", "my dad has never been to Paris"),
        ("my son's just started school", "my son has just started school"),
        ("my son's just 5", "my son is just 5"),
        ("My mother-in-law's visiting for two weeks", "My mother-in-law is visiting for two weeks"),
    ],
)
def test_the_s_of_a_clause_opening_on_a_person_is_their_verb(text: str, plain: str) -> None:
    assert with_is_written_out(text) == plain


@pytest.mark.parametrize(
    "text",
    [
        "My sister's wedding is in June",
        "My mom's home is in Ohio",
        "My sister's older son is 5",
        "my wife's kind words",
        "My dad's very own recipe",
        "My boss's meeting ran late",
        "my friend's in-laws are visiting",
        "My mom's cooking.",
        "I borrowed my brother's car.",
        "I love my son's music.",
    ],
)
def test_what_a_person_owns_stays_owned(text: str) -> None:
    assert with_is_written_out(text) == text
