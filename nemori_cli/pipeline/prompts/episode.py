"""Direct mode: one call gives an episode's title, narrative, time and facts."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator
from pydantic.json_schema import JsonDict

from nemori_cli.models import CATEGORIES, Episode
from nemori_cli.pipeline.prompts import (
    ChatMessage,
    conversation_block,
    speakers,
    system_prompt,
)

MAX_CHARS = 2000  # of each message shown
# Upper bounds in the JSON schema only (answers are not rejected for them): where the server
# constrains decoding to the schema, a small model that loops inside one string or list must
# close it here, instead of running to max_tokens and being asked again (SmolLM2 repeated a
# title for 800 tokens, twice, on most episodes of sample_chats/).
TITLE: JsonDict = {"maxLength": 120}
NARRATIVE: JsonDict = {"maxLength": 1500}
FACTS: JsonDict = {"maxItems": 12}
FACT: JsonDict = {"maxLength": 300}
SUBJECT: JsonDict = {"maxLength": 80}
SOURCES: JsonDict = {"maxItems": 20}
Category = Literal["user_profile", "experience", "knowledge", "other"]


class FactItem(BaseModel):
    """One lasting fact, traced to the messages it comes from."""

    content: str = Field(description="the fact, self-contained, third person, absolute dates",
                         json_schema_extra=FACT)
    category: Category = "other"
    subject: str | None = Field(None, description="the name of the person the fact is about",
                                json_schema_extra=SUBJECT)
    sources: list[int] = Field(default_factory=list, description="numbers of its messages",
                               json_schema_extra=SOURCES)

    @field_validator("category", mode="before")
    @classmethod
    def _known_category(cls, value: Any) -> str:
        text = str(value or "").strip().lower().replace(" ", "_").replace("-", "_")
        return text if text in CATEGORIES else "other"

    @field_validator("sources", mode="before")
    @classmethod
    def _numbers(cls, value: Any) -> list[int]:
        items = value if isinstance(value, list) else [value]
        out = []
        for item in items:
            match = re.search(r"\d+", str(item))
            if match:
                out.append(int(match.group()))
        return out


class EpisodeAnswer(BaseModel):
    """The model's episode: title, narrative, time, and its facts."""

    title: str = Field(description="short and specific, at most 12 words",
                       json_schema_extra=TITLE)
    narrative: str = Field(description="third-person account with absolute dates",
                           json_schema_extra=NARRATIVE)
    timestamp: str | None = Field(None, description="ISO 8601 date or datetime, or null")
    facts: list[FactItem] = Field(default_factory=list, json_schema_extra=FACTS)


def episode_input(episode: Episode, max_chars: int = MAX_CHARS) -> str:
    """Describe the episode for the model: context line, speakers, the numbered messages."""
    return (
        f"The episode. Speakers: {speakers(episode.messages)}.\n\n"
        f"{conversation_block(episode.messages, max_chars)}"
    )


def episode_messages(episode: Episode, max_chars: int = MAX_CHARS) -> list[ChatMessage]:
    """Build the prompt for the direct-mode extraction of one episode."""
    return [
        {"role": "system", "content": system_prompt("episode")},
        {"role": "user", "content": episode_input(episode, max_chars)},
    ]
