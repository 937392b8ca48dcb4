"""A question for a person's job, home, diet, allergies, hometown, age or partner ("What do I
do for a living?") is answered by the fact that sets it, the newest value first, though the question
shares no word with it."""

from __future__ import annotations

from pathlib import Path

import pytest
from chat_sessions import START, exchange, ingested

from nemori_cli.memory import Memory
from nemori_cli.models import Fact
from nemori_cli.pipeline.facts import attribute
from nemori_cli.search.attributes import LOOKED_UP, value_facts
from nemori_cli.search.questions import AttributeQuestion, asked_attribute

JOB = ("occupation", "employer")
HOME = ("residence",)
FOOD = ("diet", "allergy")


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("What do I do for a living?", AttributeQuestion(JOB, None, False)),
        ("What's my job?", AttributeQuestion(JOB, None, False)),
        ("where do i work", AttributeQuestion(JOB, None, False)),
        ("What was my previous job?", AttributeQuestion(JOB, None, True)),
        ("What does Andrew do for a living?", AttributeQuestion(JOB, "Andrew", False)),
        ("What is Caroline's occupation?", AttributeQuestion(JOB, "Caroline", False)),
        ("Which city do I live in?", AttributeQuestion(HOME, None, False)),
        ("Where did I move from?", AttributeQuestion(HOME, None, True)),
        ("Am I vegetarian?", AttributeQuestion(("diet",), None, False)),
        ("Where am I from?", AttributeQuestion(("hometown",), None, False)),
        ("Where did Andrew grow up?", AttributeQuestion(("hometown",), "Andrew", False)),
        ("How old am I?", AttributeQuestion(("age",), None, False)),
        ("What does Jon do?", AttributeQuestion(JOB, "Jon", False)),
        ("Where did I used to live?", AttributeQuestion(HOME, None, True)),
        ("Where did I live growing up?", AttributeQuestion(HOME, None, True)),
        ("Where did I live in 2019?", AttributeQuestion(HOME, None, False, 2019)),
        ("Who am I dating?", AttributeQuestion(("partner",), None, False)),
        ("What's my wife's name?", AttributeQuestion(("partner",), None, False)),
        ("Am I married?", AttributeQuestion(("partner",), None, False)),
        ("Is Tom married?", AttributeQuestion(("partner",), "Tom", False)),
        ("What food do I avoid?", AttributeQuestion(FOOD, None, False)),
        ("What can't I eat?", AttributeQuestion(FOOD, None, False)),
        ("Do I have any food allergies?", AttributeQuestion(FOOD, None, False)),
        ("What are my dietary restrictions?", AttributeQuestion(FOOD, None, False)),
        ("What is Joanna allergic to?", AttributeQuestion(FOOD, "Joanna", False)),
        ("Who is my business partner?", None),
        ("What did I eat yesterday?", None),
        ("What should I eat tonight?", None),
        ("What does my wife's brother do?", None),
        # a job or a home mentioned, not asked for
        ("What did I say about my job interview?", None),
        ("Any tips for my job search?", None),
        ("Where do I work out on Sundays?", None),
        ("Where did I go hiking?", None),
        ("What does he do for a living?", None),
        ("How old is my dog?", None),
        ("What do I do for work-life balance?", None),
        ("Where do I work best?", None),
        ("What did I do at work on Friday?", None),
        ("What's my diet plan for this week?", None),
        ("Am I a vegan cook?", None),
        ("Where is the cafe from?", None),
    ],
)
def test_what_a_question_asks_of_a_person(question: str, asked: AttributeQuestion | None) -> None:
    assert asked_attribute(question) == asked


