"""A run with a model that cannot do the job says so: summary, episodes list, stats, facts."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from cli_runner import SAMPLE_CHATS, cli
from fake_llm_server import FakeLLMServer, chat


def test_a_useless_model_is_stopped_and_every_listing_says_what_fell_back(
    data_dir: Path,
) -> None:
    with FakeLLMServer(lambda request: chat("Sure! Here is a poem about the sea.")) as server:
        llm = ("--llm", "openai/tiny", "--llm-base-url", server.base_url)
        code, out, err = cli(*llm, "ingest", str(SAMPLE_CHATS), "--json")
        assert code == 0, err
        summary = json.loads(out)
        # 5 invalid answers (each asked twice), then the model is not called any more
        assert len(server.requests) == 10 and summary["llm_calls"] == 10
        assert summary["llm_stopped"].startswith("5 failed answers in a row")
        assert "backfill --redo" in err and "Traceback" not in err
        assert summary["llm_episodes"] == 0
        assert summary["fallback_episodes"] == summary["episodes"]
        reasons = summary["fallback_reasons"]
        assert sum(reasons.values()) == summary["episodes"] and reasons.get("stopped", 0) > 0

        code, out, _ = cli(*llm, "episodes", "list")
        assert code == 0 and "made by" in out
        assert out.count("offline (") == summary["episodes"]
        code, out, _ = cli(*llm, "episodes", "list", "--json")
        kinds = Counter(e["extraction"]["fallback"] for e in json.loads(out))
        assert kinds == Counter(reasons)

        code, out, _ = cli(*llm, "stats", "--json")
        stats = json.loads(out)
        made = stats["episodes_made_by"]
        assert sum(made.values()) == summary["episodes"] and "llm" not in made
        assert stats["facts_by_extractor"] == {"offline": stats["facts"]}

        code, out, err = cli(*llm, "ingest", str(SAMPLE_CHATS))
        assert code == 0 and "Traceback" not in err  # nothing new: nothing to report


def test_the_summary_table_names_llm_and_fallback_episodes(data_dir: Path) -> None:
    answers = iter(["not json", "still not json"])

    def answer(request: dict[str, object]) -> object:
        from fake_llm_server import chat_json

        text = next(answers, None)
        if text is not None:
            return chat(text)
        messages = json.dumps(request.get("messages"))
        if "Split these" in messages:
            return chat_json({"starts": [1]})
        return chat_json({"title": "A title", "narrative": "A narrative.", "facts": []})

    with FakeLLMServer(answer) as server:
        code, out, err = cli("--llm", "openai/tiny", "--llm-base-url", server.base_url,
                             "ingest", str(SAMPLE_CHATS / "alps-hiking-trip.json"))
    assert code == 0, err
    assert "episodes made by the LLM" in out and "episodes made offline after the LLM" in out
    assert "episodes cut offline (segmentation failed)" in out


def test_backfill_without_an_api_key_says_why_once_and_keeps_the_offline_fact(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # never a real provider
    code, _, err = cli("remember", "I bought a green kayak.")
    assert code == 0, err
    llm = ("--llm", "openai/gpt-4o-mini")
    code, out, err = cli(*llm, "backfill", "--redo")
    assert code == 0 and "Traceback" not in err
    assert "1 episode made offline after the LLM failed (1 error)" in out
    (reason,) = [line for line in err.splitlines() if "Missing credentials" in line]
    assert reason.startswith("LLM failed: openai/gpt-4o-mini: Missing credentials")
    assert "OPENAI_API_KEY" in reason and "500" not in reason
    code, out, _ = cli(*llm, "episodes", "list")
    row = next(line for line in out.splitlines() if "green kayak" in line)
    assert row.split()[-1] == "1" and "offline (error)" in row  # its offline fact is kept
    code, out, _ = cli(*llm, "backfill", "--redo", "--json")
    assert json.loads(out)["llm_error"].startswith("LLM openai/gpt-4o-mini: Missing credentials")
