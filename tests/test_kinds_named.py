"""A question naming a kind of thing ("Which sports do I do?") finds the session where the user
named one of its members in passing ("wednesday evenings i have futsal"), never the kind."""

from __future__ import annotations

from pathlib import Path

import pytest
from chat_sessions import ingested, session

from nemori_cli.memory import Memory
from nemori_cli.search.kinds_named import members_query
from nemori_cli.search.relevance import STRONG

CODE_ANSWER = (
    "Run `SELECT relname, idx_scan FROM pg_stat_user_indexes WHERE idx_scan = 0` to list the "
    "indexes that were never used since the statistics were last reset; check replicas too, "
    "since each server keeps its own counters, and keep unique indexes even when unused. "
) * 3
TOPICS = [  # near "sports" for a small embedding model, and no sport named
    ("Which shoes do I need for the gym?",
     "Pick shoes by what you do most: flat, firm soles for lifting, cushioned ones for the "
     "treadmill, and replace them when the tread wears down or they stop feeling stable. "),
    ("What do I do about sore muscles after a game?",
     "Rest, drink water, stretch gently and walk a little the next day; soreness usually fades "
     "in two or three days, and a sharp or lasting pain deserves a doctor's look. "),
    ("How do I stay motivated to train in winter?",
     "Set a small goal for each week, lay your kit out the night before, train with a friend "
     "and note every session, so missing one feels like breaking a chain. "),
    ("Which team jerseys do fans buy the most?",
     "The best sellers follow star players and league winners, and sales peak before the new "
     "season and around the holidays; replica kits outsell the authentic versions. "),
    ("How do I meet people in a new city?",  # an answer naming sports the user never said
     "Join a club: five-a-side football, a tennis ladder, a bouldering gym, a yoga studio or "
     "a rowing crew all meet weekly, and regulars soon know your name. "),
]


def store(tmp_path: Path) -> Memory:
    """Sixteen sessions with an assistant; in one, the user names their sport in passing."""
    convs = [session("futsal", 20, [
        ("user", "is there a way to see all indexes never used in the whole db? want to send "
                 "the list to the team before wednesday, wednesday evenings i have futsal and "
                 "im the keeper of our team so no laptop that night haha"),
        ("assistant", CODE_ANSWER),
    ])]
    for n in range(15):
        ask, answer = TOPICS[n % len(TOPICS)]
        name = "club" if ask.startswith("How do I meet people") else "s"
        convs.append(session(f"{name}{n}", 2 * n, [("user", ask), ("assistant", answer * 3)]))
    return ingested(tmp_path, convs)


def test_the_session_naming_a_member_of_the_kind_is_found(tmp_path: Path) -> None:
    mem = store(tmp_path)
    found = [h.conversation_id for h in mem.search("Which sports do I do?", k=8,
                                                    today="2024-04-30")]
    assert "futsal" in found[:5]
    # sports an assistant listed are not the user's
    listed = [i for i, conv in enumerate(found) if conv.startswith("club")]
    assert all(found.index("futsal") < i for i in listed)


@pytest.mark.parametrize(
    ("question", "member"),
    [("Which sports do I do?", "futsal"), ("What pets have I had?", "greyhound"),
     ("What instrument am I teaching myself?", "ukulele"),
     ("Which languages do I speak?", "portuguese"),
     ("Which countries have I been to?", "portugal"),
     ("What country is Caroline's grandma from?", "sweden"),
     ("Which cities have I lived in?", "rotterdam"),
     ("How many weeks after getting my new car did I book the trip?", "kia"),
     ("What pudding should I make for Sunday lunch?", "coeliac"),
     ("Any dinner ideas for tonight?", "vegetarian"),
     ("Any ideas for a weekend getaway from Lisbon?", "flying"),
     ("Could you put together a gym routine for me?", "herniated"),
     ("Can you suggest some snacks for my long shifts?", "prediabetic"),
     ("Can you recommend something for me to watch tonight?", "romcoms"),
     ("Any book recommendations for my holiday?", "memoirs"),
     ("What health problems have I mentioned to you?", "meniscus"),
     ("Which health issues of my own have I told you about?", "sleep"),
     ("What hobbies have I told you about?", "pottery"),
     ("What are Joanna's hobbies?", "ukulele")],
)
def test_a_kind_named_in_a_question_brings_its_members(question: str, member: str) -> None:
    assert member in (members_query(question) or "").split()


@pytest.mark.parametrize(
    "question",
    ["What programming languages have I used?", "Where did I go on holiday?",
     # advice on a hobby, or what the assistant said of one: its answers name hobbies
     "I'd like to take up a new hobby for the winter evenings. Any ideas?",
     "What new hobby did you say you'd picked up on the beaches?",
     "What activities do I do?",  # too broad: see kinds_named.py
     "How is my sister?",
     "What dessert did Nate bake?",  # no advice asked: what someone made
     "Where did Caroline travel last summer?",
     "What exercises does John do?",
     "What books has Tim read?",
     "Did I ask about health insurance?",  # a health word, no problem asked for
     "What city does my sister live in?",  # one city, most likely none of the list
     "Which car seat should I get for the baby?",
     "You mentioned a dessert you'd baked, can you remind me what it was?"],
)
def test_a_question_naming_no_kind_brings_no_members(question: str) -> None:
    assert members_query(question) is None


