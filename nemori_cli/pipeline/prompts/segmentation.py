"""Episode boundaries: the model names where episodes start in a numbered window of messages."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from pydantic import BaseModel, Field, create_model
from pydantic.json_schema import JsonDict

from nemori_cli.models import Message
from nemori_cli.pipeline.prompts import ChatMessage, conversation_block, system_prompt

MAX_CHARS = 300  # of each message shown: the opening says what it is about
STARTS = "the number of the first message of each episode, in order; 1 first"


class Segmentation(BaseModel):
    """The model's episodes of a window of messages: the number of each one's first message."""

    starts: list[int] = Field(description=STARTS)


MIN_EPISODE = 3  # messages an episode has at least, on average, in the bound below


@lru_cache(maxsize=64)
def bounded_segmentation(n: int) -> type[Segmentation]:
    """Segmentation whose schema holds an answer to a window of n messages.

    An answer names where episodes start, not every message of each (a small model under a
    grammar listed "1, 2, ... 101" for 18 messages, then the same group again and again, until
    max_tokens): numbers stay within 1..n, and at most n / MIN_EPISODE of them. The bounds are
    in the schema only; the answer is repaired as before (llm_segment.spans_from_starts).
    """
    numbers: JsonDict = {"type": "integer", "minimum": 1, "maximum": n}
    cap = max(1, -(-n // MIN_EPISODE))
    return create_model(  # type: ignore[no-any-return]
        f"Segmentation{n}",
        __base__=Segmentation,
        starts=(list[int], Field(
            description=STARTS, json_schema_extra={"minItems": 1, "maxItems": cap, "items": numbers}
        )),
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
