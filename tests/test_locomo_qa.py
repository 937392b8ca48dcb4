"""bench/locomo_qa.py end to end on a tiny LoCoMo-shaped fixture, with a scripted judge."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from fake_llm_server import FakeLLMServer, Reply, chat_json

BENCH = Path(__file__).resolve().parent.parent / "bench"
TURNS = [
    ("Caroline", "I went to an LGBTQ support group yesterday and it was powerful."),
    ("Melanie", "That sounds amazing. I painted a sunrise last week."),
    ("Caroline", "I work as a counsellor. I am moving to Boston next month."),
    ("Melanie", "Boston! Good luck with the move."),
]
QA = [  # (category, question, gold)
    (2, "When did Caroline go to the LGBTQ support group?", "7 May 2023"),
    (4, "Where is Caroline moving?", "Boston"),
    (1, "What does Caroline do for work, and where will she live?", "Counsellor in Boston"),
    (3, "Would Caroline enjoy painting with Melanie?", "Likely yes"),
    (5, "What did Melanie paint in Boston?", "Not mentioned"),  # category 5: left out
]


def fixture(path: Path) -> Path:
    session = [{"speaker": s, "dia_id": f"D1:{i}", "text": t}
               for i, (s, t) in enumerate(TURNS, 1)]
    sample = {
        "sample_id": "conv-test",
        "conversation": {"speaker_a": "Caroline", "speaker_b": "Melanie",
                         "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": session},
        "qa": [{"question": q, "answer": a, "evidence": ["D1:1"], "category": c}
               for c, q, a in QA],
    }
    path.write_text(json.dumps([sample]))
    return path


def respond(request: dict[str, Any]) -> Reply:
    """The answer model answers two questions right; the judge: CORRECT if the gold is in it."""
    from locomo_judge import JUDGE_SYSTEM

    system, prompt = request["messages"][0]["content"], request["messages"][-1]["content"]
    if system.startswith(JUDGE_SYSTEM):
        gold = re.search(r"^Gold answer: (.*)$", prompt, re.MULTILINE).group(1)  # type: ignore[union-attr]
        generated = re.search(r"^Generated answer: (.*)$", prompt, re.MULTILINE).group(1)  # type: ignore[union-attr]
        label = "CORRECT" if gold.lower() in generated.lower() else "WRONG"
        return chat_json({"reasoning": f"judged {generated!r}", "label": label},
                         prompt_tokens=50, completion_tokens=10)
    question = prompt.rsplit("Question: ", 1)[1]
    if "support group" in question:
        answer = {"answerable": True, "answer": "On 7 May 2023 [1].", "citations": [1]}
    elif "moving" in question:
        answer = {"answerable": True, "answer": "To Boston [1].", "citations": [1]}
    else:
        answer = {"answerable": False, "answer": "The memories do not say.", "citations": []}
    return chat_json(answer, prompt_tokens=300, completion_tokens=20)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    sys.path.insert(0, str(BENCH))
    import locomo_qa

    tmp = tmp_path_factory.mktemp("qa")
    with FakeLLMServer(respond) as server:
        out = locomo_qa.main([
            "--data", str(fixture(tmp / "locomo.json")), "--answer-model", "openai/test-model",
            "--base-url", server.base_url, "--cache-dir", str(tmp / "cache"),
            "--out", str(tmp / "qa.json"), "--no-write",
        ])
        out["judged"] = [r for r in server.requests
                         if r["messages"][0]["content"].startswith("You grade")]
    out["file"] = json.loads((tmp / "qa.json").read_text())
    return out


def test_accuracy_per_category_and_overall_for_both_systems(results: dict[str, Any]) -> None:
    assert results["settings"]["questions"] == 4  # category 5 is not asked
    for system in ("nemori", "raw_hybrid"):
        acc = results["summary"][system]["accuracy"]
        assert acc["temporal"] == {"n": 1, "correct": 1, "accuracy": 1.0}
        assert acc["single-hop"]["accuracy"] == 1.0
        assert acc["multi-hop"]["accuracy"] == 0.0 and acc["open-domain"]["accuracy"] == 0.0
        assert acc["overall"] == {"n": 4, "correct": 2, "accuracy": 0.5}
        assert results["summary"][system]["not_answerable"] == 2


def test_tokens_are_summed_and_the_judge_reads_answers_without_citations(
    results: dict[str, Any]
) -> None:
    s = results["summary"]["nemori"]
    assert s["answer_usage"]["calls"] == 4 and s["answer_usage"]["prompt_tokens"] == 1200
    assert s["judge_usage"]["calls"] == 4 and s["judge_usage"]["completion_tokens"] == 40
    assert len(results["judged"]) == 8
    prompts = [r["messages"][-1]["content"] for r in results["judged"]]
    assert any("Generated answer: To Boston." in p for p in prompts)
    assert not any(re.search(r"Generated answer: .*\[\d\]", p) for p in prompts)


def test_both_systems_answer_from_evidence_and_results_are_written(
    results: dict[str, Any]
) -> None:
    rows = results["file"]["rows"]
    assert len(rows) == 8 and all(r["shown"] >= 1 and "error" not in r for r in rows)
    assert results["file"]["summary"] == results["summary"]
    from locomo_qa_report import table

    text = table(results)
    assert "| nemori | 0.000 (1) |" in text and "1.000 (1)" in text
