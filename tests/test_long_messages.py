"""Every word of a long message can be found: lexical text and vector passages cover it all."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from test_memory import write_chat

from nemori_cli.indexing import episode_docs, lexical_text
from nemori_cli.memory import Memory
from nemori_cli.models import Conversation, Message
from nemori_cli.pipeline.episodes import build_episode

OPENING = (
    "Great question! Planning a long road trip takes some preparation, so here is a complete "
    "guide. Start with the route: pick stops every two or three hours, book hotels that allow "
    "late check-in, and keep a paper map in the glove box in case your phone loses signal. "
)
FILLER = [
    "Pack layers of clothing because mountain passes get cold at night even in summer.",
    "Check the tyre pressure, the oil level and the windscreen washer fluid before leaving.",
    "Download offline maps and a few podcasts for the stretches without coverage.",
    "Keep snacks, water and a small first aid kit within reach of the front seats.",
    "Share your itinerary with a friend and agree on times to check in by message.",
    "Fuel up whenever the tank is half empty in remote areas, since stations can be far apart.",
]
DEEP = (
    "For your dog's sensitive stomach on the road, a probiotic made for pets helps a lot: "
    "Jarrow Formulas Pet Dophilus is a powder you sprinkle over food once a day, and most "
    "vets are happy with it for travel-related digestive upsets."
)


def long_answer() -> str:
    """An assistant answer of about 1,000 words that names the probiotic two thirds in."""
    body = [OPENING]
    body += [FILLER[i % len(FILLER)] for i in range(60)]
    body.append(DEEP)
    body += [FILLER[(i + 3) % len(FILLER)] for i in range(30)]
    return " ".join(body)


def zero_embed(texts: list[str]) -> np.ndarray:
    return np.zeros((len(texts), 3), dtype=np.float32)


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]+", text))


def long_episode():  # type: ignore[no-untyped-def]
    messages = (
        Message(id="u1", role="user", content="Any tips for a road trip with my dog?"),
        Message(id="a1", role="assistant", content=long_answer()),
    )
    conversation = Conversation(id="c1", title="Road trip", messages=messages)
    return build_episode("u", conversation, messages)


def test_the_narrative_cuts_the_long_answer_but_the_lexical_text_keeps_every_word() -> None:
    ep = long_episode()
    assert "Jarrow" not in ep.content  # the premise: the narrative shows only the opening
    assert words(long_answer()) <= words(lexical_text(ep))


def test_vector_documents_cover_every_word_of_a_long_message() -> None:
    docs = episode_docs([long_episode()], zero_embed)
    covered = words(" ".join(docs.documents))
    assert words(long_answer()) <= covered
    deep = [d for d, text in zip(docs.ids, docs.documents, strict=True) if "Jarrow" in text]
    assert deep and all(d.startswith(long_episode().id + "#") for d in deep)
    # passages stay within what the local embedder reads (256 tokens)
    assert max(len(t) for t in docs.documents) <= 1300


OTHER_CHATS = [
    ("How do I keep basil alive indoors?", "Give it six hours of light and let the soil dry."),
    ("What is a good stretch for a stiff neck?", "Try slow chin tucks and shoulder rolls."),
    ("Which cat food is best for hairballs?", "Look for a fibre-rich formula for indoor cats."),
]


def ingest_chats(tmp_path: Path, data_dir: Path) -> Memory:
    mem = Memory.open(data_dir=data_dir)
    files = []
    for n, (question, answer) in enumerate(OTHER_CHATS):
        msgs = [(f"q{n}", "user", question), (f"a{n}", "assistant", answer)]
        files.append(str(write_chat(tmp_path / f"c{n}.json", msgs, f"other{n}")))
    trip = [("u1", "user", "Any tips for a road trip with my dog?"),
            ("a1", "assistant", long_answer())]
    files.append(str(write_chat(tmp_path / "trip.json", trip, "trip")))
    mem.ingest(files)
    return mem


def test_a_name_deep_in_a_long_assistant_answer_is_found_and_shown(
    tmp_path: Path, data_dir: Path
) -> None:
    mem = ingest_chats(tmp_path, data_dir)
    trip = next(ep for ep in mem.episodes() if ep.conversation_id == "trip")
    assert [r for r, _ in mem.parts.lexical("episode").query("Dophilus", 5)] == [trip.id]
    hits = mem.search("Jarrow Formulas Pet Dophilus", k=3, kind="episode")
    assert hits and hits[0].id == trip.id
    assert "Jarrow Formulas Pet Dophilus" in hits[0].content


def test_a_paraphrase_of_a_deep_passage_finds_it_by_vector(tmp_path: Path, data_dir: Path) -> None:
    mem = ingest_chats(tmp_path, data_dir)
    qvec = mem.embedder.embed(["probiotic powder for a dog with digestive trouble"])[0]
    best = mem.parts.vectors().query("episode", qvec, 1)
    trip = next(ep for ep in mem.episodes() if ep.conversation_id == "trip")
    assert best[0][0] == trip.id
