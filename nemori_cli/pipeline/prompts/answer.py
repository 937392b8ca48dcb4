"""Answering from memory: numbered, dated memories in; an answer with citations out."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, Field, field_validator

from nemori_cli.models import SearchHit
from nemori_cli.pipeline.prompts import ChatMessage, defang, load

MAX_MEMORY_CHARS = 4000  # one memory's text; the word budget bounds the whole


class AnswerModel(BaseModel):
    """The answer the model must give: whether memory holds it, the answer, what it cites."""

    answerable: bool = Field(description="true only if the memories contain the answer")
    answer: str = Field(description="one or two sentences, citing memories as [1], [2]")
    citations: list[int] = Field(
        default_factory=list, description="numbers of the memories the answer uses"
    )

    @field_validator("citations", mode="before")
    @classmethod
    def _numbers(cls, value: object) -> list[int]:
        items = value if isinstance(value, list) else [value] if value not in (None, "") else []
        out = []
        for item in items:
            text = str(item).strip().strip("[]").strip()
            if text.isdigit():
                out.append(int(text))
        return out


def memory_header(number: int, hit: SearchHit) -> str:
    """The line naming a memory: `[n] kind, date (weekday) time`."""
    when = f"{hit.timestamp:%Y-%m-%d (%A) %H:%M}" if hit.timestamp else "date unknown"
    return f"[{number}] {hit.kind}, {when}"


def memories_block(hits: Sequence[SearchHit]) -> str:
    """Number the hits from 1, each with its own date, inside <memories> tags."""
    parts = []
    for n, hit in enumerate(hits, 1):
        text = hit.content if len(hit.content) <= MAX_MEMORY_CHARS else (
            hit.content[: MAX_MEMORY_CHARS - 3] + "..."
        )
        title = f"{hit.title}\n" if hit.title else ""
        parts.append(defang(f"{memory_header(n, hit)}\n{title}{text}"))
    return "<memories>\n" + "\n\n".join(parts) + "\n</memories>"


def answer_messages(question: str, hits: Sequence[SearchHit], today: datetime) -> list[ChatMessage]:
    """Build the prompt that asks for an answer to question from these numbered hits."""
    user = (
        f"{memories_block(hits)}\n\nToday is {today:%Y-%m-%d (%A)}.\n"
        f"Question: {defang(' '.join(question.split()))}"
    )
    return [
        {"role": "system", "content": load("answer")},
        {"role": "user", "content": user},
    ]
