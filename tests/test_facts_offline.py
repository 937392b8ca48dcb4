"""Offline facts: which sentences qualify, third-person rewriting, categories, dedup, supersede."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from nemori_cli.config import Settings
from nemori_cli.embed import LocalEmbedder
from nemori_cli.importers.source import open_source
from nemori_cli.models import (
    Conversation,
    Episode,
    Fact,
    Message,
    stable_id,
    utcnow,
    with_time,
)
from nemori_cli.pipeline.base import Usage
from nemori_cli.pipeline.facts import (
    episode_facts,
    fact_id,
    fold_duplicates,
    normalise,
    statements,
    superseded_by,
)
from nemori_cli.pipeline.offline import OfflineExtractor
from nemori_cli.pipeline.rewrite import split_sentences, to_third_person
from nemori_cli.pipeline.salience import DEMONSTRATIVE_PENALTY, salience

SAMPLE_CHATS = Path(__file__).resolve().parent.parent / "sample_chats"

MAY8 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def said(content: str, name: str | None = None, role: str = "user") -> list[str]:
    """The fact texts one message yields."""
    message = Message(id="m1", role=role, content=content, name=name, timestamp=MAY8)
    return [with_time(s.content, s.when) for s in statements(message)]


def episode_of(*messages: Message, user: str = "u1") -> Episode:
    return Episode(
        id="ep1", user_id=user, conversation_id="c1", title="t", content="", timestamp=MAY8,
        message_ids=tuple(m.id for m in messages), messages=messages, created_at=utcnow(),
        extraction={"extractor": "offline", "status": "pending"},
    )


def extractor() -> OfflineExtractor:
    return OfflineExtractor(Settings(data_dir=Path("unused")), lambda t: np.zeros((len(t), 4)))


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    return LocalEmbedder()


@pytest.mark.parametrize(
    ("content", "name", "expected"),
    [
        ("I usually go hiking in the Alps in September.", None,
         "The user usually goes hiking in the Alps in September."),
        ("I hate running on treadmills, I much prefer trails.", None,
         "The user hates running on treadmills, the user much prefers trails."),
        ("My partner and I want a weekend away, £600 for both of us.", None,
         "The user and their partner want a weekend away, £600 for both of them."),
        ("I no longer drink coffee.", None, "The user no longer drinks coffee."),
        # a word between "I" and the verb that is no verb: "almosts", "kinds of" were wrong
        ("I almost quit my job.", None, "The user almost quit their job."),
        ("I kind of want to learn the cello.", None, "The user kind of wants to learn the cello."),
        ("I sort the mail every morning.", None, "The user sorts the mail every morning."),
        ("I hardly ever drink alcohol.", None, "The user hardly ever drinks alcohol."),
        ("I pretty much live at the climbing gym.", None,
         "The user pretty much lives at the climbing gym."),
        ("My sister lives in Lyon with her two kids.", None,
         "The user's sister lives in Lyon with her two kids."),
        ("I'm allergic to peanuts.", None, "The user is allergic to peanuts."),
        ("I'm allergic to peanuts.", "Caroline", "Caroline is allergic to peanuts."),
        ("I've been to Japan twice and I have a dog named Max.", "Jon",
         "Jon has been to Japan twice and Jon has a dog named Max."),
        ("I don't eat meat or fish anymore.", "Jon", "Jon doesn't eat meat or fish anymore."),
        ("I was so tired after the marathon that I slept all day.", "Jon",
         "Jon was so tired after the marathon that Jon slept all day."),
        ("My parents gave me this guitar when I turned sixteen.", "Jon",
         "Jon's parents gave Jon this guitar when Jon turned sixteen."),
        ("I taught myself to paint with watercolours.", "Jon",
         "Jon taught themself to paint with watercolours."),
        ("I really love painting landscapes by the lake.", "Mel",
         "Mel loves painting landscapes by the lake."),
        ("I try to study Portuguese every day.", "Mel", "Mel tries to study Portuguese every day."),
        ("I watch football with my brother on Sundays.", "Mel",
         "Mel watches football with Mel's brother on Sundays."),
        ("I need a new pair of hiking boots for the trip.", "Mel",
         "Mel needs a new pair of hiking boots for the trip."),
        ("I'll start my new job at Kontor in November.", "Mel",
         "Mel will start Mel's new job at Kontor in November."),
        ("I went to a LGBTQ support group yesterday and it was so powerful.", "Caroline",
         "Caroline went to a LGBTQ support group and it was powerful (7 May 2023)."),
        ("Last week I finally finished my first marathon in Berlin.", "Jon",
         "Jon finally finished Jon's first marathon in Berlin (the week before 8 May 2023)."),
        ("Took a short trip to Rome last month to clear my mind.", "Jon",
         "Jon took a short trip to Rome to clear Jon's mind (April 2023)."),
        ("Hey Mel! Yeah, I started a pottery class at the community center.", "Caroline",
         "Caroline started a pottery class at the community center."),
    ],
)
def test_first_person_statements_are_rewritten_about_the_speaker(
    content: str, name: str | None, expected: str
) -> None:
    assert said(content, name) == [expected]


@pytest.mark.parametrize(
    ("content", "name", "expected"),
    [
        ("Trying to get my old bike fixed before the summer.", "Jon",
         ["Jon is trying to get Jon's old bike fixed before the summer."]),
        ("Taking time for ourselves is vital for my family.", "Jon",
         ["Taking time for themselves is vital for Jon's family."]),
        # the gerund is the subject of "must": no "I'm" was dropped before it
        ("Wow, learning about the connections between them must be so cool.", "Audrey", []),
        ("On another note, I just adopted a pup from a shelter!", "Maria",
         ["Maria just adopted a pup from a shelter."]),
        ("Last week I retook the driving test, and I feel ready for the road.", "John",
         ["John retook the driving test, and John feels ready for the road (the week before "
          "8 May 2023)."]),
        ("I gotta finish my thesis on coral reefs by June.", "Jo",
         ["Jo has to finish Jo's thesis on coral reefs by June."]),
        ("I completely rebuilt my garden shed this spring.", "Jo",
         ["Jo completely rebuilt Jo's garden shed (spring 2023)."]),
        ("We both love hiking in the Alps with our dogs.", "Nate",
         ["Nate loves hiking in the Alps with Nate's dogs."]),
        ("My brother and I both love hiking in the Alps.", "Nate",
         ["Nate and Nate's brother both love hiking in the Alps."]),
        ("Been a few days since we talked about the trip.", "Nate", []),
        # the finite verb after the dash is the next clause's: the gerund is the speaker's
        ("Researching adoption agencies - it's been a dream to have a family.", "Nate",
         ["Nate is researching adoption agencies - it's been a dream to have a family."]),
        # emphasis is not content; "so ... that" keeps its "so"
        ("I'm so excited about my new puppy, she's super sweet.", "Maria",
         ["Maria is excited about Maria's new puppy.", "Maria's new puppy is sweet."]),
        ("I was so tired after the marathon that I slept all day.", "Jon",
         ["Jon was so tired after the marathon that Jon slept all day."]),
        # the part said to the listener goes, the speaker's own clause stays
        ("I also made a dairy-free chocolate cake last week, maybe you would like that!", "Nate",
         ["Nate also made a dairy-free chocolate cake (the week before 8 May 2023)."]),
        ("Just a heads up for you - I took a creative writing class recently.", "Maria",
         ["Maria took a creative writing class recently."]),
        ("Mixed emotions are rough, but I have faith in you!", "Nate", []),
        # a short "It ..." sentence says what the statement before it was like
        ("I typically hold it for 30-60 seconds. It really helps with building strength!", "John",
         ["John typically holds it for 30-60 seconds and it helps with building strength."]),
        # the clause to the listener goes, and the connectives that led into it with it
        ("I love football, but, of course, the most important reason is to improve yourself.",
         "James", ["James loves football."]),
        # a gerund with its own verb is the subject ("Going on walks is ..."), not "I'm going"
        ("Going on beach sunsets is one of my favorites - good for exercise.", "Evan",
         ["Going on beach sunsets is one of Evan's favorites - good for exercise."]),
        ("Going to have surgery on my knee next week.", "Evan",
         ["Evan is going to have surgery on Evan's knee (the week after 8 May 2023)."]),
    ],
)
def test_chat_english_is_rewritten_as_a_plain_statement(
    content: str, name: str, expected: list[str]
) -> None:
    assert said(content, name) == expected


@pytest.mark.parametrize(
    "content",
    [
        "Do you think I should go hiking in the Alps this September?",
        "Hey Caroline! Good to see you!",
        "Thanks so much, that really helps me a lot!",
        "I'm so happy for you, that sounds amazing!",
        "I totally agree with what you said about the trip.",
        "That painting looks great, where did you buy it?",
        "Let's meet for coffee next week at the usual place.",
        "Can I bring my dog to the hut on the trail?",
        "Here's a photo I took of the beach at sunset.",
        "The weather in the mountains was lovely all week.",  # not about the speaker
        "I'm fine.",  # too little to say
    ],
)
def test_questions_greetings_thanks_and_chatter_make_no_facts(content: str) -> None:
    assert said(content, "Jon") == []


@pytest.mark.parametrize("role", ["assistant", "system", "tool", "Assistant"])
def test_non_human_roles_make_no_facts(role: str) -> None:
    assert said("I usually go hiking in the Alps every September.", role=role) == []


def test_speaker_roles_other_than_user_are_people() -> None:
    assert said("I have lived in Lisbon for three years now.", "Ana", role="friend") == [
        "Ana has lived in Lisbon since 2020."  # "for three years now", said in 2023
    ]


def test_at_most_three_facts_per_message_and_the_strongest_win() -> None:
    content = (
        "I'm vegetarian and I'm allergic to peanuts. I usually go hiking in September. "
        "I had a sandwich. I live in Berlin with my partner Jonas. I teach piano at the school."
    )
    facts = said(content)
    assert len(facts) == 3
    assert "The user had a sandwich." not in facts


def test_an_intention_said_in_passing_gives_way_to_what_happened() -> None:
    content = (
        "I repainted the old shed in the garden. I'll keep an eye on the old wooden shed in "
        "the garden. I started a new job at the bakery. I adopted a puppy from the shelter."
    )
    assert said(content, "Jon") == [
        "Jon repainted the old shed in the garden.", "Jon started a new job at the bakery.",
        "Jon adopted a puppy from the shelter.",
    ]


def test_a_statement_about_someone_unnamed_gives_way_to_one_that_stands_alone() -> None:
    content = (
        "I picked them up from the old station downtown. I started a new job at the bakery. "
        "I repainted the old wooden shed in the garden. I adopted a puppy from the shelter."
    )
    assert said(content, "Jon") == [
        "Jon started a new job at the bakery.", "Jon repainted the old wooden shed in the garden.",
        "Jon adopted a puppy from the shelter.",
    ]


def test_a_statement_that_names_a_place_or_a_time_outranks_a_plainer_one() -> None:
    content = (
        "I baked bread with my kids. I went hiking with my brother. I painted a mural in Lisbon. "
        "I ran a half marathon yesterday."
    )
    assert said(content, "Jon") == [
        "Jon baked bread with Jon's kids.", "Jon painted a mural in Lisbon.",
        "Jon ran a half marathon (7 May 2023).",
    ]


def test_a_statement_about_things_it_points_at_but_does_not_name_is_no_fact() -> None:
    assert said("I painted those for the fair. I painted a mural in Lisbon.", "Jon") == [
        "Jon painted a mural in Lisbon."
    ]


def test_talk_about_the_conversation_itself_is_left_out_of_a_fact() -> None:
    content = (
        "Things have been great since we last talked - I've been focusing on school and "
        "reading a bunch of fantasy books. Crazy stuff has been happening since we last chatted."
    )
    assert said(content, "Tim") == [
        "Things have been great - Tim has been focusing on school and reading a bunch of "
        "fantasy books."
    ]
    # news announced is no news: what comes after the dash is the fact
    content = "Hey Mel! A lot's happened since we last chatted - I just joined an activist group."
    assert said(content, "Caroline") == ["Caroline just joined an activist group."]
    assert said("Much has happened - I went to an LGBTQ conference in Denver.", "Tim") == [
        "Tim went to an LGBTQ conference in Denver."
    ]


@pytest.mark.parametrize(
    ("content", "category"),
    [
        ("I'm allergic to peanuts and shellfish.", "user_profile"),
        ("I live in Berlin with my partner Jonas.", "user_profile"),
        ("I work as a nurse at the city hospital.", "user_profile"),
        ("I love spicy food, especially Sichuan dishes.", "user_profile"),
        ("My sister and her husband moved to Lyon.", "user_profile"),
        ("I went to a pottery workshop with my colleagues.", "experience"),
        ("I visited the Louvre on my trip to Paris.", "experience"),
        ("I learned Python and Go on my own over two years.", "knowledge"),
        ("I realized that consistency matters more than intensity.", "knowledge"),
        ("I've been on sertraline since my divorce was finalised.", "user_profile"),
        # "April" is no medicine ("ramipril"), nor "performing" ("metformin")
        ("I planted the clay beds in our garden from October to April.", "experience"),
        ("I'm dreaming of touring the world, performing for different crowds.", "other"),
    ],
)
def test_categories(content: str, category: str) -> None:
    message = Message(id="m1", role="user", content=content, timestamp=MAY8)
    assert [s.category for s in statements(message)] == [category]


def test_extract_builds_traceable_deterministic_facts() -> None:
    m1 = Message(id="m1", role="user", content="I'm allergic to peanuts.", name="Ana",
                 timestamp=MAY8)
    m2 = Message(id="m2", role="assistant", content="I will remember that you are allergic.",
                 timestamp=MAY8 + timedelta(minutes=1))
    m3 = Message(id="m3", role="user", content="Again: I'm allergic to peanuts!", name="Ana",
                 timestamp=MAY8 + timedelta(minutes=2))
    result = extractor().extract(episode_of(m1, m2, m3), [])
    assert result.episode.extraction == {"extractor": "offline", "status": "done"}
    assert result.usage == Usage()
    assert result.superseded == {}
    (fact,) = result.facts  # the repeat folds into the same fact
    assert fact.content == "Ana is allergic to peanuts."
    assert fact.id == stable_id("fact", "u1", "ana is allergic to peanuts")
    assert fact.id == fact_id("u1", "Ana is allergic to peanuts!")
    assert fact.source_episode_ids == ("ep1",)
    assert fact.source_message_ids == ("m1", "m3")
    assert fact.category == "user_profile"
    assert fact.subject == "Ana"
    assert fact.valid_from == MAY8
    assert fact.extractor == "offline"
    assert 0 < fact.confidence <= 1
    again = extractor().extract(episode_of(m1, m2, m3), [])
    assert [f.id for f in again.facts] == [fact.id]


def test_normalise_ignores_case_spacing_and_punctuation() -> None:
    assert normalise("  The user's  dog is NAMED Max!! ") == "the user's dog is named max"


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("I got my car serviced, it was a Honda I bought in May",
         "The user got their car serviced, it was a Honda the user bought in May"),
        ("My wife and I are celebrating our 5th anniversary",
         "The user and their wife are celebrating their 5th anniversary"),
        ("Yesterday my best friend and I went hiking",
         "Yesterday the user and their best friend went hiking"),
        # "their" would be the kids': the user stays named
        ("I love my kids and their friends", "The user loves the user's kids and their friends"),
        ("My dog is sick", "The user's dog is sick"),
    ],
)
def test_the_user_named_once_owns_their_things(sentence: str, expected: str) -> None:
    assert to_third_person(sentence, None) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("I booked us a class for tomorrow", "The user booked themselves a class for tomorrow"),
        ("I got me a new bike", "The user got themself a new bike"),
        ("My sister and I booked us a trip to Rome",
         "The user and their sister booked themselves a trip to Rome"),
        # someone else acts on the user: still the user
        ("He gave us a lift", "He gave the user a lift"),
        ("I called and she told me", "The user called and she told the user"),
        ("I asked them to call me", "The user asked them to call the user"),
    ],
)
def test_what_the_user_does_for_themself_is_no_second_user(sentence: str, expected: str) -> None:
    assert to_third_person(sentence, None) == expected


def test_a_name_is_kept_for_each_thing_the_speaker_owns() -> None:
    assert to_third_person("I got my car serviced", "Ana") == "Ana got Ana's car serviced"


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("I need a gift for my sister. She's turning 30 and loves pottery.",
         ["The user needs a gift for their sister.",
          "The user's sister is turning 30 and loves pottery."]),
        ("My son Leo just turned 6. He's obsessed with dinosaurs.",
         ["The user's son Leo just turned 6.", "The user's son Leo is obsessed with dinosaurs."]),
        ("My best friend moved to Seattle. She's been at Amazon since March.",
         ["The user's best friend moved to Seattle.",
          "The user's best friend has been at Amazon since March."]),
        ("I adopted a greyhound named Pixel. She's scared of stairs.",
         ["The user adopted a greyhound named Pixel.",
          "The user's greyhound Pixel is scared of stairs."]),
        ("I have a brother named Sam. She is nice.", ["The user has a brother named Sam."]),
        # after a comma in the same sentence
        ("I'm visiting my sister, she lives in Porto now.",
         ["The user is visiting their sister.", "The user's sister lives in Porto now."]),
        # typed in lower case
        ("I need a gift idea for my husband. he's 70 and likes cricket",
         ["The user needs a gift idea for their husband.",
          "The user's husband is 70 and likes cricket."]),
        # two people, or one the pronoun does not fit: nobody to read it as
        ("My mom and my dad are visiting. She loves gardening.",
         ["The user's mom and their dad are visiting."]),
        ("I talked to my brother about the move. She said it's a good idea.",
         ["The user talked to their brother about the move."]),
        # in the same sentence: "she" is the daughter, no pronoun left unexplained
        ("My daughter just started kindergarten and she's really shy.",
         ["The user's daughter just started kindergarten and she's shy."]),
        ("My son told me she was rude.", []),
    ],
)
def test_she_or_he_after_the_speakers_one_person_is_that_person(
    text: str, facts: list[str]
) -> None:
    assert [s.content for s in statements(Message(id="m", role="user", content=text))] == facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # to an assistant, the user's next message goes on about the one person named
        (["My mom was diagnosed with Alzheimer's last week. What are the next steps?",
          "She still lives by herself in the house I grew up in. She's 78."],
         ["The user's mom still lives by herself in the house the user grew up in.",
          "The user's mom is 78."]),
        # and on again: "he" two messages on is still the husband
        (["no idea what to get my husband for christmas",
          "he's 70, likes cricket and crosswords", "he's got all the cricket books going"],
         ["The user's husband has got all the cricket books going."]),
        # the message before names two people she can be: nobody to read it as
        (["My mom is ill. My sister Tammy lives down in Cincinnati.",
          "She's still driving and that scares me the most."], []),
    ],
)
def test_she_opening_a_message_is_the_one_person_the_users_message_before_named(
    said: list[str], facts: list[str]
) -> None:
    messages: list[Message] = []
    for i, text in enumerate(said):
        messages += [Message(id=f"u{i}", role="user", content=text),
                     Message(id=f"a{i}", role="assistant", content="I see. Tell me more.")]
    last = [f.content for f in episode_facts(episode_of(*messages))
            if f.source_message_ids == (f"u{len(said) - 1}",)]
    assert last == facts


@pytest.mark.parametrize(
    ("text", "fact"),
    [("Moving forward, we should use Postgres.", "Moving forward, the user should use Postgres."),
     ("Going forward, I want weekly reports.", "Going forward, the user wants weekly reports.")],
)
def test_a_phrase_steering_the_talk_is_not_what_the_user_is_doing(text: str, fact: str) -> None:
    assert [s.content for s in statements(Message(id="m", role="user", content=text))] == [fact]


def test_a_short_statement_of_since_when_is_a_dated_fact() -> None:
    message = Message(id="m", role="user", content="I've had my cat for 3 years.",
                      timestamp=datetime(2023, 5, 8, tzinfo=UTC))
    assert [s.content for s in statements(message)] == ["The user has had their cat since 2020."]


def test_split_sentences_keeps_abbreviations_and_splits_lines() -> None:
    text = "I met Dr. Smith today! He is nice.\nNew line here? Yes."
    assert split_sentences(text) == [
        "I met Dr. Smith today!", "He is nice.", "New line here?", "Yes."
    ]


def test_rewrite_without_a_name_uses_the_user() -> None:
    assert to_third_person("my dog and I love long walks", None) == (
        "The user and their dog love long walks"
    )
    assert to_third_person("that bike is mine, I bought it myself", None) == (
        "That bike is the user's, the user bought it themself"
    )


# --- fold_duplicates -------------------------------------------------------------------


def fact(content: str, *, message: str, episode: str = "ep1", when: str | None = None) -> Fact:
    return Fact(
        id=fact_id("u1", content), user_id="u1", content=content, category="user_profile",
        source_episode_ids=(episode,), source_message_ids=(message,), confidence=0.7,
        created_at=utcnow(), valid_from=MAY8, extractor="offline", subject=None, when=when,
    )


def test_fold_duplicates_against_stored_and_within_the_batch(local: LocalEmbedder) -> None:
    stored = [fact("The user is allergic to peanuts.", message="old1", episode="ep0")]
    stored_vecs = local.embed([f.content for f in stored])
    candidates = [
        fact("The user lives in Berlin with their partner.", message="m1"),
        fact("The user is allergic to peanuts!", message="m2"),
        fact("The user lives in Berlin with their partner!", message="m3", episode="ep2"),
        fact("The user plays the violin in an orchestra.", message="m4"),
    ]
    vectors = local.embed([f.content for f in candidates])

    def nearest(vecs: np.ndarray) -> list[tuple[Fact, float] | None]:
        sims = vecs @ stored_vecs.T
        return [(stored[int(row.argmax())], float(row.max())) for row in sims]

    new, merged, keep = fold_duplicates(candidates, vectors, nearest, 0.92)
    assert [f.content for f in new] == [
        "The user lives in Berlin with their partner.",
        "The user plays the violin in an orchestra.",
    ]
    assert new[0].source_message_ids == ("m1", "m3")
    assert new[0].source_episode_ids == ("ep1", "ep2")
    assert keep == [0, 3]
    assert [(sid, f.source_message_ids) for sid, f in merged] == [(stored[0].id, ("m2",))]


def test_fold_duplicates_follows_an_earlier_candidate_into_the_stored_fact() -> None:
    vectors = np.array([[1, 0], [0.95, 0.31225], [0, 1]], dtype=np.float32)
    candidates = [fact(f"fact {i}", message=f"m{i}") for i in range(3)]
    stored = fact("stored fact", message="old")

    def nearest(vecs: np.ndarray) -> list[tuple[Fact, float] | None]:
        return [(stored, 0.95), (stored, 0.85), None]

    new, merged, keep = fold_duplicates(candidates, vectors, nearest, 0.92)
    assert [f.content for f in new] == ["fact 2"] and keep == [2]
    ((sid, folded),) = merged
    assert sid == stored.id and folded.source_message_ids == ("m0", "m1")


def test_fold_duplicates_keeps_one_thing_told_with_two_times_apart() -> None:
    said = "The user went to a support group."
    stored = fact(said, message="old", when="7 May 2023")
    candidates = [
        fact(said, message="m1", when="20 May 2023"),  # the same again, another day
        fact(said, message="m2", when="7 May 2023"),  # the stored telling repeated
        fact(said, message="m3", when="20 May 2023"),  # m1 repeated in the batch
        fact(said, message="m4"),  # undated: may be either telling
    ]
    vectors = np.ones((4, 2), dtype=np.float32) / 2**0.5

    def nearest(vecs: np.ndarray) -> list[tuple[Fact, float] | None]:
        return [(stored, 1.0)] * len(vecs)

    new, merged, keep = fold_duplicates(candidates, vectors, nearest, 0.92)
    assert [(f.when, f.source_message_ids) for f in new] == [("20 May 2023", ("m1", "m3"))]
    assert keep == [0]
    assert [(sid, f.source_message_ids) for sid, f in merged] == [(stored.id, ("m2", "m4"))]


def test_fold_duplicates_with_nothing_stored_or_nothing_new() -> None:
    none: list[tuple[str, float] | None] = []
    assert fold_duplicates([], np.zeros((0, 4)), lambda v: none, 0.9) == ([], [], [])
    one = [fact("The user likes tea.", message="m1")]
    assert fold_duplicates(one, np.ones((1, 2)) / 2**0.5, lambda v: [None], 0.9) == (
        one, [], [0]
    )


# --- facts that change -----------------------------------------------------------------


def test_a_move_supersedes_the_old_residence() -> None:
    old = replace(fact("The user lives in Berlin, so the user flies from there.", message="a"),
                  valid_from=MAY8 - timedelta(days=300))
    job = fact("The user works at Kontor as a backend engineer.", message="b")
    sister = fact("The user's sister Anna lives in Lyon.", message="c")
    m = Message(id="m9", role="user", content="I moved from Berlin to Lisbon last month.",
                timestamp=MAY8)
    result = extractor().extract(episode_of(m), [old, job, sister])
    (new,) = result.facts
    assert (new.content, new.when) == ("The user moved from Berlin to Lisbon.", "April 2023")
    assert new.dated_content == "The user moved from Berlin to Lisbon (April 2023)."
    assert result.superseded == {old.id: new.id}


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I started a new job as a data analyst at Nordwind.",
         "I left that job and I'm now a curriculum designer at an edtech startup."),
        ("I'm vegetarian, so no meat please.", "I went fully vegan last month."),
        ("I've been working as a nurse at St Mary's since 2019.",
         "I'm now a school nurse at Hill Primary."),
        # a job title written as one: "Financial Analyst - it's been quite a change"
        ("I work as a nurse at St Mary's.",
         "I started a new job as a Financial Analyst - it's been quite a change."),
        # a home or an employer said another way than "moved to", "works at"
        ("I live in Berlin with my partner Jonas.", "I'm now based in Lisbon, loving it."),
        ("I live in Berlin with my partner Jonas.", "We just moved into a flat in Hackney."),
        ("I work at Kontor as a backend engineer.", "I started a new job at Spotify last week."),
    ],
)
def test_a_new_home_job_or_diet_supersedes_the_old_one(before: str, after: str) -> None:
    (old,) = extractor().extract(episode_of(
        Message(id="m1", role="user", content=before, timestamp=MAY8 - timedelta(days=200))
    ), []).facts
    result = extractor().extract(episode_of(
        Message(id="m9", role="user", content=after, timestamp=MAY8)
    ), [old])
    assert result.superseded == {old.id: result.facts[0].id}


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I work as a nurse at St Mary's.", "I'm now a regular at the climbing gym."),
        ("I'm vegetarian, so no meat please.", "My sister went vegan last month."),
        ("I work as a nurse.", "I'm thinking about becoming a teacher."),
    ],
)
def test_what_is_no_new_occupation_or_diet_supersedes_nothing(before: str, after: str) -> None:
    (old,) = extractor().extract(episode_of(Message(id="m1", role="user", content=before)),
                                 []).facts
    message = Message(id="m9", role="user", content=after, timestamp=MAY8)
    assert extractor().extract(episode_of(message), [old]).superseded == {}


def test_two_new_homes_told_at_once_supersede_the_old_one_the_same_in_any_order() -> None:
    old = replace(fact("The user lives in Berlin.", message="a"),
                  valid_from=MAY8 - timedelta(days=300))
    moved = fact("The user moved from Berlin to Lisbon.", message="m9")
    street = fact("The user now lives in Arroios.", message="m9")
    first = superseded_by([moved, street], [old])
    assert first == superseded_by([street, moved], [old])
    assert first == {old.id: min(moved.id, street.id)}
    later = replace(moved, valid_from=MAY8 + timedelta(days=1))  # told the day after
    assert superseded_by([street, later], [old]) == {old.id: later.id}


def test_plans_to_move_do_not_supersede() -> None:
    old = fact("The user lives in Berlin.", message="a")
    m = Message(id="m9", role="user", content="I'm thinking about moving to Lisbon next year.",
                timestamp=MAY8)
    assert extractor().extract(episode_of(m), [old]).superseded == {}


# --- the sample chats ------------------------------------------------------------------


def sample_facts() -> list[tuple[Conversation, list[Fact]]]:
    ex = extractor()
    out = []
    for path in sorted(SAMPLE_CHATS.iterdir()):
        for conv in open_source(str(path)).conversations():
            facts = [
                f for seg in ex.segment(conv)
                for f in ex.extract(ex.episode("me", conv, seg), []).facts
            ]
            out.append((conv, facts))
    return out


def test_sample_chats_give_the_facts_a_user_would_expect() -> None:
    results = sample_facts()
    assert 4 <= len(results) <= 6
    texts = [f.content for _, facts in results for f in facts]
    assert any("hiking in the Alps every September" in t for t in texts)
    assert any("allergic to peanuts" in t for t in texts)
    assert any("moved from Berlin to Lisbon" in t for t in texts)
    assert all("the user" in t.lower() for t in texts), texts  # no names in these chats
    assert all(len(facts) >= 1 for _, facts in results)
    dated = [c.messages[0].timestamp for c, _ in results]
    assert all(dated) and max(dated) - min(dated) > timedelta(days=180)  # type: ignore[operator]


def test_the_same_event_on_two_days_is_two_facts() -> None:
    """The time a fact tells of is part of its id: a run on 7 May and a run on 6 June."""
    first = Message(id="m1", role="user", content="I ran a half marathon in Berlin yesterday.",
                    timestamp=MAY8)
    later = Message(id="m2", role="user", content="I ran a half marathon in Berlin yesterday.",
                    timestamp=MAY8 + timedelta(days=30))
    facts = episode_facts(episode_of(first, later))
    assert [(f.content, f.when) for f in facts] == [
        ("The user ran a half marathon in Berlin.", "7 May 2023"),
        ("The user ran a half marathon in Berlin.", "6 June 2023"),
    ]
    assert len({f.id for f in facts}) == 2


@pytest.mark.parametrize(
    ("content", "fact"),
    [
        ("We played this game Catan - it's a great strategy game where you build settlements.",
         "Nate played this game Catan."),
        ("I've been reading this fantasy series called Mistborn.",
         "Nate has been reading this fantasy series called Mistborn."),
    ],
)
def test_a_demonstrative_the_sentence_names_points_at_something(content: str, fact: str) -> None:
    assert said(content, name="Nate") == [fact]


def test_only_a_demonstrative_naming_nothing_costs_salience() -> None:
    def cost(with_this: str, with_the: str) -> float:
        return salience(with_the, "experience") - salience(with_this, "experience")

    assert cost("We loved this little cafe Luigi's.", "We loved the little cafe Luigi's.") == 0
    assert cost("We loved this little cafe in 2019.", "We loved the little cafe in 2019.") == (
        pytest.approx(DEMONSTRATIVE_PENALTY))  # the year's bonus makes the sums inexact
