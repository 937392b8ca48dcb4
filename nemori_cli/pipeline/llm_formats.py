"""The format ladder: which response format to ask each kind of server for, strictest first."""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlparse

from pydantic import BaseModel

from nemori_cli.pipeline.litellm_import import load_litellm

# The rungs, by what they send:
#   "grammar": {"type": "json_object", "schema": ...}: llama.cpp constrains decoding to the schema
#   "schema":  {"type": "json_schema", ...}: OpenAI, Anthropic (as a tool), vLLM, LM Studio,
#              llama-server; litellm turns it into Ollama's `format` schema
#   "json":    {"type": "json_object"}, the schema in the prompt
#   "none":    no response format, the schema in the prompt
CONSTRAINED = ("grammar", "schema")
FORMAT_WORDS = ("response_format", "json_schema", "json_object", "response format")
LOCAL_SERVERS = ("ollama", "ollama_chat", "hosted_vllm", "lm_studio", "llamafile")


def provider_of(model: str, base_url: str | None) -> str:
    """The litellm provider that serves this model ("openai", "ollama", ...), or ""."""
    try:
        return str(load_litellm().get_llm_provider(model, api_base=base_url)[1] or "")
    except Exception:
        return ""


def ladder(model: str, base_url: str | None) -> list[str]:
    """The formats to try for this model, first to last; a refused one is dropped for the run."""
    provider = provider_of(model, base_url)
    if provider in ("ollama", "ollama_chat"):
        return ["schema", "json", "none"]
    if provider in LOCAL_SERVERS or (base_url and provider in ("openai", "custom_openai")):
        # an OpenAI-compatible server: vLLM, LM Studio and llama-server take json_schema;
        # llama-cpp-python refuses it ("Input should be 'text' or 'json_object'") and takes
        # json_object with a schema, which it turns into a grammar
        return ["schema", "grammar", "json", "none"]
    try:
        schema = bool(load_litellm().supports_response_schema(model))
    except Exception:
        schema = False
    return ["schema", "json", "none"] if schema else ["json", "schema", "none"]


def response_format(fmt: str, response_model: type[BaseModel]) -> dict[str, Any] | None:
    """The response_format to send for a rung (None: send none)."""
    if fmt == "schema":
        return {"type": "json_schema", "json_schema": {
            "name": response_model.__name__,
            "schema": response_model.model_json_schema(),
            "strict": False,
        }}
    if fmt == "grammar":
        return {"type": "json_object", "schema": response_model.model_json_schema()}
    if fmt == "json":
        return {"type": "json_object"}
    return None


def schema_in_prompt(fmt: str) -> bool:
    """Whether a rung needs the schema spelled out in the prompt (decoding is not held to it)."""
    return fmt not in CONSTRAINED


def refuses_format(exc: BaseException) -> bool:
    """Whether an error says the server does not take the response format we asked for.

    llama-cpp-python answers an unknown format with a 500, others with 400 or 422.
    """
    status = getattr(exc, "status_code", None)
    text = str(exc).lower()
    return status in (400, 422, 500) and any(w in text for w in FORMAT_WORDS)


def is_local(base_url: str | None) -> bool:
    """Whether the endpoint is on this machine or the local network (a server of one's own)."""
    if not base_url:
        return False
    host = (urlparse(base_url).hostname or "").lower()
    if host in ("localhost", "host.docker.internal") or host.endswith((".local", ".lan")):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private or ip.is_link_local
