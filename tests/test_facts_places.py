"""A place the user named, then called "there" or "this city", is named in the fact."""

from __future__ import annotations

import pytest
from test_facts_casual import facts_of

from nemori_cli.pipeline.places import with_places


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Have you been to Italy? I had a blast there last month.",
         "The user had a blast in Italy"),
        ("I visited Japan in April. I ate ramen every day there.",
         "The user ate ramen every day in Japan"),
        ("It's Seattle. It's one of my favorite cities to explore.",
         "Seattle is one of the user's favorite cities to explore"),
        ("I was in Chicago last week. I loved this city.", "The user loved Chicago"),
        ("I moved to Lisbon in 2021. I want to go back there every year.",
         "The user wants to go back to Lisbon every year"),
        ("We flew from Rio de Janeiro. We went on many excursions there.",
         "The user went on many excursions in Rio de Janeiro"),
    ],
)
def test_there_is_the_place_named_before(text: str, fact: str) -> None:
    assert any(f.startswith(fact) for f in facts_of(text)), facts_of(text)


@pytest.mark.parametrize(
    ("sentences", "placed"),
    [
        (["I visited Japan in April.", "The food there was incredible."],
         "The food in Japan was incredible."),
        (["I visited Japan in April.", "A trip there is long."], "A trip to Japan is long."),
        (["I'm moving to Seattle.", "I don't know anyone there yet."],
         "I don't know anyone in Seattle yet."),
        (["I'm heading to Berlin.", "I'll be there for a week."], "I'll be in Berlin for a week."),
        (["I moved to Austin.", "I've been there ever since."], "I've been in Austin ever since."),
        (["I'm in the UK for work.", "It's so rainy there."], "It's so rainy in the UK."),
    ],
)
def test_there_of_a_place_says_where(sentences: list[str], placed: str) -> None:
    assert with_places(sentences)[-1] == placed


@pytest.mark.parametrize(
    "sentences",
    [
        # two places: "there" could be either
        ["I went to Paris and Rome.", "I loved it there."],
        ["I went to Paris, Rome and Berlin.", "I loved it there."],
        # no place: a month, a person's home
        ["I went to the lake in May.", "I loved it there."],
        ["I went to John's place.", "We had fun there."],
        # "there" of no place
        ["I moved to York.", "My friends are always there for me."],
        ["I moved to York.", "I know there are good schools.", "Hang in there."],
        ["I moved to York.", "I'm not there yet with unpacking."],
        ["I'm flying to Iceland.", "Is there anything I should pack?"],
        ["I went to Iceland in 2019.", "Been there, done that."],
        ["I'm reading a chapter in Dune.", "I'm almost there."],
        ["I'm in Grade 10.", "I've been there a while."],
        # two places, however they are joined
        ["We drove from Phoenix to Tucson.", "It took two hours to get there."],
        ["I'm going to Rome and then to Florence.", "I've never been there."],
    ],
)
def test_there_of_no_one_place_stays(sentences: list[str]) -> None:
    assert with_places(sentences)[1:] == sentences[1:]
