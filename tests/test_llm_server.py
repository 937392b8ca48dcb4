"""The LLM extractor over real HTTP against a local OpenAI-compatible server with canned answers."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fake_llm_server import FakeLLMServer, Reply, chat, chat_json, error

from nemori_cli.config import Settings
from nemori_cli.embed import LiteLLMEmbedder
from nemori_cli.models import Conversation, Episode, Message
from nemori_cli.pipeline.llm import LLMClient
from nemori_cli.pipeline.llm_extractor import LLMExtractor
from nemori_cli.pipeline.pool import run_pool

KEY = "sk-test-dummy-key-123456"
START = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)
LINES = [
    ("Caroline", "Hey Mel! I went to a LGBTQ support group yesterday and it was powerful."),
    ("Melanie", "That sounds amazing, Caroline. What happened there?"),
    ("Caroline", "I heard transgender stories and I felt accepted. I work as a counsellor."),
    ("Melanie", "I love that. By the way, I painted a sunrise last week."),
    ("Caroline", "Wow, I love painting too. I paint landscapes every weekend."),
    ("Melanie", "We should paint together sometime."),
    ("Caroline", "Anyway, I am moving to Boston next month for a new job."),
    ("Melanie", "Boston! That is a big change. When do you start?"),
    ("Caroline", "I start on the first of June at a youth centre."),
    ("Melanie", "Good luck with the move!"),
]
EPISODE_ANSWER = {
    "title": "Caroline's support group and new job",
    "narrative": "On 7 May 2023 Caroline went to an LGBTQ support group.",
    "timestamp": "2023-05-08T13:00:00Z",
    "facts": [{"content": "Caroline works as a counsellor.", "category": "user_profile",
               "subject": "Caroline", "sources": [3]}],
}


def conversation() -> Conversation:
    msgs = tuple(
        Message(id=f"m{i}", role="user", name=name, content=text,
                timestamp=START + timedelta(minutes=i))
        for i, (name, text) in enumerate(LINES)
    )
    return Conversation(id="c1", messages=msgs, title="Chat", source="test.json")


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(lambda request: chat_json(EPISODE_ANSWER)) as srv:
        yield srv


def make(server: FakeLLMServer, **kw: Any) -> LLMExtractor:
    """An LLM extractor pointed at the fake server, with short backoffs for tests."""
    values: dict[str, Any] = {"llm_retries": 2, "llm_timeout": 5.0, **kw}
    settings = Settings(data_dir=Path("/nonexistent"), llm_model="openai/test-model",
                        llm_base_url=server.base_url, llm_api_key=KEY, **values)
    embedder = LiteLLMEmbedder("openai/test-embed", api_base=server.base_url, api_key=KEY)
    return LLMExtractor(settings, embedder.embed, client=LLMClient(settings, backoff=0.01))


def first_episode(ex: LLMExtractor, server: FakeLLMServer) -> Episode:
    """Build the pending episode of the whole test conversation (one segment, no LLM call)."""
    conv = conversation()
    ep = ex.episode("alice", conv, conv.messages)
    server.requests.clear()
    return ep


def test_a_good_answer_rewrites_the_episode_and_counts_usage(server: FakeLLMServer) -> None:
    ex = make(server)
    ep = first_episode(ex, server)
    assert ep.extraction["status"] == "pending" and ep.extraction["extractor"] == ex.name
    result = ex.extract(ep, [])
    assert result.episode.extraction["status"] == "done"
    assert result.episode.title == EPISODE_ANSWER["title"]
    assert [f.content for f in result.facts] == ["Caroline works as a counsellor."]
    assert result.facts[0].source_message_ids == ("m2",)
    assert (result.usage.calls, result.usage.prompt_tokens) == (1, 100)
    assert result.episode.extraction["completion_tokens"] == 20
    sent = server.requests[0]
    assert sent["model"] == "test-model" and sent["response_format"]["type"] == "json_schema"
    assert sent["max_tokens"] == 800


def test_the_schema_bounds_strings_and_lists_but_a_longer_answer_still_counts(
        server: FakeLLMServer) -> None:
    # a server that constrains decoding to the schema makes a looping small model close its
    # title and lists; a model without a grammar that writes more is not rejected for it
    ex = make(server)
    ep = first_episode(ex, server)
    long_title = {**EPISODE_ANSWER, "title": "A very long title " * 20}
    server.push(chat_json(long_title))
    result = ex.extract(ep, [])
    assert result.episode.extraction["status"] == "done" and len(server.requests) == 1
    assert result.episode.title.startswith("A very long title")
    schema = server.requests[0]["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["title"]["maxLength"] > 0
    assert schema["properties"]["narrative"]["maxLength"] > 0
    assert schema["properties"]["facts"]["maxItems"] > 0


def test_a_slow_answer_times_out_and_is_not_sent_again(server: FakeLLMServer) -> None:
    ex = make(server, llm_timeout=0.5, llm_retries=1)
    ep = first_episode(ex, server)
    server.push(Reply(body=chat_json(EPISODE_ANSWER).body, delay=2.0))
    started = time.perf_counter()
    result = ex.extract(ep, [])
    assert result.episode.extraction["status"] == "failed"
    assert "timed out after 0.5s" in result.episode.extraction["error"]
    assert len(server.requests) == 1 and time.perf_counter() - started < 1.8


def test_always_slow_fails_with_offline_facts(server: FakeLLMServer) -> None:
    ex = make(server, llm_timeout=0.3, llm_retries=1)
    ep = first_episode(ex, server)
    server.responder = lambda request: chat_json(EPISODE_ANSWER, delay=1.0)
    result = ex.extract(ep, [])
    extraction = result.episode.extraction
    assert extraction["status"] == "failed" and "timed out after 0.3s" in extraction["error"]
    assert result.episode.title == ep.title  # the offline episode is kept
    assert result.facts and all(f.extractor == "offline" for f in result.facts)
    assert len(server.requests) == 1  # a local server is still busy with the abandoned answer


def test_a_429_waits_as_long_as_retry_after_says(server: FakeLLMServer) -> None:
    ex = make(server)
    ep = first_episode(ex, server)
    server.push(error(429, "rate limited", {"Retry-After": "1"}))
    result = ex.extract(ep, [])
    assert result.episode.extraction["status"] == "done"
    gap = server.request_times[1] - server.request_times[0]
    assert 0.95 <= gap < 2.5  # the backoff alone would be 0.01 s


def test_5xx_is_retried_then_gives_up(server: FakeLLMServer) -> None:
    ex = make(server, llm_retries=2)
    ep = first_episode(ex, server)
    server.push(error(500, "boom"), error(503, "overloaded"))
    assert ex.extract(ep, []).episode.extraction["status"] == "done"
    assert len(server.requests) == 3
    server.requests.clear()
    server.push(*[error(502, "bad gateway")] * 3)
    result = ex.extract(ep, [])
    assert result.episode.extraction["status"] == "failed" and len(server.requests) == 3
    assert "502 Bad Gateway" in result.episode.extraction["error"]


def test_a_401_is_not_retried_and_never_shows_the_key(server: FakeLLMServer) -> None:
    ex = make(server)
    ep = first_episode(ex, server)
    server.push(error(401, f"Incorrect API key provided: {KEY}"))
    result = ex.extract(ep, [])
    message = result.episode.extraction["error"]
    assert message.startswith(f"LLM openai/test-model at {server.base_url}: 401 Unauthorized")
    assert KEY not in message and "\n" not in message
    assert len(server.requests) == 1


def test_a_refused_response_format_steps_down_to_another(server: FakeLLMServer) -> None:
    ex = make(server)
    ep = first_episode(ex, server)
    server.push(error(400, "'response_format.type' must be 'json_object' or 'text'"),
                error(400, "response_format: unknown field 'schema'"))
    assert ex.extract(ep, []).episode.extraction["status"] == "done"
    assert [r["response_format"] for r in server.requests][2] == {"type": "json_object"}
    assert "JSON schema" in server.requests[2]["messages"][0]["content"]  # in the prompt instead
    assert ex.extract(ep, []).episode.extraction["status"] == "done"  # remembered
    assert server.requests[-1]["response_format"] == {"type": "json_object"}


def test_malformed_json_is_asked_again_once(server: FakeLLMServer) -> None:
    ex = make(server)
    ep = first_episode(ex, server)
    server.push(chat("Here are the facts: Caroline is a counsellor"))
    result = ex.extract(ep, [])
    assert result.episode.extraction["status"] == "done"
    assert result.episode.extraction["calls"] == 2  # both answers were paid for
    retry = server.requests[1]["messages"]
    assert "not valid JSON" in retry[-1]["content"]
    server.requests.clear()
    server.push(chat("{not json"), chat('{"title": 3}'))
    result = ex.extract(ep, [])
    assert result.episode.extraction["status"] == "failed"
    assert "invalid answer twice" in result.episode.extraction["error"]
    assert result.facts and result.usage.calls == 2


def test_a_truncated_answer_is_asked_again(server: FakeLLMServer) -> None:
    ex = make(server)
    ep = first_episode(ex, server)
    cut = json.dumps(EPISODE_ANSWER)[:40]
    server.push(chat(cut, finish_reason="length"))
    result = ex.extract(ep, [])
    assert result.episode.extraction["status"] == "done"
    assert "cut off" in server.requests[1]["messages"][-1]["content"]


def test_segmenter_answer_out_of_order_repeated_and_out_of_range_is_repaired(
        server: FakeLLMServer) -> None:
    ex = make(server)
    conv = conversation()
    # 9 before 4, 4 twice, 42 and 0 name no message, and 1 (always a start) is missing
    server.push(chat_json({"starts": [9, 4, 4, 42, 0]}))
    segments = ex.segment(conv)
    assert [[m.id for m in s] for s in segments] == [
        ["m0", "m1", "m2"], ["m3", "m4", "m5", "m6", "m7"], ["m8", "m9"]]
    assert len(server.requests) == 1
    episodes = [ex.episode("alice", conv, s) for s in segments]
    assert [e.extraction["calls"] for e in episodes] == [1, 0, 0]  # the call is counted once
    assert ex.take_segment_usage().calls == 1 and ex.take_segment_usage().calls == 0


def test_segmentation_asks_for_episode_starts_held_to_the_window(
        server: FakeLLMServer) -> None:
    # SmolLM2, asked for every message of each episode under a grammar, numbered 18 messages
    # "1, 2, ... 101", then wrote the same group again and again, until max_tokens
    ex = make(server)
    conv = conversation()
    server.push(chat_json({"starts": [1]}))
    assert len(ex.segment(conv)) == 1
    sent = server.requests[0]
    starts = sent["response_format"]["json_schema"]["schema"]["properties"]["starts"]
    assert starts["items"]["minimum"] == 1
    assert starts["items"]["maximum"] == len(conv.messages) == 10
    assert 1 <= starts["maxItems"] < len(conv.messages)
    assert sent["max_tokens"] <= 100  # a few numbers, not every message's


def test_segmenter_failure_falls_back_to_offline_boundaries(server: FakeLLMServer) -> None:
    ex = make(server, llm_retries=0)
    conv = conversation()
    server.push(chat("no idea"), chat("still no idea"))
    segments = ex.segment(conv)
    assert segments == ex.offline.segment(conv)
    ep = ex.episode("alice", conv, segments[0])
    assert "invalid answer twice" in ep.extraction["segment_error"]
    assert ep.extraction["calls"] == 2


def test_prediction_correction_supersedes_only_related_facts(server: FakeLLMServer) -> None:
    ex = make(server, prediction_correction=True)
    conv = conversation()
    ep = first_episode(ex, server)
    old = ex.offline.extract(ep, []).facts[0]
    server.push(chat_json({
        "prediction": "Caroline works in Denver.", **EPISODE_ANSWER,
        "facts": [{"content": "Caroline is moving to Boston in June 2023.",
                   "category": "user_profile", "sources": [7, 9], "supersedes": ["F1", "F2"]}],
    }))
    result = ex.extract(ep, [old])
    new = result.facts[0]
    assert result.superseded == {old.id: new.id}
    assert new.source_message_ids == ("m6", "m8")
    assert result.episode.extraction["mode"] == "prediction-correction"
    prompt = server.requests[0]["messages"][1]["content"]
    assert "[F1]" in prompt and old.content[:30] in prompt
    assert conv.id == ep.conversation_id


def test_workers_extract_concurrently_over_http(server: FakeLLMServer) -> None:
    ex = make(server, workers=8)
    ex.client.pace.limit = 8  # as for a hosted API (a local server starts at 1: see test_llm_pace)
    ep = first_episode(ex, server)
    server.responder = lambda request: chat_json(EPISODE_ANSWER, delay=1.0)
    done: list[str] = []
    run_pool([ep] * 8, lambda e: ex.extract(e, []), 8,
             lambda r: done.append(r.episode.extraction["status"]))
    assert done == ["done"] * 8
    # One after the other, each request would wait for the previous 1 s answer; concurrently,
    # most are in flight before the first answer comes back (the HTTP client may hold one back).
    arrivals = server.request_times
    assert len(arrivals) == 8
    assert sum(t - arrivals[0] < 1.0 for t in arrivals) >= 6
    assert ex.usage.calls == 8
