"""Episode boundaries: the model groups a numbered window of messages into episodes."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from nemori_cli.models import Message
from nemori_cli.pipeline.prompts import ChatMessage, conversation_block, system_prompt

MAX_CHARS = 300  # of each message shown: the opening says what it is about


class SegmentGroup(BaseModel):
    """One episode: the numbers of its messages."""

    # bounds in the schema only (see prompts/episode.py): an empty group loops under a grammar
    messages: list[int] = Field(description="numbers of the messages in this episode, in order",
                                json_schema_extra={"minItems": 1})
    topic: str = Field("", description="what the episode is about, in a few words",
                       json_schema_extra={"maxLength": 80})


class Segmentation(BaseModel):
    """The model's grouping of a window of messages into episodes."""

    episodes: list[SegmentGroup]


def segmentation_messages(messages: Sequence[Message],
                          max_chars: int = MAX_CHARS) -> list[ChatMessage]:
    """Build the prompt that asks for the episodes of these messages (numbered from 1)."""
    user = (
        f"Split these {len(messages)} messages into episodes.\n\n"
        f"{conversation_block(messages, max_chars)}"
    )
    return [
        {"role": "system", "content": system_prompt("segmentation")},
        {"role": "user", "content": user},
    ]
