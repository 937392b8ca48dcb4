"""Offline facts from the way people type to an assistant: short, lower case, with photos."""

from __future__ import annotations

import pytest
from test_facts_offline import episode_of

from nemori_cli.models import Message
from nemori_cli.pipeline.facts import attribute, episode_facts, statements
from nemori_cli.pipeline.proper_names import with_name_capitals
from nemori_cli.pipeline.rewrite import split_sentences
from nemori_cli.pipeline.slang import with_apostrophes
from nemori_cli.pipeline.spoken_years import with_years_in_digits


def facts_of(text: str) -> list[str]:
    message = Message(id="m", role="user", content=text)
    return [s.content for s in statements(message, to_assistant=True)]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm vegetarian.", "The user is vegetarian."),
        ("I am vegan.", "The user is vegan."),
        ("I'm a nurse.", "The user is a nurse."),
        ("I hate cilantro.", "The user hates cilantro."),
        ("My daughter is 5.", "The user's daughter is 5."),
        ("I have two kids.", "The user has two kids."),
        ("I'm definitely a morning person.", "The user is a morning person."),
        ("I'm more of a cat person.", "The user is more of a cat person."),
        # a pet named by its breed or kind is of the household as "a dog" is
        ("We have a golden retriever who is scared of fireworks, any tips?",
         "The user has a golden retriever who is scared of fireworks."),
        ("My horse has a limp.", "The user's horse has a limp."),
        ("I'm left handed", "The user is left handed."),
        # the user's people counted out are theirs as "my kids" are
        ("Both my kids play hockey on weekends.", "Both the user's kids play hockey on weekends."),
        ("All of my friends are vegan.", "All of the user's friends are vegan."),
    ],
)
def test_a_short_statement_about_the_users_life_is_a_fact(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]


@pytest.mark.parametrize(
    "text", ["I love that idea!", "One of my favorites!", "I like this one.", "I'm so excited!"]
)
def test_a_short_reaction_is_no_fact(text: str) -> None:
    assert facts_of(text) == []


def test_lower_case_typing_gives_the_same_facts() -> None:
    said = "i moved to berlin last year. im vegetarian btw. what's a good lentil recipe?"
    assert facts_of(said) == facts_of(
        "I moved to berlin last year. I'm vegetarian btw. What's a good lentil recipe?"
    )
    assert "The user is vegetarian." in facts_of(said)
    assert with_apostrophes("i dont know if ive got time, its late, i.e. im off") == (
        "I don't know if I've got time, its late, i.e. I'm off"  # "its" is a word of its own
    )


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        ("Im a uni student in Glasgow", "I'm a uni student in Glasgow"),
        ("Ive been vegan for 5 years. Dont laugh", "I've been vegan for 5 years. Don't laugh"),
        # the words and abbreviations themselves
        ("IM me later, Its fine, Id card", "IM me later, Its fine, Id card"),
    ],
)
def test_a_phones_capital_on_a_short_form_keeps_it_a_short_form(typed: str, plain: str) -> None:
    assert with_apostrophes(typed) == plain


def test_a_short_form_typed_with_its_apostrophe_but_not_its_capital_gets_the_capital() -> None:
    assert with_apostrophes("ok i'm into architecture, i’ve been, i'd go, i'll see") == (
        "ok I'm into architecture, I’ve been, I'd go, I'll see"
    )


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        ("id love to see japan", "I'd love to see japan"),
        ("ill be in lisbon next week", "I'll be in lisbon next week"),
        ("rome. its my favourite city", "rome. It's my favourite city"),
        ("its not far, its so close", "It's not far, it's so close"),
        ("as someone whos vegan, weve tried", "as someone who's vegan, we've tried"),
        # the words themselves
        ("my id just expired", "my id just expired"),
        ("i felt ill just before the race", "I felt ill just before the race"),
        ("ill health", "ill health"),
        ("the app and its own login", "the app and its own login"),
    ],
)
def test_id_ill_and_its_get_their_apostrophe_only_where_they_are_short_forms(
    typed: str, plain: str
) -> None:
    assert with_apostrophes(typed) == plain


