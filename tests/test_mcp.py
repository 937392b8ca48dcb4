"""`nemori mcp` driven by the MCP SDK's own stdio client, and its stdout kept for the protocol."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from store_check import child_environ

HIT_KEYS = {"kind", "id", "score", "content", "timestamp", "conversation_id", "message_ids",
            "episode_ids"}
CHAT = {
    "title": "Weekend in the mountains",
    "messages": [
        {"id": "m1", "role": "user", "timestamp": "2025-06-01T09:00:00Z",
         "content": "I go hiking in the Alps every September with my sister."},
        {"id": "m2", "role": "assistant", "timestamp": "2025-06-01T09:00:20Z",
         "content": "That sounds lovely. Which trail are you doing this year?"},
        {"id": "m3", "role": "user", "timestamp": "2025-06-01T09:01:00Z",
         "content": "The Haute Route from Chamonix to Zermatt. I love long hikes."},
    ],
}


def _server_env(folder: Path) -> dict[str, str]:
    """The environment without the caller's NEMORI_* settings or config file."""
    env = child_environ()
    env["NEMORI_CONFIG"] = str(folder / "no-config.toml")
    return env


def _params(data: Path, *extra: str) -> Any:
    from mcp import StdioServerParameters

    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "nemori_cli.cli.app", "--data-dir", str(data), *extra, "mcp"],
        env=_server_env(data.parent),
    )


def _json(result: Any) -> Any:
    """The JSON document in a tool result's single text block."""
    assert not result.is_error, result.content
    assert len(result.content) == 1 and result.content[0].type == "text"
    return json.loads(result.content[0].text)


async def _scenario(data: Path) -> dict[str, Any]:
    from mcp import ClientSession, stdio_client

    seen: dict[str, Any] = {}
    params = _params(data, "--user", "alice")
    with anyio.fail_after(240):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            seen["tools"] = {t.name: t for t in (await session.list_tools()).tools}
            call = session.call_tool
            seen["added"] = _json(await call("add_conversation", {
                "messages": CHAT["messages"], "title": CHAT["title"]}))
            seen["again"] = _json(await call("add_conversation", {"text": json.dumps(CHAT)}))
            seen["note"] = _json(await call("add_note", {
                "text": "I am allergic to peanuts."}))
            seen["hits"] = _json(await call("search_memory", {"query": "hiking", "k": 5}))
            seen["fact_hits"] = _json(await call("search_memory", {
                "query": "hiking", "kind": "fact"}))
            seen["future"] = _json(await call("search_memory", {
                "query": "hiking", "since": "2100-01-01"}))
            seen["asked"] = _json(await call("ask_memory", {"question": "Where do I hike?"}))
            seen["empty_question"] = await call("ask_memory", {"question": " "})
            seen["facts"] = _json(await call("list_facts", {"limit": 50}))
            episode_id = next(h["id"] for h in seen["hits"] if h["kind"] == "episode")
            seen["episode"] = _json(await call("show_episode", {"id": episode_id}))
            seen["missing"] = await call("show_episode", {"id": "ep_nope"})
            seen["bad_date"] = await call("search_memory", {"query": "x", "since": "soon"})
            seen["empty"] = await call("add_conversation", {})
            peanuts = seen["note"]["fact_ids"][0]
            seen["corrected"] = _json(await call("correct_fact", {
                "id": peanuts, "content": "The user is allergic to peanuts and cashews."}))
            seen["after_correction"] = _json(await call("list_facts", {"limit": 50}))
            seen["no_such_fact"] = await call("correct_fact", {"id": "fact_nope", "content": "x"})
    return seen


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    data = tmp_path_factory.mktemp("mcp") / "data"
    seen = anyio.run(_scenario, data)
    seen["data"] = data
    return seen


def test_lists_the_seven_tools_with_their_arguments(scenario: dict[str, Any]) -> None:
    from nemori_cli.models import CATEGORIES

    tools = scenario["tools"]
    assert set(tools) == {"search_memory", "ask_memory", "list_facts", "show_episode",
                          "add_conversation", "add_note", "correct_fact"}
    assert set(tools["ask_memory"].input_schema["properties"]) == {
        "question", "budget", "kind", "since", "until"}
    assert set(tools["search_memory"].input_schema["properties"]) == {
        "query", "k", "kind", "since", "until"}
    category = tools["list_facts"].input_schema["properties"]["category"]
    assert set(category["anyOf"][0]["enum"]) == set(CATEGORIES)
    assert tools["search_memory"].annotations.read_only_hint
    assert not tools["add_note"].annotations.read_only_hint


def test_add_conversation_ingests_once(scenario: dict[str, Any]) -> None:
    added, again = scenario["added"], scenario["again"]
    assert added["conversations"] == 1 and added["messages"] == 3 and added["episodes"] >= 1
    assert again["episodes"] == 0 and again["messages"] == 0  # the same ids: nothing new


