"""Requests in flight, timeouts, the circuit breaker, the format ladder and context fitting."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from fake_llm_server import FakeLLMServer, chat, chat_json, error
from test_llm_server import EPISODE_ANSWER, conversation, first_episode, make

from nemori_cli.models import Episode
from nemori_cli.pipeline.llm_context import probe_server
from nemori_cli.pipeline.llm_formats import is_local, ladder
from nemori_cli.pipeline.llm_pace import Breaker, Pace
from nemori_cli.pipeline.pool import run_pool

LLAMA_CPP_REFUSAL = "Input should be 'text' or 'json_object'"


# --- requests in flight and timeouts --------------------------------------------------------


def test_pace_grows_while_latency_is_flat_and_halves_when_it_doubles() -> None:
    pace = Pace(4, start=1, first_timeout=120.0)
    for _ in range(3):
        pace.succeeded(2.0, 1200, 100, flight=1)  # 2 s for 200 units: 0.01 s a unit
    assert pace.limit == 2
    for _ in range(3):
        pace.succeeded(2.1, 1200, 100, flight=2)  # as fast with two in flight: a batching server
    assert pace.limit == 3
    pace.succeeded(4.0, 1200, 100, flight=3)  # twice as slow: the server queues our requests
    pace.succeeded(4.2, 1200, 100, flight=3)
    assert pace.limit == 1


def test_timeout_is_sized_to_the_answer_and_the_measured_speed() -> None:
    pace = Pace(1, start=1, first_timeout=120.0)
    assert pace.timeout(900, 600) == 120.0  # nothing measured yet
    pace.succeeded(5.0, 1200, 400, flight=1)  # 500 units in 5 s
    assert pace.timeout(1200, 400) == pytest.approx(3 * 5.0 + 10)
    assert pace.timeout(1200, 800) > pace.timeout(1200, 400)


def test_breaker_opens_after_five_failures_in_a_row_or_most_of_the_first_eight() -> None:
    b = Breaker()
    for ok in (False, False, False, True, True, False, True, True):
        b.record(ok, "bad")
    assert not b.open  # 3 of the first 8, never 5 in a row
    for _ in range(5):
        b.record(False, "timed out")
    assert b.open and "5 failed answers in a row" in (b.reason or "")
    mixed = Breaker()
    for ok in (False, True, False, False, True, False, True, False):
        mixed.record(ok, "invalid")
    assert mixed.open and "5 of the first 8" in (mixed.reason or "")


def test_a_one_at_a_time_server_gets_one_request_at_a_time(server: FakeLLMServer) -> None:
    server.serial = True
    server.responder = lambda request: chat_json(EPISODE_ANSWER, delay=0.8)
    ex = make(server, workers=4)
    ep = first_episode(ex, server)
    statuses: list[str] = []
    run_pool([ep] * 9, lambda e: ex.extract(e, []), 4,
             lambda r: statuses.append(r.episode.extraction["status"]))
    assert statuses == ["done"] * 9
    # queued requests make latency double at 2 in flight, so the pace falls back to 1 and
    # probes again less and less often: never the 4 workers at once
    assert server.peak_in_flight <= 2


def test_a_batching_server_gets_more_requests_in_flight(server: FakeLLMServer) -> None:
    server.responder = lambda request: chat_json(EPISODE_ANSWER, delay=0.6)
    ex = make(server, workers=4)
    ep = first_episode(ex, server)
    run_pool([ep] * 16, lambda e: ex.extract(e, []), 4, lambda r: None)
    assert server.peak_in_flight >= 3


def test_a_timed_out_call_is_not_sent_again_to_a_local_server(server: FakeLLMServer) -> None:
    ex = make(server, llm_timeout=0.3, llm_retries=3)
    ep = first_episode(ex, server)
    server.push(chat_json(EPISODE_ANSWER, delay=1.0))
    result = ex.extract(ep, [])
    assert result.episode.extraction["status"] == "failed"
    assert result.episode.fallback_reason == "timeout"
    assert len(server.requests) == 1  # a retry would queue behind the abandoned answer


# --- bounded answers and the format ladder --------------------------------------------------


def test_every_call_is_bounded_by_max_tokens_for_its_kind(server: FakeLLMServer) -> None:
    ex = make(server, llm_max_tokens_episode=321)
    ep = first_episode(ex, server)
    ex.extract(ep, [])
    assert server.requests[-1]["max_tokens"] == 321
    server.push(chat_json({"starts": [1]}))
    ex.segment(conversation())
    assert server.requests[-1]["max_tokens"] == 40 + 3 * 10  # a few starts, not every message


def test_llama_cpp_refusal_steps_to_schema_constrained_json_mode(server: FakeLLMServer) -> None:
    ex = make(server)
    ep = first_episode(ex, server)
    server.push(error(500, LLAMA_CPP_REFUSAL))
    assert ex.extract(ep, []).episode.extraction["status"] == "done"
    first, second = server.requests
    assert first["response_format"]["type"] == "json_schema"
    assert second["response_format"]["type"] == "json_object"
    assert second["response_format"]["schema"]["required"] == ["title", "narrative"]
    assert "JSON schema" not in json.dumps(second["messages"])  # decoding holds it, not the prompt
    ex.extract(ep, [])
    assert server.requests[-1]["response_format"] == second["response_format"]  # remembered
    assert len(server.requests) == 3  # the refusal was not retried as a server error


def test_the_ladder_starts_where_the_provider_can_constrain_decoding() -> None:
    local = "http://127.0.0.1:8766/v1"
    assert ladder("openai/smol", local) == ["schema", "grammar", "json", "none"]
    assert ladder("hosted_vllm/qwen", "http://gpu-box:8000/v1")[0] == "schema"
    assert ladder("ollama/llama3.2", None)[0] == "schema"
    assert ladder("gpt-4o-mini", None)[0] == "schema"
    assert ladder("openai/some-unknown-model", None)[0] == "json"
    assert is_local(local) and is_local("http://192.168.1.20:11434") and not is_local(
        "https://api.openai.com/v1")


# --- the circuit breaker, end to end --------------------------------------------------------


def test_a_failing_model_is_no_longer_called_and_the_rest_is_made_offline(
    server: FakeLLMServer,
) -> None:
    server.responder = lambda request: chat("I am a small model and I like trains.")
    ex = make(server)
    ep = first_episode(ex, server)
    results = [ex.extract(ep, []) for _ in range(8)]
    assert len(server.requests) == 10  # 5 answers asked twice; then no call at all
    assert [r.episode.fallback_reason for r in results] == ["invalid"] * 5 + ["stopped"] * 3
    assert all(r.facts and r.facts[0].extractor == "offline" for r in results)
    assert ex.stopped and "5 failed answers in a row" in ex.stopped


# --- the model's context --------------------------------------------------------------------


def test_context_size_comes_from_the_server_and_prompts_fit_it(server: FakeLLMServer) -> None:
    server.pages["/v1/models"] = {"data": [{"id": "smol", "max_model_len": 2048}]}
    assert probe_server(server.base_url) == 2048
    ex = make(server, llm_max_tokens_episode=400)
    assert ex.client.context == 2048
    conv = conversation()
    long = replace(conv.messages[0], id="x", content="word " * 3000)
    ep = first_episode(ex, server)
    ep = replace(ep, messages=(long, *ep.messages), message_ids=("x", *ep.message_ids))
    ex.extract(ep, [])
    prompt = "".join(m["content"] for m in server.requests[-1]["messages"])
    assert len(prompt) // 3 + 400 <= 2048  # the prompt and the longest answer fit
    sent = len(server.requests)
    server.push(chat_json({"starts": [1]}))
    ex.segment(conv)
    # 10 messages do not fit beside a 512-token answer in 2,048 tokens: windows of 4
    assert "Split these 4 messages" in server.requests[sent]["messages"][-1]["content"]


def test_props_of_llama_cpp_give_the_context(server: FakeLLMServer) -> None:
    server.pages["/props"] = {"default_generation_settings": {"n_ctx": 4096}}
    assert probe_server(server.base_url) == 4096


def test_old_failed_records_still_say_they_fell_back() -> None:
    old = {"id": "e1", "user_id": "me", "conversation_id": "c", "title": "t", "content": "n",
           "message_ids": [], "messages": [],
           "extraction": {"extractor": "llm:openai/x", "status": "failed", "error": "boom"}}
    ep = Episode.from_dict(old)
    assert ep.made_by == "offline fallback" and ep.fallback_reason == "error"
    assert Episode.from_dict({**old, "extraction": {}}).made_by == "offline"


@pytest.fixture
def server() -> Any:
    with FakeLLMServer(lambda request: chat_json(EPISODE_ANSWER)) as srv:
        yield srv