def test_a_casual_id_ill_or_its_gives_the_fact_the_typed_out_form_gives() -> None:
    assert facts_of("id love to visit japan someday") == facts_of(
        "I'd love to visit Japan someday"
    ) == ["The user would love to visit Japan someday."]
    assert facts_of("ill be in lisbon next week for work") == [
        "The user will be in Lisbon next week for work."
    ]
    assert facts_of("we went to Rome last year. its my favourite city") == [
        "The user went to Rome last year.", "Rome is the user's favourite city."
    ]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I guess I'm a morning person now", "The user is a morning person now."),
        ("honestly id say im more of a cat person", "The user is more of a cat person."),
        ("I'd say that my favourite city is Porto", "The user's favourite city is Porto."),
        ("I reckon I've run about 40 marathons", "The user has run about 40 marathons."),
    ],
)
def test_a_hedge_before_what_the_user_tells_of_themself_is_dropped(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]


def test_a_hedge_alone_is_still_no_fact() -> None:
    assert facts_of("I guess so") == []
    assert facts_of("I suppose we could try the ferry") == []


def test_a_country_or_language_typed_in_lower_case_gets_its_capital() -> None:
    """"i live in japan now" tells a home (a place is a capitalised name), and reads right."""
    assert facts_of("i live in japan now and need a bank") == [
        "The user lives in Japan now and needs a bank."
    ]
    told = episode_facts(episode_of(Message(id="m", role="user", content="i live in japan now")))
    assert [attribute(f) for f in told] == [("residence", "japan")]  # a home, found as one
    assert with_name_capitals("learning spanish, flying to the usa, new zealand next") == (
        "learning Spanish, flying to the USA, New Zealand next"
    )
    # more often something else in lower case: left as typed
    assert with_name_capitals("a turkey, fine china, polish my shoes") == (
        "a turkey, fine china, polish my shoes"
    )
    # ... unless a word of going somewhere, or of speaking, comes before them
    assert with_name_capitals("flying home to chile, learning polish, add chile to the pot") == (
        "flying home to Chile, learning Polish, add chile to the pot"
    )


def test_an_aside_goes_without_taking_a_bracket_with_it() -> None:
    assert facts_of("had a proper bike fit yesterday ($240, worth it tbh). it feels weird") == [
        "The user had a proper bike fit yesterday ($240, worth it)."
    ]
    assert facts_of("ngl i was nervous before the exam (lol)") == [
        "The user was nervous before the exam."
    ]


def test_a_city_typed_in_lower_case_gets_its_capital() -> None:
    """"i live in leeds now" tells a home too; a city whose name is a common word does not."""
    told = episode_facts(episode_of(Message(id="m", role="user", content="i live in leeds now")))
    assert [f.content for f in told] == ["The user lives in Leeds now."]
    assert [attribute(f) for f in told] == [("residence", "leeds")]
    assert with_name_capitals("flying from manchester to new york, then nyc to hong kong") == (
        "flying from Manchester to New York, then NYC to Hong Kong"
    )
    assert with_name_capitals("reading in the bath, a nice split") == (
        "reading in the bath, a nice split"
    )


def test_what_the_user_asks_for_yields_its_place_to_what_they_say_of_themself() -> None:
    said = ("I moved to Berlin last year. My sister lives in Munich. I work as a nurse. "
            "Can you suggest a weekend trip between the two cities?")
    assert facts_of(said) == [
        "The user moved to Berlin last year.", "The user's sister lives in Munich.",
        "The user works as a nurse.",
    ]
    assert facts_of("Can you suggest a vegetarian restaurant near the office?") == [
        "The user is looking for a vegetarian restaurant near the office."
    ]


def test_a_photo_ends_the_sentence_before_it() -> None:
    said = "I just finished my first screenplay [shared a photo: a notebook] What should I do?"
    assert split_sentences(said) == [
        "I just finished my first screenplay [shared a photo: a notebook]", "What should I do?"
    ]
    assert facts_of(said) == ["The user just finished their first screenplay."]


def test_a_lower_case_sentence_starts_after_a_full_stop_but_not_after_an_ellipsis() -> None:
    assert split_sentences("the shop was closed. so i went home") == [
        "the shop was closed.", "so i went home"
    ]
    trailing = "I faced all kinds of hurdles... but the worst was self-doubt."
    assert split_sentences(trailing) == [trailing]
    assert split_sentences("I land at 5 p.m. on Friday.") == ["I land at 5 p.m. on Friday."]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("its a secondhand Brompton, M-type 3 speed, picked it up off donedeal for €950",
         "The user picked up a secondhand Brompton, M-type 3 speed, off donedeal for €950."),
        ("It's a 2019 Golf, bought it for 9k.", "The user bought a 2019 Golf for 9k."),
        ("It's my first Garmin, got it for my birthday",
         "The user got their first Garmin for their birthday."),
    ],
)
def test_a_thing_named_then_what_the_user_did_with_it_is_one_fact(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]