def test_add_note_stores_a_user_message(scenario: dict[str, Any]) -> None:
    from nemori_cli.memory import Memory

    assert scenario["note"]["messages"] == 1 and scenario["note"]["episodes"] == 1
    episodes = Memory.open(data_dir=scenario["data"]).episodes(user="alice")
    notes = [m for e in episodes for m in e.messages if "peanuts" in m.content]
    assert len(notes) == 1 and notes[0].role == "user" and notes[0].timestamp is not None
    assert scenario["note"]["facts"] >= 1
    episode = next(e for e in episodes if any("peanuts" in m.content for m in e.messages))
    facts = Memory.open(data_dir=scenario["data"]).facts(user="alice")
    assert any("peanuts" in f.content and f.source_episode_ids == (episode.id,) for f in facts)
    from_note = {f.id for f in facts if episode.id in f.source_episode_ids}
    assert from_note - {scenario["corrected"]["id"]} == set(scenario["note"]["fact_ids"])


def test_correct_fact_replaces_the_wording_and_keeps_the_old_fact_as_history(
    scenario: dict[str, Any],
) -> None:
    from nemori_cli.memory import Memory

    corrected, old_id = scenario["corrected"], scenario["note"]["fact_ids"][0]
    assert corrected["content"] == "The user is allergic to peanuts and cashews."
    assert corrected["id"] != old_id and corrected["extractor"] == "user"
    current = {f["id"] for f in scenario["after_correction"]}
    assert corrected["id"] in current and old_id not in current
    old = Memory.open(data_dir=scenario["data"]).fact(old_id, user="alice")
    assert old.superseded_by == corrected["id"]
    assert tuple(corrected["source_message_ids"]) == old.source_message_ids
    missing = scenario["no_such_fact"]
    assert missing.is_error and "fact_nope" in missing.content[0].text


def test_search_results_follow_the_search_contract(scenario: dict[str, Any]) -> None:
    hits = scenario["hits"]
    assert 1 <= len(hits) <= 5
    assert {h["kind"] for h in hits} == {"episode", "fact"}
    for h in hits:
        assert set(h) >= HIT_KEYS and h["message_ids"]
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    assert scenario["fact_hits"] and {h["kind"] for h in scenario["fact_hits"]} == {"fact"}
    assert scenario["future"] == []


def test_ask_memory_without_a_model_returns_the_evidence(scenario: dict[str, Any]) -> None:
    asked = scenario["asked"]
    assert asked["answer"] is None and asked["citations"] == [] and asked["model"] is None
    assert asked["hits"] and set(asked["hits"][0]) >= HIT_KEYS
    assert any("Alps" in h["content"] or "hik" in h["content"] for h in asked["hits"])


def test_list_facts_and_show_episode_return_records(scenario: dict[str, Any]) -> None:
    facts = scenario["facts"]
    assert facts and all(f["user_id"] == "alice" and f["source_message_ids"] for f in facts)
    episode = scenario["episode"]
    assert episode["user_id"] == "alice" and episode["title"]
    assert [m["id"] for m in episode["messages"]] == episode["message_ids"]


def test_errors_reach_the_model_as_one_line_messages(scenario: dict[str, Any]) -> None:
    for key, words in (("missing", "ep_nope"), ("bad_date", "not a date"),
                       ("empty", "either messages or text"),
                       ("empty_question", "question is empty")):
        result = scenario[key]
        assert result.is_error, key
        text = result.content[0].text
        assert words in text and "Traceback" not in text and "\n" not in text.strip()


def test_the_server_writes_only_protocol_messages_to_stdout(tmp_path: Path) -> None:
    from mcp_types.version import LATEST_HANDSHAKE_VERSION

    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": LATEST_HANDSHAKE_VERSION, "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "add_note", "arguments": {"text": "I moved to Lisbon in May."}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "search_memory", "arguments": {"query": "Lisbon"}}},
    ]
    errlog = (tmp_path / "stderr.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "nemori_cli.cli.app", "--data-dir", str(tmp_path / "d"), "mcp"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errlog, env=_server_env(tmp_path),
    )
    assert proc.stdin is not None and proc.stdout is not None
    watchdog = threading.Timer(240, proc.kill)  # a hung server fails the test, not CI
    watchdog.start()
    answers: dict[int, Any] = {}
    lines: list[bytes] = []
    for request in requests:  # one at a time: the server answers before the next request
        proc.stdin.write(json.dumps(request).encode() + b"\n")
        proc.stdin.flush()
        while "id" in request and request["id"] not in answers:
            line = proc.stdout.readline()
            assert line, (tmp_path / "stderr.log").read_text(errors="replace")[-2000:]
            lines.append(line)
            message = json.loads(line)  # anything else on stdout fails here
            if "id" in message:
                answers[message["id"]] = message
    rest, _ = proc.communicate(timeout=60)  # closes stdin: the server ends
    watchdog.cancel()
    errlog.close()
    assert rest == b""
    assert all(json.loads(x)["jsonrpc"] == "2.0" for x in lines)
    hits = json.loads(answers[3]["result"]["content"][0]["text"])
    assert any("Lisbon" in h["content"] for h in hits)
