"""An advice question ("Can you suggest ...") finds the session where the user said what they
like, among long assistant answers that talk round the topic (bench/haystack_preferences.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from chat_sessions import exchange, ingested, session

from nemori_cli.memory import Memory
from nemori_cli.models import SearchHit
from nemori_cli.search import hybrid
from nemori_cli.search.questions import asks_advice, recalls_answer

PREFERENCE = "I've been getting really into film photography lately, with my dad's old Pentax."
QUESTION = "Can you suggest some weekend projects I might enjoy?"
# long answers about hobbies and free time, in sessions where the user said nothing of themself
ROUND_THE_TOPIC = (
    "Plenty of people spend a free Saturday on a hobby: building a raised garden bed, baking "
    "sourdough, refinishing an old chair, journaling, learning a few ukulele songs or a day "
    "hike with friends. Choose something that fits your time and budget, and break it into "
    "small steps so your days off stay relaxing rather than turning into chores. "
) * 3
ASKS = ["Can you help me write an email to my landlord about the heating?",
        "How do I set up a budget spreadsheet?", "What's the capital of Australia?",
        "Please proofread my cover letter."]
UNRELATED = (
    "To file the form, gather last year's statements, check the deadlines on the tax office "
    "site, fill in each section carefully and keep copies of every receipt you submit. "
) * 3


def store(tmp_path: Path) -> Memory:
    """Twelve sessions with an assistant; in one, the user mentions a hobby in passing."""
    convs = []
    for n in range(12):
        if n == 4:
            turns = [("user", "How do I file my taxes this year?"), ("assistant", UNRELATED),
                     ("user", PREFERENCE), ("assistant", UNRELATED),
                     ("user", "Thanks, that helps."), ("assistant", UNRELATED)]
        else:
            turns = [("user", ASKS[n % len(ASKS)]), ("assistant", ROUND_THE_TOPIC),
                     ("user", "Any more?"), ("assistant", ROUND_THE_TOPIC)]
        convs.append(session(f"s{n}", 3 * n, turns))
    return ingested(tmp_path, convs)


@pytest.mark.parametrize(
    "question",
    [QUESTION, "Any ideas for a gift I could buy myself?", "What should I cook tonight?",
     "I'm planning a trip, what would suit me?", "Would I enjoy a pottery class?"],
)
def test_a_request_for_advice_is_recognised(question: str) -> None:
    assert asks_advice(question)


@pytest.mark.parametrize(
    "question",
    ["When did I move to Berlin?", "What did I research?", "How many hikes have I been on?"],
)
def test_a_question_of_fact_is_not_advice(question: str) -> None:
    assert not asks_advice(question)


@pytest.mark.parametrize(
    "question",
    ["Can you remind me which hotel you recommended in Kyoto?",
     "What were the tips you gave me for sleeping better?",
     "I forgot the book you suggested last month, what was it?",
     "What did you recommend for my back pain?",
     "Going back to our previous conversation about the dinosaur book: can you tell me again "
     "what colour the Plateosaurus's scales were?",
     "Can you tell me again the name of that hotel in Lisbon?"],
)
def test_asking_what_the_assistant_recommended_is_not_a_request_for_advice(
    question: str,
) -> None:
    assert not asks_advice(question)
    assert recalls_answer(question)


def test_asking_what_the_assistant_recommended_finds_the_answer_that_said_it(
    tmp_path: Path,
) -> None:
    """The advice rule would rank the sessions by the user's own Kyoto stories (s0 then falls
    out of the first ten); the answer that recommended a place is what the question asks for."""
    itinerary = (
        "Day one: the Fushimi Inari gates early in the morning, then Nishiki market. For the "
        "nights in Kyoto, I would recommend Hiiragiya, a traditional ryokan with a kaiseki "
        "dinner served in your room and cypress baths. Day two: Arashiyama bamboo grove and "
        "the monkey park. "
    ) * 2
    convs = [exchange("s0", 0, "Plan a three-day itinerary for my October trip.", itinerary)]
    for n in range(1, 10):  # the user tells of Kyoto stays; the answers are about other things
        convs.append(session(f"s{n}", 3 * n, [
            ("user", f"My cousin stayed at a lovely place in Kyoto for {n} nights, a small "
                     "guesthouse."),
            ("assistant", UNRELATED), ("user", ASKS[n % len(ASKS)]), ("assistant", UNRELATED),
        ]))
    mem = ingested(tmp_path, convs)
    hits = mem.search("Can you remind me which place to stay in Kyoto you recommended?", k=5)
    assert "s0" in [h.conversation_id for h in hits]


def test_an_advice_question_finds_the_session_where_the_user_stated_the_preference(
    tmp_path: Path,
) -> None:
    mem = store(tmp_path)
    hits = mem.search(QUESTION, k=5)
    assert hits and hits[0].conversation_id == "s4"
    assert "s4:2" in hits[0].message_ids


def test_a_chat_between_people_ranks_its_episodes_for_advice_as_for_any_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No user turns to rank by: only facts about the user (the profile list) move."""
    mem = ingested(tmp_path, [
        session(f"p{n}", 2 * n, [("user", PREFERENCE if n == 2 else "Any plans?"),
                                 ("user", ROUND_THE_TOPIC[:300])])
        for n in range(6)
    ])

    def episodes(hits: list[SearchHit]) -> list[tuple[str, tuple[str, ...], float]]:
        return [(h.id, h.message_ids, round(h.score, 6)) for h in hits if h.kind == "episode"]

    with_rule = mem.search(QUESTION, k=30)
    monkeypatch.setattr(hybrid, "asks_advice", lambda q: False)
    assert episodes(with_rule) == episodes(mem.search(QUESTION, k=30))


@pytest.mark.parametrize(
    "question",
    ["What advice did Caroline give Melanie about adoption?",
     "What book did Tim recommend to John?", "Where did Maria get the idea for the box?"],
)
def test_what_one_person_advised_another_is_not_a_request_for_advice(question: str) -> None:
    assert not asks_advice(question)


def test_an_advice_question_ranks_what_the_user_likes_above_what_they_did(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's tastes (user_profile facts) are what advice rests on: "The user loves
    romantic comedies" comes before a film the user once saw, for "what should I watch"."""
    films = ("Dune", "Oppenheimer", "Barbie", "Wonka", "Napoleon")
    convs = [exchange(f"s{n}", 3 * n,
                      f"I watched {film} at the cinema with my coworkers from the office.",
                      UNRELATED) for n, film in enumerate(films)]
    convs.append(exchange("taste", 20, "I'm all about romantic comedies and dramas.", UNRELATED))
    mem = ingested(tmp_path, convs)
    question = "Can you recommend a film for me to watch at the cinema this Friday?"
    taste = [f for f in mem.facts() if "romantic comedies" in f.content]
    assert [f.category for f in taste] == ["user_profile"]

    def rank(hits: list[SearchHit]) -> int:
        return next(i for i, h in enumerate(hits) if "taste:0" in h.message_ids)

    with_rule = rank(mem.search(question, k=30))
    monkeypatch.setattr(hybrid, "ADVICE_PROFILE_WEIGHT", 0.0)
    assert with_rule < rank(mem.search(question, k=30))
