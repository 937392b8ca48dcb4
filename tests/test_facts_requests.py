"""Offline facts from user turns to an assistant: requests are not facts about the user."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from nemori_cli.models import Message
from nemori_cli.pipeline.facts import Statement, statements
from nemori_cli.pipeline.subject import restore_subject

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import assistant_facts  # noqa: E402


def facts_of(text: str) -> list[str]:
    return [s.content for s in statements(Message(id="m", role="user", content=text))]


def said_to_assistant(text: str) -> list[Statement]:
    """The facts of a user turn in a chat with an assistant."""
    return statements(Message(id="m", role="user", content=text), to_assistant=True)


def test_built_me_an_artifact_is_a_request_not_the_user_building_the_user_something() -> None:
    assert facts_of("Built me an artifact that shows a pricing calculator.") == []


@pytest.mark.parametrize(
    "text",
    [
        "Add a onkeyup event too, I want that calculator to update as I type.",
        "Fix the bug in my code where the loop never ends.",
        "Please translate my email into German.",
        "Write me a Python script that renames the photos in my Downloads folder.",
        "I want the chart to use a log scale.",
        "I need some ideas for a class on fractions.",
        "I'd like a few tips for my first marathon.",
        "I'm 5 minutes late, sorry.",
        # a question typed without its question mark
        "how do i make chocolate chip cookies chewy instead of cakey",
        "is it too late to get the stain out",
    ],
)
def test_requests_and_instructions_give_no_fact(text: str) -> None:
    assert facts_of(text) == []


def test_a_self_statement_after_a_request_is_kept() -> None:
    assert facts_of("Make me a weekly meal plan, I'm allergic to shellfish.") == [
        "The user is allergic to shellfish."
    ]


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("Remember that I'm vegetarian.", ["The user is vegetarian."]),
        ("Please note that my budget is $500 for the whole trip.",
         ["The user's budget is $500 for the whole trip."]),
        ("Keep in mind I have two kids under five.", ["The user has two kids under five."]),
        ("FYI I'm lactose intolerant.", ["The user is lactose intolerant."]),
        ("Remember the formula we used and apply it to these numbers.", []),
        ("Can you find me a hotel in Porto? Also, remind me that I'm allergic to cats.",
         ["The user is allergic to cats."]),
        ("Oh, and keep in mind I'm vegan.", ["The user is vegan."]),
        ("Please remind me to buy milk.", []),
        # what the user asks a letter being written to tell
        ("Yes, please mention that I'm vegetarian.", ["The user is vegetarian."]),
        ("ok add that Derek is coeliac, so cross contamination matters.",
         ["Derek is coeliac, so cross contamination matters."]),
        ("Add that the meeting moved to Friday.", []),
    ],
)
def test_what_the_user_asks_to_be_remembered_is_a_fact(text: str, facts: list[str]) -> None:
    assert facts_of(text) == facts


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Ugh, my landlord raised the rent by $200 again. How do I negotiate?",
         "The user's landlord raised the rent by $200 again."),
        ("oh and i just got a puppy named Biscuit", "The user just got a puppy named Biscuit."),
        ("Actually, scratch that - I moved to Denver last year, not Boulder.",
         "The user moved to Denver last year, not Boulder."),
        # a question spliced on without its question mark is no part of the fact
        ("i live in brooklyn with two cats, what plants can i grow indoors",
         "The user lives in brooklyn with two cats."),
        ("and leave the cilantro out, I hate cilantro", "The user hates cilantro."),
        ("I'm 30.", "The user is 30."),
        ("I'm 45 and planning to retire at 60.", "The user is 45 and planning to retire at 60."),
    ],
)
def test_an_opening_or_a_spliced_question_hides_no_statement_to_an_assistant(
    text: str, fact: str
) -> None:
    assert [s.content for s in said_to_assistant(text)] == [fact]


@pytest.mark.parametrize(
    "text",
    [
        "I'm allergic to shellfish, so please leave shrimp out of the paella.",
        "I'm allergic to shellfish \u2014 please leave shrimp out of the paella.",
        "I'm allergic to shellfish, and suggest a paella without it.",
        "I'm allergic to shellfish when you plan the menu.",
        # a question run on after the statement, typed without its "?"
        "I'm allergic to shellfish so what can I make for six people",
        "I'm allergic to shellfish, how do I make a paella without it",
        # a request run on after it, "?" or not
        "I'm allergic to shellfish, can you suggest a paella without it?",
        "I'm allergic to shellfish, could you rewrite the menu",
    ],
)
def test_the_part_that_asks_something_is_cut_from_the_fact(text: str) -> None:
    assert facts_of(text) == ["The user is allergic to shellfish."]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("just moved to Leeds, could you recommend a good gym?", "The user just moved to Leeds."),
        ("just moved to Leeds, could you recommend a good gym", "The user just moved to Leeds."),
        ("planning a trip to Japan in April, can you suggest an itinerary",
         "The user is planning a trip to Japan in April."),
        # a yes-or-no question run on
        ("my landlord wants to raise the rent by 15%, is that legal in california?",
         "The user's landlord wants to raise the rent by 15%."),
        ("I moved to Leeds in May, do I need to register with a GP",
         "The user moved to Leeds in May."),
        # after "so"
        ("i'm a massive fleetwood mac fan so what are some of their songs i could play?",
         "The user is a massive fleetwood mac fan."),
        # "so" of a purpose stays
        ("I moved to York so I could be near my mum.",
         "The user moved to York so the user could be near their mum."),
    ],
)
def test_what_the_user_says_before_a_request_is_a_fact(text: str, fact: str) -> None:
    assert [s.content for s in said_to_assistant(text)] == [fact]


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("Can you translate this to Spanish? My name is Ana and I live in Toronto.", []),
        ("Translate to Spanish: My name is Ana and I live in Toronto.", []),
        ('Can you make this email sound more polite? "Hi Tom, I still haven\'t received the '
         'invoice. Send it today."', []),
        # what the user says before the request is theirs; "Edit:" is the user's own edit
        ("I'm a nurse in Leeds. Can you proofread my cover letter below? I have worked in the "
         "ICU for 5 years.", ["The user is a nurse in Leeds."]),
        ("Edit: I'm actually vegan now.", ["The user is vegan now."]),
        # a request to work on code is no text of someone else's
        ("Can you fix this bug? I'm using Python 3.11 on a Mac.",
         ["The user is using Python 3.11 on a Mac."]),
    ],
)
def test_a_text_given_to_work_on_is_not_the_users_news(text: str, facts: list[str]) -> None:
    assert [s.content for s in said_to_assistant(text)] == facts


@pytest.mark.parametrize(
    "text", ["if I send it over, could you check it?", "ok, can you make it shorter?"]
)
def test_a_condition_or_a_remark_before_a_request_is_no_fact(text: str) -> None:
    assert said_to_assistant(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "vet bill was 380 euros how do i cat-proof the flat better",
        "balance is numeric in postgres, what go type should i scan it into",
        "so if i want to freeze motion indoors what do i change first?",  # one question
    ],
)
def test_a_question_run_on_after_a_remark_gives_no_fact(text: str) -> None:
    assert said_to_assistant(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I took your recommendation and watched the Lord of the Rings trilogy last night!",
         "The user watched the Lord of the Rings trilogy"),
        ("I followed your advice and started running three times a week.",
         "The user started running three times a week."),
    ],
)
def test_credit_to_the_assistant_does_not_hide_what_the_user_did(text: str, fact: str) -> None:
    assert any(f.startswith(fact) for f in facts_of(text)), facts_of(text)


def test_statements_about_the_user_are_still_facts() -> None:
    assert facts_of("I prefer Python over JavaScript for scripting.") == [
        "The user prefers Python over JavaScript for scripting."
    ]
    assert facts_of("I want to run a half marathon next year.")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Give me a vegetarian lasagna recipe, I don't eat meat.", "The user doesn't eat meat."),
        ("I never drink coffee after noon.", "The user never drinks coffee after noon."),
        ("I drive a 2015 Honda Civic, what tyre pressure?", "The user drives a 2015 Honda Civic."),
        ("We have a toddler and a newborn, so quiet hotels only.",
         "The user has a toddler and a newborn, so quiet hotels only."),
        ("Shorten my CV, I have 10 years of experience in logistics.",
         "The user has 10 years of experience in logistics."),
        ("I always bike to work.", "The user always bikes to work."),
    ],
)
def test_what_the_user_eats_drives_or_always_does_is_a_fact_even_when_short(
    text: str, fact: str
) -> None:
    assert facts_of(text) == [fact]


def test_labelled_assistant_turns_reach_the_precision_target() -> None:
    score = assistant_facts.score()
    assert score.turns >= 150
    assert score.precision >= 0.8, score.wrong
    assert score.recall >= 0.7, score.missed


@pytest.mark.parametrize(
    "path", [assistant_facts.HELD_OUT, assistant_facts.HELD_OUT_2, assistant_facts.HELD_OUT_3,
             assistant_facts.HELD_OUT_4]
)
def test_turns_never_tuned_on_keep_the_precision_target(path: Path) -> None:
    score = assistant_facts.score(path)
    assert score.precision >= 0.8, score.wrong
    assert score.recall >= 0.7, score.missed


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Can you recommend a vegetarian restaurant near the station?",
         "The user is looking for a vegetarian restaurant near the station."),
        ("What's a good gift for someone who loves gardening?",
         "The user is looking for a good gift for someone who loves gardening."),
        ("Any good sci-fi book recommendations?",
         "The user is looking for good sci-fi book recommendations."),
    ],
)
def test_a_request_for_a_recommendation_says_what_the_user_is_looking_for(
    text: str, fact: str
) -> None:
    assert facts_of(text) == [fact]


@pytest.mark.parametrize(
    "text",
    [
        "Can you suggest improvements to this paragraph?",
        "Suggest a title for my blog post about hiking.",
        "What would be a good subject line for this email?",
        "Which is the best way to learn Rust?",
    ],
)
def test_a_request_for_work_on_the_conversation_is_not_a_wish(text: str) -> None:
    assert facts_of(text) == []


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("As a vegetarian, what should I order at a Korean barbecue place?",
         ["The user is a vegetarian."]),
        ("As a mom of two, I rarely get time to read.",
         ["The user is a mom of two.", "The user rarely gets time to read."]),
        ("As a teacher, I need some ideas for a class on fractions.", ["The user is a teacher."]),
        ("As someone who hates crowds, which museums in Rome are quiet?",
         ["The user hates crowds."]),
        ("As someone who's lactose intolerant, what can I use instead of milk in baking?",
         ["The user is lactose intolerant."]),
        ("As someone who's been vegan for ten years, what protein powder is best?",
         ["The user has been vegan for ten years."]),
        ("As someone with a bad knee, what exercises are safe for me?",
         ["The user has a bad knee."]),
        ("Being a night owl, how can I get more done in the mornings?",
         ["The user is a night owl."]),
        # no person, or someone else's role: nothing about the user
        ("As a result, the build takes twice as long now. Can you check the config?", []),
        ("As a reminder, the deadline is Friday, so keep the summary short.", []),
        ("As a teacher, she was strict but fair. Write a short tribute to her.", []),
    ],
)
def test_a_role_given_in_passing_is_a_fact_of_its_own(text: str, facts: list[str]) -> None:
    """"As a vegetarian, what should I order?" tells what the user is, though it asks."""
    assert facts_of(text) == facts


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        # chat drops the "I" of a statement; to an assistant it is no order
        ("not a fan of cilantro tbh", "The user is not a fan of cilantro."),
        ("Big fan of jazz, especially Coltrane.",
         "The user is a big fan of jazz, especially Coltrane."),
        ("Not really into horror movies.", "The user is not into horror movies."),
        ("I'm allergic to penicillin so keep that in mind.", "The user is allergic to penicillin."),
        ("I'm vegan, so no dairy or eggs pls", "The user is vegan."),
        ("Quick question - I'm lactose intolerant, can I eat parmesan?",
         "The user is lactose intolerant."),
        ("Random question: I'm moving to Oslo in May, do I need a visa?",
         "The user is moving to Oslo in May."),
        ("Used to play the violin as a kid but gave it up.",
         "The user used to play the violin as a kid but gave it up."),
        ("Me and my wife just got back from Lisbon, loved it.",
         "The user and their wife just got back from Lisbon, loved it."),
        ("No longer vegan, went back to eating fish last year.",
         "The user is no longer vegan, went back to eating fish last year."),
        ("No longer eat meat since the diagnosis.",
         "The user no longer eats meat since the diagnosis."),
        ("Took a short trip to Rome to clear my mind a little.",
         "The user took a short trip to Rome to clear their mind a little."),
        ("Currently reading Dune and loving it.",
         "The user is currently reading Dune and loving it."),
        ("had my left cataract done last week. can you make me a chart for the eye drops?",
         "The user had their left cataract done last week."),
        # a wish: "want to", "hope to", "wanna"
        ("want to learn piano this year, my teacher is great",
         "The user wants to learn piano this year, their teacher is great."),
        ("wanna get fit before the wedding in june",
         "The user wants to get fit before the wedding in June."),
        ("need to renew my passport before the Lisbon trip in june",
         "The user needs to renew their passport before the Lisbon trip in June."),
        # a plan under way, its "I'm" dropped
        ("flying to Lisbon for the estuarine sciences conference, how many slides for 12 min?",
         "The user is flying to Lisbon for the estuarine sciences conference."),
        ("organising a halloween potluck for the lab. can you make a signup sheet",
         "The user is organising a Halloween potluck for the lab."),
        ("hosting 12 people for thanksgiving, how big a turkey do i need",
         "The user is hosting 12 people for Thanksgiving."),
    ],
)
def test_a_dropped_i_is_given_back_in_a_chat_with_an_assistant(text: str, fact: str) -> None:
    assert [s.content for s in said_to_assistant(text)] == [fact]


@pytest.mark.parametrize("text", ["Want to see?", "Want to make it shorter?",
                                  "Plan a trip to Kyoto for me", "Need to ask you something.",
                                  "moving on, what about the budget?",
                                  "Leaving aside the cost, which is better?"])
def test_a_question_or_an_order_opening_on_want_or_plan_is_no_fact(text: str) -> None:
    assert said_to_assistant(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Love experimenting with spices.", "The user loves experimenting with spices."),
        # a taste told of the thing, the user as its owner
        ("Blue's my fave, it makes me feel relaxed.",
         "Blue's the user's favorite, it makes the user feel relaxed."),
        ("Nature's always been my haven.", "Nature's always been the user's haven."),
        ('"Harry Potter and the Philosopher\'s Stone" is special to me.',
         '"Harry Potter and the Philosopher\'s Stone" is special to the user.'),
        ("I'm all about dramas and romcoms.", "The user is all about dramas and romcoms."),
        # what works for the user is what advice on unwinding rests on
        ("Running keeps me sane.", "Running keeps the user sane."),
        ("Gardening calms me down.", "Gardening calms the user down."),
        ("Yoga is my happy place.", "Yoga is the user's happy place."),
        ("Cooking feeds my soul.", "Cooking feeds the user's soul."),
        ("I cannot stand horror films.", "The user cannot stand horror films."),
    ],
)
def test_a_taste_said_to_an_assistant_is_a_profile_fact(text: str, fact: str) -> None:
    assert [(s.content, s.category) for s in said_to_assistant(text)] == [(fact, "user_profile")]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I get really seasick on ferries.", "The user gets seasick on ferries."),
        ("My doctor says I am prediabetic.", "The user's doctor says the user is prediabetic."),
        ("I have a slipped disc, so nothing heavy please.", "The user has a slipped disc."),
        ("I suffer from migraines when I stare at screens too long.",
         "The user suffers from migraines when the user stares at screens too long."),
        ("I tore my meniscus playing padel.", "The user tore their meniscus playing padel."),
        ("I've been sober for 3 years now.", "The user has been sober for 3 years now."),
        ("I can't swim, so no water sports please.", "The user can't swim."),
        ("I'm on metformin and lisinopril.", "The user is on metformin and lisinopril."),
        # a diet kept, which advice on food must respect
        ("I'm on a keto diet.", "The user is on a keto diet."),
        ("I'm pescatarian.", "The user is pescatarian."),
        # a home rented, which advice on the home must respect; the note to the assistant cut
        ("we rent, so I can't drill holes in the walls",
         "The user rents, so the user can't drill holes in the walls."),
        ("I'm colorblind so please avoid red/green charts", "The user is colorblind."),
        ("Quick q - I'm a vegetarian cyclist, how much protein do I need?",
         "The user is a vegetarian cyclist."),
    ],
)
def test_a_health_condition_told_in_passing_is_a_profile_fact(text: str, fact: str) -> None:
    # advice on food, exercise or travel must respect it, whatever the question's words
    assert [(s.content, s.category) for s in said_to_assistant(text)] == [(fact, "user_profile")]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm training for a marathon.", "The user is training for a marathon."),
        ("I'm learning Spanish.", "The user is learning Spanish."),
        ("We're renovating our kitchen.", "The user is renovating their kitchen."),
        ("I'm saving up for a house.", "The user is saving up for a house."),
    ],
)
def test_a_pursuit_under_way_is_a_profile_fact_however_short(text: str, fact: str) -> None:
    # two words said of it were too few to count before; advice must fit it all the same
    assert [(s.content, s.category) for s in said_to_assistant(text)] == [(fact, "user_profile")]


def test_learning_from_what_was_said_is_no_pursuit() -> None:
    assert said_to_assistant("I'm learning a lot from this.") == []


@pytest.mark.parametrize(
    "text", ["Love the blue vase in the pic!", "Took me a while to find the setting."]
)
def test_a_reaction_or_the_user_as_object_is_no_taste(text: str) -> None:
    assert said_to_assistant(text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Sounds like a fun experience, even if I'm not into games.",
         "The user is not into games."),
        ("Looks great, though I don't eat pork.", "The user doesn't eat pork."),
        ("The hotel looks nice, but my budget is $150 a night.",
         "The user's budget is $150 a night."),
        # the user's reaction to what was offered is no taste; what follows it is
        ("I love it, but I'm allergic to nuts.", "The user is allergic to nuts."),
    ],
)
def test_the_speaker_in_a_concession_to_an_assistant_is_the_fact(text: str, fact: str) -> None:
    assert [s.content for s in said_to_assistant(text)] == [fact]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("As a kid, I hated broccoli. Give me a recipe that hides it.",
         "As a kid, the user hated broccoli."),
        # a question spliced on after a semicolon is no part of the fact either
        ("As a gift, I made my sister a scarf; how do I block it so it lies flat?",
         "As a gift, the user made their sister a scarf."),
    ],
)
def test_a_short_phrase_before_the_speaker_does_not_hide_the_statement(
    text: str, fact: str
) -> None:
    assert [s.content for s in said_to_assistant(text)] == [fact]


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        # a person the user names: a birth, a diagnosis, an engagement is about their people
        ("Harriet had her baby on Tuesday!! I want to send a card.",
         ["Harriet had her baby on Tuesday.", "The user wants to send a card."]),
        ("Derek is coeliac - properly diagnosed, not a fad thing.",
         ["Derek is coeliac - properly diagnosed, not a fad thing."]),
        ("Tom and Ana got engaged last weekend, help me write a toast.",
         ["Tom and Ana got engaged last weekend."]),
        # a product, a place or a program has no such life: nothing about the user
        ("Python is slow for this, can you speed it up?", []),
        ("Excel crashed again and lost my sheet, how do I recover it?", []),
        ("Lisbon is lovely in May, plan me three days there.", []),
    ],
)
def test_a_named_persons_life_event_is_a_fact_in_a_chat_with_an_assistant(
    text: str, facts: list[str]
) -> None:
    assert [s.content for s in said_to_assistant(text)] == facts


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        # what someone did to the user tells as much as what the user did
        ("the GP started me on amlodipine for my blood pressure, could it be that?",
         ["The user was started on amlodipine for their blood pressure by the GP."]),
        ("They've moved me across to Thursdays since the new warehouse opened.",
         ["The user has been moved across to Thursdays since the new warehouse opened."]),
        # after a request and a dash
        ("put drop off as Thursday mornings at the church hall - they've moved me across to"
         " Thursdays", ["The user has been moved across to Thursdays."]),
        ("They just sent me a rejection letter with no feedback, should I ask why?",
         ["The user was just sent a rejection letter with no feedback."]),
        ("they laid me off in March so money is tight, what should I cut?",
         ["The user was laid off in March so money is tight."]),
        # the assistant or a thing as the one who did it: nothing about the user
        ("You gave me a great recipe last time, can I halve it?", []),
        ("It made me cry, is that normal?", []),
    ],
)
def test_what_someone_did_to_the_user_is_a_fact_in_a_chat_with_an_assistant(
    text: str, facts: list[str]
) -> None:
    assert [s.content for s in said_to_assistant(text)] == facts


@pytest.mark.parametrize(
    "text",
    [
        # a question as people new to English type it: the subject before the verb, no "?"
        "got conflict in the middle of the rebase. how i abort and go back like before",
        "legs destroyed going downstairs. when i can do fast running again",
        "what is the difference between A2 and B1 level in dutch",
        "which is better if i query mostly status and sometimes vessel_id",
    ],
)
def test_a_question_with_the_subject_before_its_verb_is_no_fact(text: str) -> None:
    assert not [s.content for s in said_to_assistant(text)
                if re.match(r"(?:How|When|What|Which)\b", s.content)]


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        # a remark on something else, then the user's own clause: the clause is the fact
        ("The recipe looks great, I'm allergic to shellfish though",
         ["The user is allergic to shellfish."]),
        ("It worked, I finally got the job at Deloitte",
         ["The user finally got the job at Deloitte."]),
        # a time or the user's own people before the comma stay in the fact
        ("My dog is sick, I'm worried about her",
         ["The user's dog is sick, the user is worried about her."]),
    ],
)
def test_a_remark_before_the_users_own_clause_is_left_out(text: str, facts: list[str]) -> None:
    assert [s.content for s in said_to_assistant(text)] == facts


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("We have two kids and a dog.", "The user has two kids and a dog."),
        ("sounds good, we have 3 kids", "The user has 3 kids."),
        ("We've got two cats and a hamster.", "The user has got two cats and a hamster."),
    ],
)
def test_a_household_told_with_we_is_a_fact(text: str, fact: str) -> None:
    assert fact in [s.content for s in said_to_assistant(text)]
    assert fact in facts_of(text)


def test_a_bare_into_opening_a_sentence_is_no_taste() -> None:
    assert restore_subject("Into the woods we went after lunch.") == (
        "Into the woods we went after lunch."
    )
    assert restore_subject("Really into bouldering lately.") == "I'm really into bouldering lately."
    assert restore_subject("No longer works for me.") == "No longer works for me."  # a thing