@pytest.mark.parametrize(
    ("content", "value"),
    [
        ("The user turned 30 last week.", ("age", "30")),
        ("The user is 34 and just started running.", ("age", "34")),
        ("The user is a 42 year old dad.", ("age", "42")),
        ("The user was born and raised in Chicago.", ("hometown", "chicago")),
        ("The user is originally from Porto.", ("hometown", "porto")),
        ("The user works for the City of Austin.", ("employer", "city of austin")),
        ("The user works as a Software Engineer at Google.", ("occupation", "software engineer")),
        # a number, a weekday, a way of working: no age, hometown or job
        ("The user is 10 and 0 this season.", None),
        ("The user is 5 minutes away.", None),
        ("The user is from Monday to Friday at the office.", None),
        ("The user's sister is 34.", None),
        ("The user works as a team with their sister.", None),
        # a second clause of the user's own tells a value too; another person's does not
        ("The user is from Texas but lives in Oregon.", ("residence", "oregon")),
        ("The user grew up in Ohio and now lives in Denver.", ("residence", "denver")),
        ("The user is a nurse and works at Leeds General.", ("employer", "leeds general")),
        ("The user's friend is from Texas and lives in Oregon.", None),
        ("The user thinks Tom is from Texas and lives in Oregon.", None),
        ("The user is friends with Tom, who lives in Paris.", None),
        ("The user has a sister and she lives in Rome.", None),
        ("The user's girlfriend Maya and the user went hiking.", ("partner", "maya")),
        ("The user has been married to Sam since 2018.", ("partner", "sam")),
        ("The user's sister's husband Tom is a chef.", None),
        ("The user's business partner Mark quit.", None),
        ("The user is seeing Dr Lee about the knee.", None),
        # a writer who types in lowercase names places and employers so
        ("The user just moved to lisbon last month.", ("residence", "lisbon")),
        ("The user works at kinetic health, a health-tech company.",
         ("employer", "kinetic health")),
        ("The user just wrapped their first two weeks at kinetic health.",
         ("employer", "kinetic health")),
        ("The user survived their first month at Stripe.", ("employer", "stripe")),
        ("The user finished their first week at school.", None),
        ("The user spent their first day at Disneyland.", None),
        ("The user lives in fear of spiders.", None),
        ("The user works at a startup.", None),
        ("The user's sister lives in lyon.", None),
        ("The user is vegetarian and the user is allergic to peanuts.", ("diet", "vegetarian")),
        ("The user is allergic to peanuts, so no satay.", ("allergy", "peanuts")),
        ("The user has a shellfish allergy.", ("allergy", "shellfish")),
        ("The user can't eat gluten anymore.", ("allergy", "gluten")),
        ("The user's son is allergic to eggs.", None),
        ("The user can't eat another bite.", None),
    ],
)
def test_what_value_a_fact_tells(content: str, value: tuple[str, str] | None) -> None:
    assert (attribute(told(content)) or attribute(told(content), LOOKED_UP)) == value


def told(content: str) -> Fact:
    return Fact(id="f", user_id="u", content=content, category="user_profile",
                source_episode_ids=(), source_message_ids=(), confidence=1.0,
                created_at=START, valid_from=START, extractor="offline")


def test_a_fact_that_tells_a_hometown_and_a_home_answers_both() -> None:
    fact = told("The user is from Texas but lives in Oregon.")
    assert value_facts(AttributeQuestion(("hometown",), None, False), [fact]) == [fact]
    assert value_facts(AttributeQuestion(HOME, None, False), [fact]) == [fact]


CODE_HELP = (
    "A rolling average smooths daily noise: sort by date, group by depot, then take the mean "
    "of each row and the six before it. In pandas that is groupby('depot').rolling(7).mean(). "
)


# (conversation, day, what the user said, the reply): jobs told twice, homes three times (the
# last a year later), an age and a hometown once
TOLD = [
    ("teacher", 3, "I work as a chemistry teacher at a high school in Leeds.",
     "That sounds like a rewarding job. How can I help?"),
    ("analyst", 20, "I started a new job as a data analyst at a logistics firm this week.",
     "Congratulations on the new role! What are you working on?"),
    ("leeds", 2, "We live in Leeds and love the markets.",
     "Leeds has great markets. Kirkgate is a classic."),
    ("york", 25, "We moved to York last weekend and I'm still unpacking boxes.",
     "Good luck with the unpacking! York is lovely in autumn."),
    ("lisbon", 400, "We moved to Lisbon and the light here is amazing.",
     "Lisbon is beautiful. Enjoy the miradouros!"),
    ("age", 5, "I'm 34 and just started running, any tips?", "Start slow: three easy runs a week."),
    ("porto", 6, "I grew up in Porto so I miss the sea.",
     "The sea is easy to miss. Is there a lake nearby?"),
]


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    """A user who asks about code and food most days and tells who they are now and then
    (TOLD); the tests only search it."""
    convs = [exchange(f"code{n}", n * 2, f"how do i do a rolling average in pandas {n}",
                      CODE_HELP) for n in range(8)]
    convs += [exchange(f"food{n}", n * 2 + 1, f"quick dinner idea with lentils {n}?",
                       "A lentil dal with rice.") for n in range(6)]
    convs += [exchange(*told) for told in TOLD]
    return ingested(tmp_path_factory.mktemp("attributes"), convs)