FOOD_TOPICS = [  # cooking and eating, and no diet named
    ("How long do I roast a chicken for?",
     "About 20 minutes per 500 g plus 20 minutes at 190C, until the juices run clear; rest it "
     "for 15 minutes under foil before carving so the meat stays moist. "),
    ("What's a good way to keep a sponge cake moist?",
     "Weigh the ingredients, do not overbake, brush the layers with syrup and store the cake "
     "wrapped at room temperature rather than in the fridge. "),
    ("How far ahead can I make a trifle?",
     "A day ahead is ideal: the sponge soaks up the sherry and the custard sets; add the cream "
     "and the decoration on the day so they stay fresh. "),
    ("Which wine goes with Sunday roast beef?",
     "A medium to full red: a Rioja, a Malbec or a Cotes du Rhone stands up to the beef and "
     "the gravy without overpowering them. "),
]


TRAVEL_TOPICS = [  # places and trips, and no limit on travel named
    ("What's the best time of year to visit Cornwall?",
     "Late May to June or September: the weather is mild, the beaches quieter than in August "
     "and the gardens at their best; book ahead for half-term weeks. "),
    ("How do I pack light for a week away?",
     "Plan three outfits that mix, roll your clothes, wear the bulkiest shoes on the journey "
     "and buy toiletries when you arrive. "),
    ("Which travel insurance should I get for a week in Spain?",
     "A single-trip policy with medical cover of at least two million, cancellation cover for "
     "what the trip cost and no excess on medical claims. "),
]


ADVICE = [  # (a session, what the user said in it, the reply, sessions around it, the question)
    ("coeliac",
     "can you write an email to a restaurant to book a table for 8 on saturday? please add "
     "that Derek is coeliac - proper diagnosed coeliac since january, so cross contamination "
     "matters (separate fryer etc)",
     "Here is the email: Dear Linden Tree, I would like to book a table. " * 6,
     FOOD_TOPICS,
     "I'm cooking Sunday lunch for the family next weekend. What pudding should I make?"),
    ("marrakech",
     "planning 5 days in marrakech end of april with jonas. big thing: i get horribly motion "
     "sick, boats, coaches, winding mountain roads, all of it. so the atlas mountains day "
     "trip is probably out?? what would you do instead",
     "Stay in the medina: the souks, the Majorelle garden, a cooking class and a hammam fill "
     "five days without a long drive. " * 4,
     TRAVEL_TOPICS,
     "Any ideas for a weekend getaway from Lisbon?"),
]


@pytest.mark.parametrize(("name", "said", "reply", "topics", "question"), ADVICE,
                         ids=[case[0] for case in ADVICE])
def test_advice_finds_what_the_user_cannot_eat_or_do(
    tmp_path: Path, name: str, said: str, reply: str, topics: list[tuple[str, str]],
    question: str,
) -> None:
    convs = [session(name, 20, [("user", said), ("assistant", reply)])]
    for n in range(15):
        ask, answer = topics[n % len(topics)]
        convs.append(session(f"s{n}", 2 * n, [("user", ask), ("assistant", answer * 3)]))
    mem = ingested(tmp_path, convs)
    hits = mem.search(question, k=8, today="2024-04-30")
    assert name in [h.conversation_id for h in hits][:3]
    # told as relevant too: a client that drops weak hits keeps what the answer rests on
    assert any(h.kind == "fact" and h.conversation_id == name and (h.relevance or 0) >= STRONG
               for h in hits)



HEALTH_TOPICS = [  # health in general, and no condition of the user's named
    ("How much water should I drink a day?",
     "Most adults need about two litres from drinks and food; more in heat or when you train, "
     "and pale yellow urine is a good sign you have enough. "),
    ("Is it worth getting a fitness tracker?",
     "It helps if you like numbers: step counts and resting heart rate show trends, but the "
     "calorie estimates are rough and the habit matters more than the gadget. "),
    ("How often should I see a dentist?",
     "Every six to twelve months for most people, more often with gum problems; a hygienist "
     "visit in between keeps tartar down. "),
]


def test_a_health_problem_told_in_passing_answers_a_question_for_them(tmp_path: Path) -> None:
    """"What health problems have I mentioned?" finds the torn meniscus of a swimming plan."""
    said = ("so i tore my meniscus playing padel 2 weeks ago, physio says no padel for 3 months "
            "but swimming is fine. can you give me a swimming plan 3x a week?")
    convs = [session("padel", 20, [("user", said),
                                   ("assistant", "Here is a plan: 20 minutes of easy laps. " * 8)])]
    for n in range(15):
        ask, answer = HEALTH_TOPICS[n % len(HEALTH_TOPICS)]
        convs.append(session(f"s{n}", 2 * n, [("user", ask), ("assistant", answer * 3)]))
    mem = ingested(tmp_path, convs)
    hits = mem.search("What health problems have I mentioned to you?", k=8, today="2024-04-30")
    assert [h.conversation_id for h in hits][0] == "padel"
