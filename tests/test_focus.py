"""Focused search hits: a long episode shrinks to the turns that match, and says so honestly."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np

from nemori_cli.models import Conversation, Fact, Message, utcnow
from nemori_cli.pipeline.episodes import build_episode
from nemori_cli.search.focus import excerpt, refine
from nemori_cli.search.fusion import to_hit
from nemori_cli.search.turns import best_stretch, terms

MAY8 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday
FILLER = [
    "How was your week, anything fun going on lately?",
    "Work has been busy but fine, the usual meetings and emails.",
    "The weather turned nice, finally some sun after all that rain.",
    "I watched a documentary about octopuses, they are so clever.",
]


def long_episode(n: int = 16, conv: str = "s1", pottery: bool = True):  # type: ignore[no-untyped-def]
    people = ("Caroline", "Melanie")
    messages = []
    for i in range(n):
        text = FILLER[i % len(FILLER)]
        if i == 9 and pottery:
            text = "I went to a pottery workshop yesterday and made a bowl!"
        messages.append(
            Message(
                id=f"D1:{i + 1}",
                role="user",
                content=text,
                name=people[i % 2],
                timestamp=MAY8 + timedelta(minutes=i),
            )
        )
    conversation = Conversation(id=conv, messages=tuple(messages))
    return build_episode("u1", conversation, messages)


def fact(content: str, message_ids: tuple[str, ...], ep_id: str) -> Fact:
    return Fact(
        id=f"f-{content[:8]}",
        user_id="u1",
        content=content,
        category="experience",
        source_episode_ids=(ep_id,),
        source_message_ids=message_ids,
        confidence=1.0,
        created_at=utcnow(),
        valid_from=MAY8,
        extractor="offline",
    )


def no_vectors(kind: str, ids: object) -> dict[str, np.ndarray]:
    return {}


def hits_for(*records):  # type: ignore[no-untyped-def]
    eps = {r.id: r for r in records if not isinstance(r, Fact)}
    return [
        to_hit("fact" if isinstance(r, Fact) else "episode", r, 1.0, eps.get) for r in records
    ], eps


def test_long_episode_is_cut_to_the_matching_turns_with_their_ids() -> None:
    ep = long_episode()
    hits, eps = hits_for(ep)
    [hit] = refine(hits, eps, "pottery workshop", np.zeros(4), no_vectors)
    assert "D1:10" in hit.message_ids
    assert 0 < len(hit.message_ids) < len(ep.message_ids)
    assert set(hit.message_ids) <= set(ep.message_ids)
    kept = {m.id: m for m in ep.messages if m.id in hit.message_ids}
    shown = {m.content for m in kept.values()}
    for m in ep.messages:  # the content is made of exactly the turns it names
        assert (m.content[:20] in hit.content) == (m.content in shown)
    assert hit.title == ep.title


def test_excerpt_stands_on_its_own_dated_with_speakers_and_resolved_dates() -> None:
    ep = long_episode()
    text = excerpt(ep, [ep.messages[9], ep.messages[12]])
    assert text.startswith("On Monday, 8 May 2023, Melanie and Caroline:")
    assert (
        "Melanie: I went to a pottery workshop yesterday and made a bowl! [yesterday: 7 May 2023]"
        in text
    )
    assert "[…]" in text  # skipped turns are marked


def test_short_episode_is_returned_whole() -> None:
    ep = long_episode(n=6)
    hits, eps = hits_for(ep)
    [hit] = refine(hits, eps, "pottery", np.zeros(4), no_vectors)
    assert hit.message_ids == ep.message_ids
    assert hit.content == ep.content


def test_matching_hit_moves_up_and_a_fact_already_shown_is_dropped() -> None:
    other = long_episode(conv="s2", pottery=False)
    target = long_episode(conv="s3")
    covered = fact("Melanie enjoys making things by hand", ("D1:10",), target.id)
    hits, eps = hits_for(other, target, covered)
    out = refine(hits, eps, "pottery workshop bowl", np.zeros(4), no_vectors)
    assert out[0].id == target.id
    assert "D1:10" in out[0].message_ids
    assert covered.id not in [h.id for h in out]  # its turn is already shown above it
    assert [h.id for h in out] == [target.id, other.id]


def test_an_edited_message_is_focused_as_it_now_reads() -> None:
    """What focus derives from a message is remembered by its text: an edit is seen at once."""
    ep = long_episode()
    query = "When did Melanie go to the pottery workshop?"
    before = refine(*hits_for(ep), query, np.zeros(4), no_vectors)[0]
    assert "[yesterday: 7 May 2023]" in before.content
    edited = list(ep.messages)
    edited[9] = replace(edited[9], content="I went to a pottery workshop last Friday, a bowl!")
    now = replace(ep, messages=tuple(edited))
    after = refine(*hits_for(now), query, np.zeros(4), no_vectors)[0]
    assert (after.id, "D1:10" in after.message_ids) == (before.id, True)
    assert "[last Friday: the Friday before 8 May 2023]" in after.content
    assert "yesterday" not in after.content


def test_an_edited_long_message_is_shown_where_it_now_matches() -> None:
    """A long answer is cut around the query's words as it reads now, not as it read before."""
    ep = long_episode()
    wanted = terms("pottery workshop")
    words = ["filler"] * 300
    answer = replace(ep.messages[9], role="assistant", name=None)
    late = replace(answer, content=" ".join([*words[:250], "pottery workshop", *words[250:]]))
    early = replace(answer, content=" ".join([*words[:20], "pottery workshop", *words[20:]]))
    assert "pottery workshop" in excerpt(ep, [late], wanted).split("[…]")[1]
    assert excerpt(ep, [early], wanted).split(": ", 1)[1].startswith("filler")
    assert "pottery workshop" in excerpt(ep, [early], wanted)