@pytest.mark.parametrize(
    "text", ["It's a pity, missed it.", "it's a great book, read it twice",
             "It's a long story, told it to my mum"],
)
def test_a_remark_before_a_dropped_i_names_no_thing_the_user_did(text: str) -> None:
    assert facts_of(text) == []  # not "The user missed a pity."


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("my commute is 2 hrs a day", "The user's commute is 2 hours a day."),
        ("I'm 34 wks pregnant", "The user is 34 weeks pregnant."),
        ("did 6 yrs of rotating shifts as an ED nurse",
         "The user did 6 years of rotating shifts as an ED nurse."),
        ("I have a 5 y/o daughter and a 2yo son",
         "The user has a 5-year-old daughter and a 2-year-old son."),
        ("my daughter is 7yo", "The user's daughter is 7 years old."),
        # "yo" alone is a greeting, not an age
        ("yo, i moved to Leeds in march", "The user moved to Leeds in March."),
    ],
)
def test_a_time_or_an_age_as_chat_shortens_it_is_written_out(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("My husband's allergic to peanuts, so no nuts please",
         "The user's husband is allergic to peanuts."),
        ("My wife's vegetarian and my son's a picky eater",
         "The user's wife is vegetarian and their son is a picky eater."),
        ("My sister's getting married in June", "The user's sister is getting married in June."),
        ("my dad's been retired for years", "The user's dad has been retired for years."),
        # what is owned stays owned
        ("My mom's cooking and baking are legendary",
         "The user's mom's cooking and baking are legendary."),
        ("I love my son's music.", "The user loves their son's music."),
    ],
)
def test_a_persons_s_that_is_is_or_has_is_written_out(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("You know I moved to Porto last spring", "The user moved to Porto last spring."),
        ("you know, I've always loved jazz", "The user has always loved jazz."),
        ("I have never liked olives", "The user has never liked olives."),
    ],
)
def test_a_lasting_taste_told_with_have_is_a_fact(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]


@pytest.mark.parametrize("text", ["I've really enjoyed this chat", "I've enjoyed our conversation"])
def test_liking_the_chat_itself_is_no_fact(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("My daughter's turning 8 next month and she's obsessed with dinosaurs, party ideas?",
         "The user's daughter is turning 8 next month and she's obsessed with dinosaurs."),
        ("I'm thinking of quitting my job to travel, thoughts?",
         "The user is thinking of quitting their job to travel."),
        ("I'm vegan, dinner ideas", "The user is vegan."),
    ],
)
def test_a_closing_ask_named_alone_is_cut_from_the_fact(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]


def test_going_to_a_place_is_a_plan_but_going_to_do_something_is_said_in_passing() -> None:
    assert facts_of("We're going to Lisbon in May with two toddlers, restaurant recs?") == [
        "The user is going to Lisbon in May with two toddlers."
    ]
    assert facts_of("I'm going to the coast next weekend") == [
        "The user is going to the coast next weekend."
    ]
    assert facts_of("I'm going to try out that new recipe") == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("The sourdough starter worked, baked my first loaf yesterday",
         "The user baked their first loaf yesterday."),
        ("The party was great, met a lot of new people", "The user met a lot of new people."),
    ],
)
def test_after_a_remark_the_i_chat_drops_is_given_back(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm on metformin and lisinopril, can I take ibuprofen?",
         "The user is on metformin and lisinopril."),
        ("I'm 6'2 and 95kg, what's a good cutting diet?", "The user is 6'2 and 95kg."),
        ("hi chatgpt, I'm Priya, a second-year med student at King's College London",
         "The user is Priya, a second-year med student at King's College London."),
    ],
)
def test_a_medicine_a_build_or_a_greeting_by_name_before_a_statement(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]


