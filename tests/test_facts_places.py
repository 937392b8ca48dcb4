"""A place the user named, then called "there" or "this city", is named in the fact."""

from __future__ import annotations

import pytest
from test_facts_casual import facts_of
from test_facts_offline import episode_of

from nemori_cli.models import Message
from nemori_cli.pipeline.facts import episode_facts
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
        (["I visited Italy.", "I always dreamed of visiting there."],
         "I always dreamed of visiting Italy."),
        (["I want to visit Porto.", "I could stop by there in June."],
         "I could stop by Porto in June."),
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


@pytest.mark.parametrize(
    ("asked", "said", "fact"),
    [
        ("Have you ever been to Kyoto?", "Yes! I spent two weeks there last spring.",
         "The user spent two weeks in Kyoto"),
        ("How was your trip to Lisbon?", "Amazing, the food there was the best I've had.",
         "The food in Lisbon was the best the user has had"),
        ("I went to Rome last year.", "I've never been there but I want to go.",
         "The user has never been to Rome"),
        # the message names a place of its own, or the one before names two: as said
        ("Have you been to Kyoto?", "I went to Osaka and stayed there for a week.",
         "The user went to Osaka and stayed there for a week"),
        ("You could try Porto or Lisbon.", "I loved my week there in 2019.",
         "The user loved their week there"),
    ],
)
def test_there_is_the_place_the_message_before_named(asked: str, said: str, fact: str) -> None:
    episode = episode_of(Message(id="a", role="assistant", content=asked),
                         Message(id="b", role="user", content=said))
    facts = [f.content for f in episode_facts(episode)]
    assert any(f.startswith(fact) for f in facts), facts
