"""Prediction-correction: predict the episode from known facts, keep only what was missed."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field, field_validator

from nemori_cli.models import Episode, Fact
from nemori_cli.pipeline.prompts import ChatMessage, defang, system_prompt
from nemori_cli.pipeline.prompts.episode import (
    FACTS,
    MAX_CHARS,
    NARRATIVE,
    TITLE,
    FactItem,
    episode_input,
)

MAX_FACT_CHARS = 400


class CorrectionFact(FactItem):
    """A new or corrected fact, with the known facts it contradicts."""

    supersedes: list[str] = Field(
        default_factory=list, description="references (like F3) of known facts it contradicts",
        json_schema_extra={"maxItems": 10},
    )

    @field_validator("supersedes", mode="before")
    @classmethod
    def _refs(cls, value: object) -> list[str]:
        items = value if isinstance(value, list) else [value] if value else []
        return [str(v).strip().strip("[]").upper() for v in items]


class PredictionAnswer(BaseModel):
    """The prediction, then the episode, then only the facts the prediction missed."""

    prediction: str = Field("", description="what the known facts suggest the episode says",
                            json_schema_extra=NARRATIVE)
    title: str = Field(description="short and specific, at most 12 words",
                       json_schema_extra=TITLE)
    narrative: str = Field(description="third-person account with absolute dates",
                           json_schema_extra=NARRATIVE)
    timestamp: str | None = Field(None, description="ISO 8601 date or datetime, or null")
    facts: list[CorrectionFact] = Field(default_factory=list, json_schema_extra=FACTS)


def fact_ref(index: int) -> str:
    """The reference the model sees for the index-th related fact (F1, F2, ...)."""
    return f"F{index + 1}"


def prediction_messages(episode: Episode, related: Sequence[Fact],
                        max_chars: int = MAX_CHARS) -> list[ChatMessage]:
    """Build the predict-then-correct prompt for one episode and the facts related to it."""
    lines = []
    for i, fact in enumerate(related):
        text = " ".join(fact.dated_content.split())[:MAX_FACT_CHARS]
        lines.append(defang(f"[{fact_ref(i)}] ({fact.category}) {text}"))
    known = "<known_facts>\n" + "\n".join(lines) + "\n</known_facts>"
    return [
        {"role": "system", "content": system_prompt("prediction")},
        {"role": "user",
         "content": f"What the memory knows:\n{known}\n\n{episode_input(episode, max_chars)}"},
    ]
