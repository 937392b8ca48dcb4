"""Episode boundaries: the model groups a numbered window of messages into episodes."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from pydantic import BaseModel, Field, create_model
from pydantic.json_schema import JsonDict

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


MIN_EPISODE = 3  # messages an episode has at least, on average, in the bound below


@lru_cache(maxsize=64)
def bounded_segmentation(n: int) -> type[Segmentation]:
    """Segmentation whose schema holds an answer to a window of n messages.

    A small model under a grammar counts on past the last message (SmolLM2 wrote "1, 2, ...
    101" for 18 messages until max_tokens), then repeats whole groups: numbers stay within
    1..n, a group within n numbers, and the groups within n / MIN_EPISODE. The bounds are in
    the schema only; the answer is validated and repaired as before (llm_segment.py).
    """
    numbers: JsonDict = {"type": "integer", "minimum": 1, "maximum": n}
    group = create_model(
        f"SegmentGroup{n}",
        __base__=SegmentGroup,
        messages=(list[int], Field(description="numbers of the messages in this episode, in order",
                                   json_schema_extra={"minItems": 1, "maxItems": n,
                                                      "items": numbers})),
    )
    cap = max(1, -(-n // MIN_EPISODE))
    return create_model(  # type: ignore[no-any-return]
        f"Segmentation{n}",
        __base__=Segmentation,
        episodes=(list[group], Field(json_schema_extra={"minItems": 1, "maxItems": cap})),  # type: ignore[valid-type]
    )


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
