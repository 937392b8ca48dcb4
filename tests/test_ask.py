"""`nemori ask`: answers from memory with checked citations, over real HTTP to a fake model."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_runner import cli, ingest_sample_chats
from fake_llm_server import FakeLLMServer, Reply, chat_json, error

from nemori_cli.answer.ask import ANSWER_MAX_TOKENS, NO_ANSWER, NO_MEMORIES
from nemori_cli.pipeline.prompts.answer import AnswerModel

QUESTION = "When did I move to Lisbon?"
CONTRACT = {"question", "answer", "answerable", "citations", "invalid_citations", "hits",
            "model", "usage"}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """sample_chats/ ingested offline once; the tests only read it (and log ask spend)."""
    data = tmp_path_factory.mktemp("ask") / "data"
    ingest_sample_chats(data)
    return data


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as srv:
        yield srv


def answering(answer: dict[str, Any]) -> Any:
    """A responder that always gives this answer."""
    return lambda request: chat_json(answer, prompt_tokens=900, completion_tokens=30)


def ask(store: Path, server: FakeLLMServer | None, *args: str,
        stdin: str | None = None) -> tuple[int, str, str]:
    llm = ["--llm", "openai/test-model", "--llm-base-url", server.base_url] if server else []
    return cli("--data-dir", str(store), *llm, "ask", *args, stdin=stdin)


def shown_memories(request: dict[str, Any]) -> list[str]:
    """The `[n] kind, date` headers of the memories in the prompt the model received."""
    prompt = request["messages"][-1]["content"]
    return re.findall(r"^\[(\d+)\] (episode|fact), (\d{4}-\d\d-\d\d)", prompt, re.MULTILINE)


def test_answer_cites_the_memories_shown_with_the_json_contract(
    store: Path, server: FakeLLMServer
) -> None:
    server.responder = answering({"answerable": True, "citations": [2],
                                  "answer": "You moved to Lisbon in January 2026 [1]."})
    code, out, err = ask(store, server, QUESTION, "--json")
    assert code == 0, err
    result = json.loads(out)
    assert set(result) == CONTRACT
    assert result["answerable"] is True and result["answer"].startswith("You moved to Lisbon")
    hits = result["hits"]
    assert len(hits) >= 2 and result["invalid_citations"] == []
    # [1] in the text and 2 in the list: both cited, each naming the hit shown with that number
    assert [c["n"] for c in result["citations"]] == [1, 2]
    for c in result["citations"]:
        hit = hits[c["n"] - 1]
        assert (c["kind"], c["id"], c["message_ids"]) == (hit["kind"], hit["id"],
                                                          hit["message_ids"])
    assert result["usage"] == {"calls": 1, "prompt_tokens": 900, "completion_tokens": 30,
                               "cost": 0.0}
    (request,) = server.requests
    assert request["max_tokens"] == ANSWER_MAX_TOKENS
    headers = shown_memories(request)
    assert [int(n) for n, _, _ in headers] == list(range(1, len(hits) + 1))
    # each memory is shown with its own date, the one its hit carries
    assert [(k, d) for _, k, d in headers] == [(h["kind"], h["timestamp"][:10]) for h in hits]
    assert QUESTION in request["messages"][-1]["content"]
    assert "Lisbon" in " ".join(h["content"] for h in hits)


def test_text_output_gives_the_answer_then_the_cited_memories(
    store: Path, server: FakeLLMServer
) -> None:
    server.responder = answering({"answerable": True, "citations": [1],
                                  "answer": "In January 2026 [1]."})
    code, out, err = ask(store, server, QUESTION)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "In January 2026 [1]."
    first = json.loads(ask(store, None, QUESTION, "--json")[1])["hits"][0]
    row = next(line for line in lines if first["id"] in line)
    assert "[1]" in row and first["kind"] in row and first["timestamp"][:10] in row
    assert "Cited memories" in out and "\x1b[" not in out  # piped: no colour


def test_a_citation_to_a_memory_not_shown_is_flagged(store: Path, server: FakeLLMServer) -> None:
    server.responder = answering({"answerable": True, "citations": [1, 99],
                                  "answer": "In January 2026 [1][99]."})
    code, out, err = ask(store, server, QUESTION, "--json")
    assert code == 0, err
    result = json.loads(out)
    assert [c["n"] for c in result["citations"]] == [1]
    assert result["invalid_citations"] == [99]
    code, out, err = ask(store, server, QUESTION)
    assert code == 0 and "[99]" in err and "do not trust" in err


def test_when_memory_does_not_hold_the_answer_it_says_so(
    store: Path, server: FakeLLMServer
) -> None:
    # a model that says "not answerable" but still lists numbers: nothing is cited
    server.responder = answering({"answerable": False, "citations": [1], "answer": ""})
    code, out, err = ask(store, server, "What is my dog's name?", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["answerable"] is False and result["answer"] == NO_ANSWER
    assert result["citations"] == [] and result["hits"]
    system = server.requests[0]["messages"][0]["content"]
    assert "do not guess" in system and "`answerable` to false" in system
    schema = AnswerModel.model_json_schema()
    assert "answerable" in schema["required"]
    code, out, _ = ask(store, server, "What is my dog's name?")
    assert out.strip() == NO_ANSWER


def test_nothing_matching_answers_without_calling_the_model(
    store: Path, server: FakeLLMServer
) -> None:
    code, out, err = ask(store, server, QUESTION, "--since", "2100-01-01", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["answer"] == NO_MEMORIES and result["answerable"] is False
    assert result["hits"] == [] and server.requests == []


def test_filters_and_budget_bound_the_memories_shown(store: Path, server: FakeLLMServer) -> None:
    server.responder = answering({"answerable": True, "citations": [1], "answer": "Yes [1]."})
    code, out, _ = ask(store, server, QUESTION, "--kind", "fact", "--json")
    hits = json.loads(out)["hits"]
    assert code == 0 and hits and {h["kind"] for h in hits} == {"fact"}
    code, out, _ = ask(store, server, QUESTION, "--budget", "60", "--json")
    hits = json.loads(out)["hits"]
    words = sum(len(((h.get("title") or "") + "\n" + h["content"]).split()) for h in hits)
    assert code == 0 and hits and words <= 60
    code, out, _ = ask(store, server, QUESTION, "--json")
    assert len(json.loads(out)["hits"]) > len(hits)


def test_offline_prints_the_best_evidence_and_how_to_configure_a_model(store: Path) -> None:
    code, out, err = ask(store, None, QUESTION)
    assert code == 0
    assert "Best evidence" in out and "Lisbon" in out
    assert "NEMORI_LLM_MODEL" in err and len(err.strip().splitlines()) == 1
    code, out, _ = ask(store, None, QUESTION, "--json")
    result = json.loads(out)
    assert code == 0 and result["answer"] is None and result["answerable"] is None
    assert result["hits"] and result["citations"] == [] and result["usage"]["calls"] == 0


def test_a_failing_model_is_one_line_and_exit_1(store: Path, server: FakeLLMServer) -> None:
    server.responder = lambda request: error(401, "Incorrect API key provided")
    code, out, err = ask(store, server, QUESTION)
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and "401" in err and "Traceback" not in err


def test_an_answer_that_never_fits_the_schema_fails_after_one_retry(
    store: Path, server: FakeLLMServer
) -> None:
    server.responder = lambda request: Reply(body=json.dumps({
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": "Lisbon, I think."}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }).encode())
    code, _, err = ask(store, server, QUESTION)
    assert code == 1 and "invalid answer" in err and len(server.requests) == 2


def test_stdin_answers_one_question_a_line(store: Path, server: FakeLLMServer) -> None:
    server.responder = answering({"answerable": True, "citations": [1], "answer": "Yes [1]."})
    code, out, err = ask(store, server, "--stdin", "--jsonl",
                         stdin=f"{QUESTION}\n\nWhat food do I avoid?\n")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["question"] for r in rows] == [QUESTION, "What food do I avoid?"]
    assert all(set(r) == CONTRACT and r["citations"] for r in rows)
    code, _, err = ask(store, None, "--stdin", QUESTION)
    assert code == 2 and "not both" in err


def test_stats_counts_what_answers_cost(store: Path, server: FakeLLMServer) -> None:
    def spent() -> dict[str, Any]:
        code, out, _ = cli("--data-dir", str(store), "stats", "--json")
        assert code == 0
        return json.loads(out)["ask_usage"]

    before = spent()
    server.responder = answering({"answerable": True, "citations": [1], "answer": "Yes [1]."})
    assert ask(store, server, QUESTION)[0] == 0
    server.responder = lambda request: error(401, "no")
    assert ask(store, server, QUESTION)[0] == 1  # a failed call that cost nothing: not counted
    after = spent()
    assert after["questions"] == before["questions"] + 1
    assert after["prompt_tokens"] == before["prompt_tokens"] + 900
    assert after["completion_tokens"] == before["completion_tokens"] + 30
    log = (store / "users" / "me" / "usage.jsonl").read_text()
    assert "Lisbon" not in log  # counts only, never the question


def test_memory_ask_and_the_mcp_tool_give_the_same_answer(
    store: Path, server: FakeLLMServer
) -> None:
    from nemori_cli.mcp_server import MemoryTools
    from nemori_cli.memory import Memory

    server.responder = answering({"answerable": True, "citations": [1], "answer": "Jan [1]."})
    memory = Memory.open(data_dir=store, llm_model="openai/test-model",
                         llm_base_url=server.base_url)
    result = memory.ask(QUESTION, budget=500)
    assert result.answer == "Jan [1]." and result.citations[0].hit == result.hits[0]
    via_mcp = MemoryTools(memory).ask_memory(QUESTION, budget=500)
    assert via_mcp == result.to_dict() | {"usage": via_mcp["usage"]}
    with pytest.raises(Exception, match="empty"):
        memory.ask("   ")


def test_citations_are_read_from_the_text_and_the_list_in_order() -> None:
    from nemori_cli.answer.ask import cited_numbers

    reply = AnswerModel.model_validate({
        "answerable": True, "answer": "A [2], then B [1, 3]; C [4;5] in 2023 [sic].",
        "citations": ["[2]", "6", "x", 7],
    })
    assert cited_numbers(reply) == [2, 1, 3, 4, 5, 6, 7]
