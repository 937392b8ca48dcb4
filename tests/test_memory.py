"""Memory as scripts use it: re-import, dedup, backfill, embedder changes, an LLM end to end."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fake_llm_server import FakeLLMServer, chat_json

from nemori_cli.cli.app import main
from nemori_cli.errors import EmbeddingMismatch
from nemori_cli.memory import Memory

SAMPLE_CHATS = Path(__file__).resolve().parent.parent / "sample_chats"


def write_chat(
    path: Path, messages: list[tuple[str, str, str]], conv_id: str = "c1", day: int = 1
) -> Path:
    """Write a nemori JSON conversation of (id, role, text) messages, a minute apart."""
    msgs = [
        {
            "id": mid,
            "role": role,
            "content": text,
            "timestamp": f"2025-05-{day + i // 50:02d}T10:{i % 50:02d}:00Z",
        }
        for i, (mid, role, text) in enumerate(messages)
    ]
    path.write_text(json.dumps({"id": conv_id, "title": "Chat", "messages": msgs}), "utf-8")
    return path


FIRST = [
    ("m1", "user", "I am allergic to peanuts."),
    ("m2", "assistant", "Thanks, I will remember that."),
    ("m3", "user", "My sister lives in Lyon."),
    ("m4", "assistant", "Lyon is lovely."),
]
MORE = [
    ("m5", "user", "I started learning the cello last month."),
    ("m6", "assistant", "That is a wonderful instrument."),
]


def test_a_grown_conversation_adds_only_its_new_messages(tmp_path: Path, data_dir: Path) -> None:
    mem = Memory.open(data_dir=data_dir)
    first = mem.ingest([str(write_chat(tmp_path / "a.json", FIRST))])
    assert (first.conversations, first.messages) == (1, 4)
    grown = mem.ingest([str(write_chat(tmp_path / "b.json", FIRST + MORE))])
    assert (grown.conversations, grown.messages) == (1, 2)
    ids = [m for e in mem.episodes() for m in e.message_ids]
    assert sorted(ids) == ["m1", "m2", "m3", "m4", "m5", "m6"]  # every message once
    assert any("cello" in f.content for f in mem.facts())


def test_one_path_or_id_is_taken_whole_not_as_its_letters(tmp_path: Path, data_dir: Path) -> None:
    mem = Memory.open(data_dir=data_dir)
    chat = write_chat(tmp_path / "a.json", FIRST)
    assert [report.path for report in mem.dry_run(chat)] == [str(chat)]
    assert mem.ingest(str(chat)).conversations == 1  # not a walk of "/", "t", "m", "p"...
    fact = next(f for f in mem.facts() if "peanut" in f.content)
    assert mem.delete_facts(fact.id) == [fact.id]
    episode = mem.episodes()[0]
    assert mem.delete_episodes(episode.id).episodes == [episode.id]


def test_the_same_fact_from_two_conversations_is_stored_once_with_both_sources(
    tmp_path: Path, data_dir: Path
) -> None:
    mem = Memory.open(data_dir=data_dir)
    mem.ingest([str(write_chat(tmp_path / "a.json", FIRST[:2], "c1"))])
    again = [("x1", "user", "I am allergic to peanuts."), ("x2", "assistant", "Noted.")]
    summary = mem.ingest([str(write_chat(tmp_path / "b.json", again, "c2"))])
    peanuts = [f for f in mem.facts() if "peanut" in f.content]
    assert len(peanuts) == 1 and summary.merged >= 1
    assert set(peanuts[0].source_message_ids) == {"m1", "x1"}
    assert len(peanuts[0].source_episode_ids) == 2


def test_the_same_thing_done_on_two_days_is_two_facts(tmp_path: Path, data_dir: Path) -> None:
    mem = Memory.open(data_dir=data_dir)
    told = "Yesterday I went to a pottery class with my sister."
    for conv, day in (("c1", 6), ("c2", 20)):
        chat = [(f"{conv}-1", "user", told), (f"{conv}-2", "assistant", "How was it?")]
        mem.ingest([str(write_chat(tmp_path / f"{conv}.json", chat, conv, day=day))])
    pottery = [f for f in mem.facts() if "pottery" in f.content]
    assert sorted(f.when or "" for f in pottery) == ["19 May 2025", "5 May 2025"]
    again = [("c3-1", "user", told), ("c3-2", "assistant", "Again?")]
    summary = mem.ingest([str(write_chat(tmp_path / "c3.json", again, "c3", day=20))])
    assert summary.merged >= 1 and len([f for f in mem.facts() if "pottery" in f.content]) == 2


def test_no_facts_then_backfill_extracts_them(tmp_path: Path, data_dir: Path) -> None:
    mem = Memory.open(data_dir=data_dir)
    mem.ingest([str(write_chat(tmp_path / "a.json", FIRST))], facts=False)
    assert mem.facts() == []
    assert {e.extraction["status"] for e in mem.episodes()} == {"skipped"}
    summary = mem.backfill()
    assert summary.facts >= 2
    assert {e.extraction["status"] for e in mem.episodes()} == {"done"}
    assert mem.backfill().facts == 0  # nothing left to do
    hits = mem.search("peanut allergy", kind="fact")
    assert hits and "peanut" in hits[0].content


class OtherEmbedder:
    """An embedder with another model id and dimension (a changed NEMORI_EMBED_MODEL)."""

    model_id = "litellm:other-model"
    dim = 8

    def embed(self, texts: Any) -> np.ndarray:
        vecs = np.ones((len(texts), self.dim), dtype=np.float32)
        return vecs / np.linalg.norm(vecs, axis=1, keepdims=True)


def test_a_store_built_with_another_embedder_asks_for_reindex(
    tmp_path: Path, data_dir: Path
) -> None:
    Memory.open(data_dir=data_dir).ingest([str(write_chat(tmp_path / "a.json", FIRST))])
    mem = Memory.open(data_dir=data_dir, embedder=OtherEmbedder())
    with pytest.raises(EmbeddingMismatch, match="nemori reindex"):
        mem.search("peanuts")
    mem.reindex()
    assert mem.search("peanuts")


def answer(request: dict[str, Any]) -> Any:
    """Canned LLM answers: one episode per window, and a fixed set of facts per episode."""
    system = request["messages"][0]["content"]
    if "split a chat into episodes" in system:
        return chat_json({"starts": [1]})
    return chat_json(
        {
            "title": "A planned hiking trip",
            "narrative": "In June 2025 the user planned a hut-to-hut hike in the Alps.",
            "timestamp": None,
            "facts": [
                {
                    "content": "The user hikes in the Alps every September.",
                    "category": "user_profile",
                    "sources": [1],
                }
            ],
        }
    )


def test_ingest_with_an_llm_over_http(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NEMORI_LLM_API_KEY", "sk-test-secret-999")
    data = str(tmp_path / "d")
    with FakeLLMServer(answer) as server:
        with pytest.raises(SystemExit) as exit_info:
            main(
                [
                    "--data-dir",
                    data,
                    "--llm",
                    "openai/test-model",
                    "--llm-base-url",
                    server.base_url,
                    "ingest",
                    str(SAMPLE_CHATS),
                    "--json",
                ]
            )
        assert exit_info.value.code == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert summary["llm_calls"] >= summary["episodes"] >= 5
    assert summary["llm_calls"] <= 2 * summary["episodes"]
    assert "sk-test-secret-999" not in out + err
    mem = Memory.open(data_dir=data)
    facts = mem.facts()
    assert [f.content for f in facts] == ["The user hikes in the Alps every September."]
    assert facts[0].extractor == "llm:openai/test-model"
    assert len(facts[0].source_episode_ids) == summary["episodes"]  # merged, not repeated
    assert {e.title for e in mem.episodes()} == {"A planned hiking trip"}
    assert mem.stats().llm_usage["calls"] >= summary["episodes"]


def test_a_move_supersedes_where_the_user_lived_offline(data_dir: Path) -> None:
    mem = Memory.open(data_dir=data_dir)
    assert mem.ingest([str(SAMPLE_CHATS)]).superseded >= 1
    berlin = [f for f in mem.facts() if "lives in Berlin" in f.content]
    assert berlin and all(f.superseded_by for f in berlin)
    newer = mem.fact(berlin[0].superseded_by or "")
    assert "lives in" in newer.content and newer.valid_from > berlin[0].valid_from
    hidden = {h.id for h in mem.search("where does the user live", kind="fact", k=50)}
    assert berlin[0].id not in hidden and newer.id in hidden
    shown = mem.search("where does the user live", kind="fact", k=50, include_superseded=True)
    assert berlin[0].id in {h.id for h in shown}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")
def test_a_process_forked_after_a_search_can_search_too(tmp_path: Path, data_dir: Path) -> None:
    Memory.open(data_dir=data_dir).ingest([str(write_chat(tmp_path / "a.json", FIRST + MORE))])
    mem = Memory.open(data_dir=data_dir)  # a reader searches the flat copy (chromadb is not
    # fork-safe: a writer's child must open its own Memory)
    assert mem.search("cello", k=3)  # the parent's search threads exist now
    pid = os.fork()  # as multiprocessing's default on Linux does after a script's search
    if pid == 0:  # the child: a search must answer, not wait on a thread it does not have
        signal.alarm(60)
        os._exit(0 if mem.search("sister in Lyon", k=3) else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_process_that_ingested_searches_a_long_chat_cut_in_two_hits(
    tmp_path: Path, data_dir: Path
) -> None:
    # after it writes, a process reads vectors from Chroma itself, which refuses a request
    # naming a document twice: two hits cut from one long episode name its windows twice
    pets = "I adopted a cat called Tofu and a dog called Bolo last spring."
    messages = [
        (f"m{i}", "user" if i % 2 == 0 else "assistant",
         pets if i in (2, 20) else f"Tomato seedlings, note {i}: water the soil less.")
        for i in range(24)
    ]
    mem = Memory.open(data_dir=data_dir)
    mem.ingest([str(write_chat(tmp_path / "long.json", messages))])
    hits = mem.search("what pets did I adopt, a cat or a dog?", k=10)
    spans = [h for h in hits if h.kind == "episode"]
    assert len(spans) >= 2 and len({h.id for h in spans}) == 1  # one episode, two hits
    assert "Tofu" in spans[0].content
