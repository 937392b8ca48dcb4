"""docs/python-api.md cannot drift: its code blocks run, in order, against a fresh store."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fake_llm_server import FakeLLMServer, Reply, chat_json

import nemori_cli

PAGE = Path(__file__).resolve().parent.parent / "docs" / "python-api.md"


def code_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def answer(request: dict[str, Any]) -> Reply:
    """An LLM that makes one episode of each window and states one fact about it."""
    system = request["messages"][0]["content"]
    if "split a chat into episodes" in system:
        return chat_json({"starts": [1]})
    return chat_json(
        {
            "title": "Moving to Lisbon",
            "narrative": "In June 2025 the user told how they moved to Lisbon.",
            "timestamp": None,
            "facts": [{"content": "The user lives in Lisbon.", "category": "user_profile",
                       "sources": [1]}],
        }
    )


def test_every_code_block_of_the_python_api_page_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocks = code_blocks(PAGE.read_text(encoding="utf-8"))
    assert len(blocks) >= 6
    namespace: dict[str, Any] = {"__name__": "python_api_page"}
    with FakeLLMServer(answer) as server:
        monkeypatch.setenv("NEMORI_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("NEMORI_LLM_API_KEY", "sk-test")
        for n, block in enumerate(blocks, start=1):
            try:
                exec(compile(block, f"{PAGE.name} block {n}", "exec"), namespace)
            except Exception as exc:  # name the block that broke
                raise AssertionError(f"block {n} of {PAGE.name} failed: {exc!r}") from exc
    assert namespace["summary"].usage.calls >= 1  # the backfill went through the LLM
    out = capsys.readouterr().out
    assert "cello" in out and "no episode" in out


def test_the_api_names_are_importable_from_the_package() -> None:
    for name in nemori_cli.__all__:
        assert getattr(nemori_cli, name) is not None
    with pytest.raises(AttributeError):
        nemori_cli.NoSuchThing  # noqa: B018