def conversations(mem: Memory, question: str, n: int) -> list[str]:
    return [h.message_ids[0].split(":")[0] for h in mem.search(question, k=10)][:n]


def test_the_newest_value_answers_first(mem: Memory) -> None:
    for question in ("What do I do for a living?", "What's my job?", "Where do I work?"):
        first = mem.search(question, k=5)[0]
        assert first.kind == "fact" and "data analyst" in first.content, question
        assert first.relevance is not None and first.relevance >= 0.5  # not "no strong match"
    assert conversations(mem, "Where do I live?", 1) == ["lisbon"]
    assert conversations(mem, "How old am I?", 1) == ["age"]
    assert conversations(mem, "Where am I from?", 1) == ["porto"]


def test_an_earlier_value_answers_a_question_for_it(mem: Memory) -> None:
    assert conversations(mem, "What was my previous job?", 1) == ["teacher"]
    assert conversations(mem, "Where did I live before?", 1) == ["york"]
    assert conversations(mem, "Where did I live in 2024?", 1) == ["york"]
    # the replaced fact stays out of a search that does not ask for an earlier value
    facts = mem.search("What's my job?", k=10, kind="fact")
    assert not any("teacher" in h.content for h in facts)


def among_decoys(tmp_path: Path, decoy: str, reply: str, told: str, answer: str) -> Memory:
    """Code help most days, four chats that say the question's own words of other things
    (decoy), and one request that tells the answer in passing (told)."""
    convs = [exchange(f"code{n}", n, f"how do i do a rolling average in pandas {n}", CODE_HELP)
             for n in range(6)]
    convs += [exchange(f"decoy{n}", 10 + n, f"{decoy} Attempt {n}.", reply) for n in range(4)]
    convs.append(exchange("told", 7, told, answer))
    return ingested(tmp_path, convs)


def test_a_question_for_the_users_partner_finds_who_it_is(tmp_path: Path) -> None:
    mem = among_decoys(
        tmp_path, "I'm building a dating app: how should I model a relationship between two "
        "users in SQL?", "Use a join table with both user ids.",
        "My girlfriend Maya and I want a quiet beach for a long weekend, any ideas?",
        "The Alentejo coast is quiet in May.")
    for question in ("Who am I dating?", "Am I in a relationship?"):
        first = mem.search(question, k=5)[0]
        assert first.kind == "fact" and "Maya" in first.content


def test_a_question_for_what_the_user_cannot_eat_finds_the_allergy(tmp_path: Path) -> None:
    mem = among_decoys(
        tmp_path, "Which food trucks should a festival avoid booking for the street fair?",
        "Avoid trucks without a permit; food safety first.",
        "Planning a dinner party on Saturday. I'm allergic to peanuts, so nothing with satay "
        "please.", "A mushroom risotto works.")
    first = mem.search("What food do I avoid?", k=5)[0]
    assert first.kind == "fact" and "allergic to peanuts" in first.content


def test_a_lowercase_writers_move_replaces_the_old_home(tmp_path: Path) -> None:
    convs = [exchange(f"code{n}", n, f"how do i do a rolling average in pandas {n}", CODE_HELP)
             for n in range(4)]
    convs.append(exchange("valencia", 5, "i live in valencia and the summers are brutal, how do "
                          "i keep a flat cool without ac?", "Shade the windows by day."))
    convs.append(exchange("lisbon", 30, "ok big news, we moved to lisbon last month. what "
                          "paperwork do i need for a tax number?", "Go to a Financas office."))
    mem = ingested(tmp_path, convs)
    first = mem.search("Where do I live?", k=5)[0]
    assert first.kind == "fact" and "Lisbon" in first.content  # its capital given back
    facts = [h.content for h in mem.search("Where do I live?", k=10, kind="fact")]
    assert not any("valencia" in c.lower() for c in facts)  # replaced: kept, but not shown