def test_best_stretch_is_the_first_run_holding_most_wanted_words() -> None:
    """best_stretch counts only runs ending on a wanted word: the same start as counting all."""
    rng = random.Random(7)
    vocab = ["pottery", "bowls", "Bowl", "workshop", "yesterday", "the", "a", "it's", "café",
             "2023", "clay-wheel"]
    for _ in range(500):
        words = [rng.choice(vocab) for _ in range(rng.randint(0, 40))]
        size, wanted = rng.randint(1, 12), terms(" ".join(rng.sample(vocab, 3)))
        found = [not terms(w).isdisjoint(wanted) for w in words]
        counts = [sum(found[s : s + size]) for s in range(max(1, len(words) - size + 1))]
        assert best_stretch(words, size, wanted) == counts.index(max(counts))


def assistant_chat(n: int):  # type: ignore[no-untyped-def]
    """A user/assistant chat whose answers run 200 words, one of them about a hotel."""
    messages = []
    for i in range(n):
        if i % 2 == 0:
            text = "I'm booking my trip to Lisbon next month." if i == 8 else FILLER[i % 4]
            messages.append(Message(id=f"m{i}", role="user", content=text,
                                    timestamp=MAY8 + timedelta(minutes=i)))
        else:
            words = ["Sure, here is a long and careful answer."] * 25
            if i == 9:
                words[20] = "I recommend the Hotel Avenida Palace, near Rossio station."
            messages.append(Message(id=f"m{i}", role="assistant", content=" ".join(words),
                                    timestamp=MAY8 + timedelta(minutes=i)))
    conversation = Conversation(id="chat", messages=tuple(messages))
    return build_episode("u1", conversation, messages)


def answer_words(content: str) -> list[int]:
    return [len(line.split()) - 1 for line in content.splitlines()
            if line.startswith("Assistant:")]


def test_a_question_about_the_user_shows_a_short_stretch_of_each_answer() -> None:
    """The user's own turns answer it; long answers beside them would spend the budget."""
    for n in (6, 16):  # returned whole, and focused
        ep = assistant_chat(n)
        [hit] = refine(*hits_for(ep), "When is my trip to Lisbon?", np.zeros(4), no_vectors)
        assert answer_words(hit.content)
        assert max(answer_words(hit.content)) <= 25 + 2  # and the "[…]" marks
        assert all(m.id in hit.message_ids for m in ep.messages[8:10] if n > 8)


def test_a_question_about_what_the_assistant_said_shows_the_answer_where_it_matches() -> None:
    ep = assistant_chat(16)
    [hit] = refine(*hits_for(ep), "Which hotel in Lisbon did you recommend?", np.zeros(4),
                   no_vectors)
    assert "I recommend the Hotel" in hit.content
    assert max(answer_words(hit.content)) > 25 + 2


def test_an_llm_narrative_of_a_short_episode_is_shown_as_it_is() -> None:
    """An LLM's narrative is already short: only an offline transcript is cut."""
    ep = assistant_chat(6).with_extraction(extractor="llm:some-model", status="done")
    ep = replace(ep, content="The user said they are booking a trip to Lisbon next month.")
    [hit] = refine(*hits_for(ep), "When is my trip to Lisbon?", np.zeros(4), no_vectors)
    assert hit.content == ep.content
