"""The model's context size, and how much chat text fits in a prompt beside the answer."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from nemori_cli.pipeline.litellm_import import load_litellm

DEFAULT_CONTEXT = 8192  # when neither litellm nor the server says: what local servers default to
CHARS_PER_TOKEN = 3  # cautious: English chat text runs ~4 characters a token
SCHEMA_HINT_CHARS = 2500  # the JSON schema spelled out in the prompt on the lower rungs
PROBE_SECONDS = 3.0
# where OpenAI-compatible servers report the context: vLLM's /v1/models "max_model_len",
# LM Studio's "loaded_context_length"/"max_context_length", llama.cpp's /props "n_ctx"
_KEYS = ("n_ctx", "max_model_len", "loaded_context_length", "context_length",
         "max_context_length", "context_window")


def context_size(model: str, base_url: str | None, setting: int = 0) -> tuple[int, str]:
    """The model's context in tokens and where that came from (setting, server, litellm)."""
    if setting > 0:
        return setting, "setting llm_context"
    if base_url:
        found = probe_server(base_url)
        if found:
            return found, f"server {base_url}"
    try:
        info = load_litellm().get_model_info(model)
        tokens = int(info.get("max_input_tokens") or info.get("max_tokens") or 0)
        if tokens > 0:
            return tokens, "litellm model info"
    except Exception:
        pass  # not in litellm's table
    return DEFAULT_CONTEXT, "default"


def probe_server(base_url: str) -> int | None:
    """Ask an OpenAI-compatible server for its context size (/v1/models, then /props)."""
    root = base_url.rstrip("/")
    bare = root.removesuffix("/v1")
    for url in (f"{root}/models", f"{bare}/props", f"{bare}/api/v0/models"):
        data = _get_json(url)
        found = _find_context(data) if data is not None else None
        if found:
            return found
    return None


def _get_json(url: str) -> Any:
    try:
        with urllib.request.urlopen(url, timeout=PROBE_SECONDS) as response:  # noqa: S310
            return json.loads(response.read(1_000_000))
    except Exception:
        return None


def _find_context(data: Any, depth: int = 0) -> int | None:
    """The first context-size key anywhere in a JSON answer (the first model's, in lists)."""
    if depth > 4:
        return None
    if isinstance(data, dict):
        for key in _KEYS:
            value = data.get(key)
            if isinstance(value, int) and value > 0:
                return value
        items: list[Any] = list(data.values())
    elif isinstance(data, list):
        items = data[:1]
    else:
        return None
    for item in items:
        found = _find_context(item, depth + 1)
        if found:
            return found
    return None


def chars_for_messages(context: int, max_tokens: int, fixed_chars: int, count: int,
                       ceiling: int, floor: int = 120) -> int:
    """The characters each of `count` messages may show so that the prompt (fixed_chars of
    instructions, the schema on the lower rungs) and the answer fit in the context."""
    room = (context - max_tokens) * CHARS_PER_TOKEN - fixed_chars - SCHEMA_HINT_CHARS
    per = room // max(1, count) - 40  # the message's number, time and speaker
    return max(floor, min(ceiling, per))


def messages_per_window(context: int, max_tokens: int, fixed_chars: int, line_chars: int,
                        ceiling: int, floor: int = 4) -> int:
    """How many messages of line_chars each one segmentation prompt can hold."""
    room = (context - max_tokens) * CHARS_PER_TOKEN - fixed_chars - SCHEMA_HINT_CHARS
    return max(floor, min(ceiling, room // (line_chars + 40)))
