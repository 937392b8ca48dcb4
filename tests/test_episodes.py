"""Offline episodes: ids, titles, dated narratives with speaker names, relative dates resolved."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from nemori_cli.config import Settings
from nemori_cli.models import Conversation, Message, stable_id
from nemori_cli.pipeline.dates import annotate_dates, replace_dates, split_dates
from nemori_cli.pipeline.episodes import build_episode, trim_phrase
from nemori_cli.pipeline.offline import OfflineExtractor

MAY8 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday


def msg(i: int, content: str, role: str = "user", name: str | None = None,
        when: datetime | None = MAY8) -> Message:
    ts = when + timedelta(minutes=i) if when else None
    return Message(id=f"D1:{i}", role=role, content=content, name=name, timestamp=ts)


def locomo_like() -> Conversation:
    return Conversation(
        id="session_1",
        messages=(
            msg(1, "Hey Mel! Good to see you! How have you been?", name="Caroline"),
            msg(2, "Hey Caroline! I'm swamped with the kids & work. What's up with you?",
                name="Melanie"),
            msg(3, "I went to a LGBTQ support group yesterday and it was so powerful.",
                name="Caroline"),
            msg(4, "Wow, that's cool! We're going camping next month.", name="Melanie"),
        ),
    )


def fake_embed(texts: Sequence[str]) -> np.ndarray:
    return np.ones((len(texts), 4), dtype=np.float32) / 2


def test_episode_id_is_deterministic_from_user_conversation_and_message_range() -> None:
    c = locomo_like()
    ep = build_episode("u1", c, c.messages)
    assert ep.id == stable_id("ep", "u1", "session_1", "D1:1", "D1:4")
    assert build_episode("u1", c, c.messages).id == ep.id
    assert build_episode("u2", c, c.messages).id != ep.id


def test_episode_keeps_sources_times_and_pending_extraction() -> None:
    c = locomo_like()
    ep = OfflineExtractor(Settings(data_dir=Path("x")), fake_embed).episode("u1", c, c.messages)
    assert ep.message_ids == ("D1:1", "D1:2", "D1:3", "D1:4")
    assert ep.messages == c.messages
    assert ep.timestamp == MAY8 + timedelta(minutes=1)
    assert ep.end_timestamp == MAY8 + timedelta(minutes=4)
    assert ep.extraction == {"extractor": "offline", "status": "pending"}
    assert ep.conversation_id == "session_1" and ep.user_id == "u1"


def test_timestamp_falls_back_to_the_conversation_time() -> None:
    start = datetime(2024, 1, 2, 10, 0, tzinfo=UTC)
    c = Conversation(id="c", messages=(msg(1, "I like tea a lot.", when=None),), created_at=start)
    ep = build_episode("u", c, c.messages)
    assert ep.timestamp == start and ep.end_timestamp == start
    assert "2 January 2024" in ep.content


def test_narrative_names_speakers_and_gives_absolute_dates() -> None:
    c = locomo_like()
    text = build_episode("u", c, c.messages).content
    assert text.startswith("On Monday, 8 May 2023 at 13:57, Caroline and Melanie talked.")
    assert "Caroline: I went to a LGBTQ support group yesterday and it was so" in text
    assert "[yesterday: 7 May 2023]" in text
    assert "Melanie: Wow, that's cool! We're going camping next month. [next month: June 2023]" in (
        text
    )


def test_narrative_labels_roles_without_names_and_cuts_long_assistant_answers() -> None:
    c = Conversation(
        id="c",
        title="Trip planning",
        messages=(
            msg(1, "Can you help me plan a hiking trip in the Alps for September?"),
            msg(2, "word " * 500, role="assistant"),
        ),
    )
    text = build_episode("u", c, c.messages).content
    assert 'User and Assistant talked ("Trip planning")' in text
    assert "\nUser: Can you help me plan" in text
    assert "\nAssistant: word" in text and text.endswith("[…]")
    assert len(text.split()) < 200


def test_narrative_marks_a_new_day_inside_an_episode() -> None:
    late = datetime(2024, 3, 1, 23, 50, tzinfo=UTC)
    messages = (msg(0, "still up", when=late), msg(20, "morning", when=late))
    c = Conversation(id="c", messages=messages)
    text = build_episode("u", c, c.messages).content
    assert "[Saturday, 2 March 2024]\nUser: morning" in text


def test_title_is_a_short_third_person_phrase_from_a_statement() -> None:
    c = locomo_like()
    title = build_episode("u", c, c.messages).title
    assert title == "Caroline went to a LGBTQ support group on 7 May 2023"


def test_title_from_a_request_in_an_assistant_chat() -> None:
    c = Conversation(
        id="c",
        messages=(
            msg(1, "Hi! Can you help me plan a hiking trip in the Alps for September?"),
            msg(2, "Sure, here are some routes.", role="assistant"),
        ),
    )
    assert build_episode("u", c, c.messages).title == "Plan a hiking trip in the Alps for September"


def assistant_chat(opening: str) -> Conversation:
    return Conversation(
        id="c", messages=(msg(1, opening), msg(2, "Here is what I know.", role="assistant"))
    )


@pytest.mark.parametrize(
    ("opening", "title"),
    [
        # the question a chat opens with names its topic, not what is said in passing
        ("how does a phd viva work in ireland? mine is ages away but everyone keeps talking "
         "about theirs", "How does a phd viva work in ireland"),
        ("hi, can u help me write a letter to York council about a pothole? its on Front "
         "Street in Acomb", "Write a letter to York council about a pothole"),
        ("I want to keep a spreadsheet of what I harvest. Can you suggest columns?",
         "Keep a spreadsheet of what I harvest"),
        # no request: the first thing the user tells, in the third person
        ("my daughter maya turns 12 in april. she is really into volleyball and k-pop. need "
         "party ideas", "The user's daughter maya turns 12 in April"),
        # the user not first in the sentence is still the user; "us" may be the US
        ("so donna and I got to talking, what would a move to phoenix cost",
         "Donna and the user got to talking"),
        ("regex to validate us phone numbers, should accept 555-0134",
         "Regex to validate us phone numbers, should accept 555-0134"),
    ],
)
def test_title_of_a_chat_with_an_assistant(opening: str, title: str) -> None:
    c = assistant_chat(opening)
    assert build_episode("u", c, c.messages).title == title


def test_title_uses_the_conversation_title() -> None:
    messages = (
        msg(1, "I usually hike in the Alps every September with my sister."),
        msg(2, "That sounds lovely.", role="assistant"),
        msg(3, "Thanks!"),
    )
    c = Conversation(id="c", title="Alps trip", messages=messages)
    assert build_episode("u", c, messages).title == "Alps trip"  # the whole conversation
    part = build_episode("u", c, messages[:2]).title
    assert part.startswith("Alps trip: The user usually hikes in the Alps every September")


def test_title_falls_back_to_the_date_when_nothing_is_said() -> None:
    c = Conversation(id="c", messages=(msg(1, "ok"), msg(2, "hi", role="assistant")))
    assert build_episode("u", c, c.messages).title == "Conversation on 8 May 2023"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I went hiking in the Alps with my sister and it was great fun overall",
         "I went hiking in the Alps with my sister"),
        ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen",
         "One two three four five six seven eight nine ten"),
        # a few words over the limit: whole, not left dangling ("... whose reports")
        ("give some critical feedback to a colleague whose reports are always late",
         "Give some critical feedback to a colleague whose reports are always late"),
        ("We are thinking about the trip to the beach and the hotel by the sea",
         "We are thinking about the trip to the beach"),
        ("whats the difference between tá and is", "Whats the difference between tá and is"),
        ("my cat Tofu (13, grumpy old tabby) has started shredding the sofa",
         "My cat Tofu has started shredding the sofa"),
        ("the longest I have run is a half (did the 3M half in january, 1:52",
         "The longest I have run is a half"),
        ("what's the difference between a tax credit and a deduction, doing my taxes",
         "What's the difference between a tax credit and a deduction"),
    ],
)
def test_trim_phrase(text: str, expected: str) -> None:
    assert trim_phrase(text, slack=3) == expected


def test_a_title_between_people_has_no_slack() -> None:
    words = "one two three four five six seven eight nine ten eleven"
    assert trim_phrase(words) == "One two three four five six seven eight nine ten"
    # ... unless the cut would end on "of": what the phrase is about comes after it
    assert trim_phrase("The user and their wife are both big fans of jazz") == (
        "The user and their wife are both big fans of jazz"
    )


@pytest.mark.parametrize(
    ("text", "annotated", "replaced"),
    [
        ("I went there yesterday.", 'I went there yesterday. [yesterday: 7 May 2023]',
         "I went there on 7 May 2023."),
        ("Yesterday I ran.", 'Yesterday I ran. [Yesterday: 7 May 2023]', "On 7 May 2023 I ran."),
        ("We met last week.", 'We met last week. [last week: the week before 8 May 2023]',
         "We met in the week before 8 May 2023."),
        ("I ran last Saturday.",
         'I ran last Saturday. [last Saturday: the Saturday before 8 May 2023]',
         "I ran on the Saturday before 8 May 2023."),
        ("I moved two days ago.",
         'I moved two days ago. [two days ago: 6 May 2023]', "I moved on 6 May 2023."),
        ("We'll go next month.",
         "We'll go next month. [next month: June 2023]", "We'll go in June 2023."),
        ("I started last year.", 'I started last year. [last year: 2022]', "I started in 2022."),
        ("Since last year I paint.",
         'Since last year I paint. [last year: 2022]', "Since 2022 I paint."),
        # after "for" or "during" the date takes no preposition of its own
        ("Plan dinners for this week.",
         "Plan dinners for this week. [this week: the week of 8 May 2023]",
         "Plan dinners for the week of 8 May 2023."),
        ("During last week I ran.",
         "During last week I ran. [last week: the week before 8 May 2023]",
         "During the week before 8 May 2023 I ran."),
        ("I saw her a few days ago.",
         'I saw her a few days ago. [a few days ago: a few days before 8 May 2023]',
         "I saw her a few days before 8 May 2023."),
        ("I'll call tomorrow.",
         "I'll call tomorrow. [tomorrow: 9 May 2023]", "I'll call on 9 May 2023."),
        ("It was three weeks ago.",
         'It was three weeks ago. [three weeks ago: three weeks before 8 May 2023]',
         "It was three weeks before 8 May 2023."),
        ("I met him 2 years ago.",
         'I met him 2 years ago. [2 years ago: 2021]', "I met him in 2021."),
        ("Last summer was hot.",
         'Last summer was hot. [Last summer: summer 2022]', "Summer 2022 was hot."),
        ("this year's trip", "this year's trip [this year: 2023]", "2023's trip"),
        ("I painted it last month.", 'I painted it last month. [last month: April 2023]',
         "I painted it in April 2023."),
        ("No dates here.", 'No dates here.', "No dates here."),
        # a holiday relative to the message (8 May 2023): the one before, this year's, the next
        ("Last Christmas I was in Rome.",
         "Last Christmas I was in Rome. [Last Christmas: Christmas 2022]",
         "At Christmas 2022 I was in Rome."),
        ("We hiked there last Easter.", "We hiked there last Easter. [last Easter: Easter 2023]",
         "We hiked there at Easter 2023."),
        ("I'll dress up this Halloween.",
         "I'll dress up this Halloween. [this Halloween: Halloween 2023]",
         "I'll dress up on Halloween 2023."),
        ("I love Christmas.", "I love Christmas.", "I love Christmas."),
    ],
)
def test_relative_dates(text: str, annotated: str, replaced: str) -> None:
    assert annotate_dates(text, MAY8) == annotated
    assert replace_dates(text, MAY8) == replaced


@pytest.mark.parametrize(
    ("text", "replaced"),
    [
        ("I've had them for 3 years now.", "I've had them since 2020."),
        ("We've been married for ten years.", "We've been married since 2013."),
        ("She's worked at the bank for 6 months.", "She's worked at the bank since November 2022."),
        ("I haven't played for two weeks.", "I haven't played since 24 April 2023."),
        ("I've travelled a lot over the past 3 years.", "I've travelled a lot since 2020."),
        ("Seven years now, and I still paint.", "Since 2016, and I still paint."),
        ("I've used it for about two weeks now.", "I've used it since about 24 April 2023."),
        ("I've worked at Google for over 5 years.", "I've worked at Google since before 2018."),
        # a time that ended before the message, or is to come, is no start
        ("I lived in Paris for 3 years.", "I lived in Paris for 3 years."),
        ("I had been working there for 3 years when it closed.",
         "I had been working there for 3 years when it closed."),
        ("I'm going away for a week.", "I'm going away for a week."),
        ("I have to wait for 2 weeks.", "I have to wait for 2 weeks."),
        ("It's been two years now since Dad passed.", "It's been two years now since Dad passed."),
    ],
)
def test_a_time_lasting_until_the_message_says_since_when(text: str, replaced: str) -> None:
    """"for three years now" read a year later is wrong; "since 2020" stays true."""
    assert replace_dates(text, MAY8) == replaced
    assert split_dates(text, MAY8) == (replaced, None)  # the statement needs it


@pytest.mark.parametrize(
    ("text", "split"),
    [  # 8 May 2023 is a Monday
        ("I won my first tournament on Friday!", ("I won my first tournament!", "5 May 2023")),
        ("On Saturday, I finally finished the quilt.", ("I finally finished the quilt.",
                                                       "6 May 2023")),
        ("I'll bring the cake on Friday.", ("I'll bring the cake.", "12 May 2023")),
        # an arrangement told in the present: "I'm flying home on Friday" is the coming one
        ("I'm flying home to Chile on Friday for three weeks.",
         ("I'm flying home to Chile for three weeks.", "12 May 2023")),
        ("We're hosting the whole family on Sunday.", ("We're hosting the whole family.",
                                                        "14 May 2023")),
        # its date said with it: as said
        ("I'm hosting six friends on Saturday 13 May.",
         ("I'm hosting six friends on Saturday 13 May.", None)),
        ("I'm flying out on Friday, the 12th.", ("I'm flying out on Friday, the 12th.", None)),
        # the verbs do not say which Friday, or the day is the message's own
        ("I have an interview on Friday, can you help?",
         ("I have an interview on Friday, can you help?", None)),
        ("I'm so excited for the party on Saturday.",
         ("I'm so excited for the party on Saturday.", None)),
        ("I’m excited about the gig on Saturday.",
         ("I’m excited about the gig on Saturday.", None)),
        ("We went hiking on Monday.", ("We went hiking on Monday.", None)),
        # the date is what the sentence says ("My interview was." said nothing): in place
        ("My interview was on Friday.", ("My interview was on 5 May 2023.", None)),
        ("My interview was yesterday.", ("My interview was on 7 May 2023.", None)),
        # one event said to be on a day, in the present: the coming one
        ("My interview is on Friday.", ("My interview is on 12 May 2023.", None)),
        ("My flight is on the 14th.", ("My flight is on 14 May 2023.", None)),
        ("Our anniversary is on the 3rd of June.",
         ("Our anniversary is on the 3rd of June.", None)),
        ("When I was a kid we went to church on Sunday.",
         ("When I was a kid we went to church on Sunday.", None)),
    ],
)
def test_a_bare_weekday_is_read_by_the_tense_it_is_told_in(
    text: str, split: tuple[str, str | None]
) -> None:
    assert split_dates(text, MAY8) == split


@pytest.mark.parametrize(
    ("text", "split"),
    [  # said on 8 May 2023; a month with next, last or this is that month of its year
        ("July next year I'm going for N3.", ("I'm going for N3.", "July 2024")),
        ("Next March we fly to Osaka.", ("We fly to Osaka.", "March 2024")),
        ("I moved here last June.", ("I moved here.", "June 2022")),
        ("In March last year we moved.", ("In March 2022 we moved.", None)),
        ("It last may be fine.", ("It last may be fine.", None)),  # "may" is no month here
        # a day of the month alone is read by the tense it is told in
        ("I met back up with my teammates on the 5th after my trip.",
         ("I met back up with my teammates after my trip.", "5 May 2023")),
        # the date is what the sentence says: in place
        ("My interview was on the 30th.", ("My interview was on 30 April 2023.", None)),
        ("I'm flying out on the 20th.", ("I'm flying out.", "20 May 2023")),
        ("We'll move on the 2nd, so wish us luck!", ("We'll move, so wish us luck!",
                                                     "2 June 2023")),
        # the tense does not say, or the day is of a month named, or no day at all
        ("The pages are due on the 15th.", ("The pages are due on the 15th.", None)),
        ("I moved on the 3rd of March.", ("I moved on the 3rd of March.", None)),
        ("I lived on the 3rd floor for years.", ("I lived on the 3rd floor for years.", None)),
        ("The bill came on the 31st.", ("The bill came on the 31st.", None)),  # April has 30
    ],
)
def test_a_month_or_a_day_of_one_said_without_its_year_is_dated(
    text: str, split: tuple[str, str | None]
) -> None:
    assert split_dates(text, MAY8) == split


@pytest.mark.parametrize(
    "text",
    [
        "I'm running 4 days a week now.",
        "i go to the gym twice a week now lol",
        "I see my therapist once a month now.",
        "We do date night every other week now.",
        "I sleep 5 hours a day now.",
        "I go every two weeks now.",
        "I run 3-4 times a week now.",
        # a weekday that recurs, or one of several, is a habit: no one date
        "I played in a pickleball league on Tuesday nights and hurt my knee.",
        "I worked on Saturdays at a bakery.",
        "I worked Saturday mornings at a bakery.",
        "I ran every Tuesday with my dad.",
        "I ran on Tuesday and Thursday with my dad.",
    ],
)
def test_how_often_is_no_date(text: str) -> None:
    """"4 days a week now" is how often, not "for a week now"; "on Tuesday nights" a habit."""
    assert split_dates(text, MAY8) == (text, None)
    assert replace_dates(text, MAY8) == text


@pytest.mark.parametrize(
    ("text", "split"),
    [
        ("I bought a Yamaha acoustic about 6 weeks ago and I'm teaching myself.",
         ("I bought a Yamaha acoustic and I'm teaching myself.",
          "about 6 weeks before 8 May 2023")),
        ("i started a new job around two weeks ago lol",
         ("i started a new job lol", "about two weeks before 8 May 2023")),
        ("I quit smoking like 3 weeks ago.",
         ("I quit smoking.", "about 3 weeks before 8 May 2023")),
        # months and years ago, hedged: the month or year, about ("When did I ...?" asks it)
        ("I adopted a cat almost a year ago.", ("I adopted a cat.", "about 2022")),
        ("I moved to Denver just over a month ago.", ("I moved to Denver.", "about April 2023")),
        ("I got promoted over a year ago but my pay hasn't changed.",
         ("I got promoted but my pay hasn't changed.", "about 2022")),
        ("I first watched it around 3 years ago.", ("I first watched it.", "about 2020")),
        # without a hedge, as before
        ("I adopted a cat a year ago.", ("I adopted a cat.", "2022")),
        ("I bought it two weeks ago.", ("I bought it.", "two weeks before 8 May 2023")),
        # a word placing or stressing the date goes with it
        ("I moved here just a week ago.", ("I moved here.", "a week before 8 May 2023")),
        ("I finished my novel late last year.", ("I finished my novel.", "late in 2022")),
        ("I fly out to Rome early next week.",
         ("I fly out to Rome.", "early in the week after 8 May 2023")),
        # a part of the day goes with its day
        ("I went for a run yesterday morning.", ("I went for a run.", "7 May 2023")),
        ("I won my first tournament on Friday night!",
         ("I won my first tournament!", "5 May 2023")),
        ("I played in a league on Tuesday night and hurt my knee.",
         ("I played in a league and hurt my knee.", "2 May 2023")),
        ("I ate sushi last Friday night.", ("I ate sushi.", "the Friday before 8 May 2023")),
        # a weekday as a chat shortens it
        ("I joined a new activist group last Tues.",
         ("I joined a new activist group.", "the Tuesday before 8 May 2023")),
        ("My car broke down last Fri on my way to work.",
         ("My car broke down on my way to work.", "the Friday before 8 May 2023")),
        ("Wanna see my moves next Sat?", ("Wanna see my moves?", "the Saturday after 8 May 2023")),
        ("I won my first tournament on Fri!", ("I won my first tournament!", "5 May 2023")),
        ("We lay on sun loungers all day.", ("We lay on sun loungers all day.", None)),
        # a second time tells of another part of the sentence: kept where it was said
        ("I spilled red wine on the couch last night and only noticed this morning.",
         ("I spilled red wine on the couch and only noticed on 8 May 2023.", "7 May 2023")),
        ("I ran yesterday and today.", ("I ran on 7 May 2023 and on 8 May 2023.", None)),
        # a frequency beside a time lasting until the message: the time still counts back
        ("I've run 3 times a week for a month now.", ("I've run 3 times a week since April 2023.",
                                                     None)),
    ],
)
def test_a_date_takes_the_words_that_qualify_it(text: str, split: tuple[str, str | None]) -> None:
    """No "about" or "just over" is left behind when "6 weeks ago" is taken out."""
    assert split_dates(text, MAY8) == split


def test_a_hedged_date_replaced_in_place_keeps_its_hedge() -> None:
    assert (replace_dates("I bought it about two weeks ago.", MAY8)
            == "I bought it about two weeks before 8 May 2023.")


def test_quoted_words_are_kept_and_dates_noted_after_them() -> None:
    """Issue 16 item 9: a narrative quotes each message as it was said."""
    line = "Hello! How can I assist you today?"
    assert annotate_dates(line, MAY8) == line
    said = "I fell off my bike yesterday, then today I rested."
    assert annotate_dates(said, MAY8) == f"{said} [yesterday: 7 May 2023]"


def test_relative_dates_need_a_reference_time() -> None:
    assert annotate_dates("I went yesterday.", None) == "I went yesterday."


def test_last_month_in_january_is_december_of_the_year_before() -> None:
    assert replace_dates("I moved last month.", date(2026, 1, 15)) == "I moved in December 2025."


@pytest.mark.parametrize(
    ("text", "split"),
    [
        ("Jo went to a pottery class yesterday and loved it.",
         ("Jo went to a pottery class and loved it.", "7 May 2023")),
        ("Last week, Jo finished a half marathon in Berlin.",
         ("Jo finished a half marathon in Berlin.", "the week before 8 May 2023")),
        ("Jo painted that lake last month, in the rain.",
         ("Jo painted that lake, in the rain.", "April 2023")),
        # the sentence needs its date: resolved in place, no time beside it
        ("Jo has lived in Lisbon since last year.", ("Jo has lived in Lisbon since 2022.", None)),
        # "a table for" is no statement without its date
        ("Jo booked a table for tomorrow at Nopi.",
         ("Jo booked a table for 9 May 2023 at Nopi.", None)),
        ("Last year was hard for Jo.", ("2022 was hard for Jo.", None)),
        ("Yesterday Jo ran.", ("On 7 May 2023 Jo ran.", None)),  # too little left without it
        ("No dates here.", ("No dates here.", None)),
    ],
)
def test_a_statement_and_the_time_it_tells_of(text: str, split: tuple[str, str | None]) -> None:
    """A fact's statement leaves its relative dates out; what they resolve to goes beside it."""
    assert split_dates(text, MAY8) == split
    assert split_dates(text, None) == (text, None)