def test_a_role_given_without_a_comma_is_said_too() -> None:
    assert facts_of("As a freelance photographer I charge 150 euros an hour for weddings") == [
        "The user is a freelance photographer.",
        "The user charges 150 euros an hour for weddings.",
    ]
    assert facts_of("As a matter of fact I love it") == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Me and the kids are heading to my in-laws in Cork for Christmas",
         "The user and the kids are heading to their in-laws in Cork for Christmas."),
        ("me and Sarah are moving to Bristol in May",
         "The user and Sarah are moving to Bristol in May."),
        ("Not sure if relevant but I'm colorblind", "The user is colorblind."),
        ("In case it matters, I'm left-handed", "The user is left-handed."),
    ],
)
def test_me_and_someone_or_a_note_that_it_may_matter_before_a_statement(
    text: str, fact: str
) -> None:
    assert facts_of(text) == [fact]


def test_recovering_from_an_operation_is_what_the_user_is_living_with() -> None:
    assert facts_of("update: the surgery went well, I'm home now recovering") == [
        "The user is home now recovering."
    ]


def test_where_the_user_is_named_is_a_fact_but_a_meeting_is_not() -> None:
    assert facts_of("I'm in Canada") == ["The user is in Canada."]
    assert facts_of("I'm in a meeting") == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Here's my situation: I'm 38, I have about 20k in savings. Should I pay off the car?",
         "The user is 38, the user has about 20k in savings."),
        ("Here's the thing, I hate flying", "The user hates flying."),
    ],
)
def test_a_heres_my_situation_opener_leaves_the_statement(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]
    assert facts_of("Here's a photo of my cat") == []


def test_a_dropped_im_before_unemployed_is_given_back() -> None:
    assert facts_of("Currently unemployed, looking for remote work in UX") == [
        "The user is currently unemployed, looking for remote work in UX."
    ]


def test_an_update_on_something_is_news_not_a_request_to_update_it() -> None:
    news = "ok so update on the job hunt: got the offer from Stripe!! starting in March"
    assert facts_of(news) == [
        "The user got the offer from Stripe.",
        "The user is starting in March.",
    ]
    assert facts_of("update the code to use async") == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm not a morning person at all", "The user is not a morning person at all."),
        ("I don't have a car", "The user doesn't have a car."),
        ("we don't have kids yet", "The user doesn't have kids yet."),
    ],
)
def test_what_the_user_is_not_or_does_without_is_a_fact(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]
    assert facts_of("I don't have time for this") == []


@pytest.mark.parametrize(
    ("typed", "fact"),
    [("Me I am living in Lyon with my wife.", "The user is living in Lyon with their wife."),
     ("Me, I prefer tea.", "The user prefers tea."),
     ("Me and my wife live in Lyon.", "The user and their wife live in Lyon.")],
)
def test_an_emphatic_me_before_the_i_it_doubles_is_not_said_twice(typed: str, fact: str) -> None:
    assert facts_of(typed) == [fact]


@pytest.mark.parametrize(
    ("said", "written"),
    [("our wedding from nineteen seventy eight", "our wedding from 1978"),
     ("in the navy from nineteen seventy to nineteen seventy-four",
      "in the navy from 1970 to 1974"),
     ("I retired in twenty nineteen", "I retired in 2019"),
     ("since two thousand and nine", "since 2009"),
     ("back in nineteen oh five", "back in 1905"),
     # no time before it, or no year: as said
     ("twenty twenty vision", "twenty twenty vision"),
     ("in twenty minutes", "in twenty minutes"),
     ("in twenty twenty four hundred", "in twenty twenty four hundred")],
)
def test_a_year_said_in_words_is_written_in_digits(said: str, written: str) -> None:
    assert with_years_in_digits(said) == written


def test_a_voice_typed_year_dates_the_users_fact() -> None:
    assert facts_of("I retired in twenty nineteen after thirty one years on the railroad") == [
        "The user retired in 2019 after thirty one years on the railroad."
    ]


def test_a_pause_voice_typing_writes_down_is_no_word_of_the_fact() -> None:
    assert facts_of("so um I got the bloodwork back and uh my a1c is down") == [
        "The user got the bloodwork back and their a1c is down."
    ]


@pytest.mark.parametrize(
    ("text", "fact"),
    [("I thought I'd let you know that I got the job at Google!",
      "The user got the job at Google."),
     ("Just wanted to let you know I moved to Lisbon.", "The user moved to Lisbon."),
     ("Honestly the only true thing is that I have a cat named Mochi.",
      "The user has a cat named Mochi."),
     ("The truth is that I hate running.", "The user hates running.")],
)
def test_news_announced_before_it_is_told_is_the_news(text: str, fact: str) -> None:
    assert facts_of(text) == [fact]
