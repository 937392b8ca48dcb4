"""The litellm wrapper: structured JSON answers, retries, timeouts, token and cost accounting."""

from __future__ import annotations

import json
import os
import random
import re
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from http import HTTPStatus
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from nemori_cli.config import Settings
from nemori_cli.errors import NemoriError
from nemori_cli.pipeline.base import Usage

T = TypeVar("T", bound=BaseModel)
Message = dict[str, str]

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_PREFIX = re.compile(r"^(?:litellm\.\w+:\s*)?(?:\w+Error:\s*)?(?:\w+Exception\s*-\s*)?")
_import_lock = threading.Lock()
_litellm: Any = None

_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "response format")


class LLMError(NemoriError):
    """The model could not be reached, refused, or never gave a valid answer."""

    def __init__(self, message: str, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.usage = usage or Usage()  # what the failed attempts still cost


class InvalidAnswer(ValueError):
    """The model answered, but not with JSON that fits the schema."""


class _FormatRejected(Exception):
    """The provider refused the response format we asked for."""


def load_litellm() -> Any:
    """Import litellm once, quietly: local cost map, no callbacks, no debug prints."""
    global _litellm
    if _litellm is None:
        with _import_lock:
            if _litellm is None:
                os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
                import logging

                import litellm

                litellm.suppress_debug_info = True
                litellm.turn_off_message_logging = True
                litellm.disable_hf_tokenizer_download = True
                litellm.drop_params = True
                litellm.callbacks = []
                litellm.success_callback = []
                litellm.failure_callback = []
                for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm"):
                    logging.getLogger(name).setLevel(logging.CRITICAL)
                _litellm = litellm
    return _litellm


class LLMClient:
    """Ask one model for answers that fit pydantic models."""

    def __init__(self, settings: Settings, *, backoff: float | None = None,
                 max_wait: float = 60.0) -> None:
        if not settings.llm_model:
            raise LLMError("no LLM model configured (set --llm or NEMORI_LLM_MODEL)")
        self.model: str = settings.llm_model
        self.base_url = settings.llm_base_url
        self._api_key = settings.llm_api_key
        self.timeout = settings.llm_timeout
        self.retries = max(0, settings.llm_retries)
        self.backoff = backoff if backoff is not None else getattr(settings, "llm_backoff", 1.0)
        self.max_wait = max_wait
        # response formats still to try, current first: a JSON schema, JSON mode, or none
        # (the schema then only in the prompt); a provider that refuses one steps down
        self._formats: list[str] | None = None

    @property
    def where(self) -> str:
        """Name the model and endpoint for messages ("openai/x at http://...")."""
        return f"{self.model} at {self.base_url}" if self.base_url else self.model

    def complete(
        self, messages: Sequence[Message], response_model: type[T], *,
        max_tokens: int | None = None,
    ) -> tuple[T, Usage]:
        """Return the model's answer validated as response_model, and the usage it cost.

        An invalid answer is asked again once, with the validation error; a second invalid
        answer, or a transport failure after retries, raises LLMError (usage on `.usage`).
        """
        convo = list(messages)
        usage = Usage()
        for attempt in (1, 2):
            try:
                response = self._call(convo, response_model, max_tokens)
            except LLMError as exc:
                raise LLMError(str(exc), usage) from None
            usage = usage + self._usage(response)
            content = _content(response)
            try:
                return _parse(content, response_model, _finish_reason(response)), usage
            except InvalidAnswer as exc:
                if attempt == 2:
                    raise LLMError(
                        f"LLM {self.where}: invalid answer twice: {_short(exc)}", usage
                    ) from None
                convo = [*convo, {"role": "assistant", "content": content[:4000]},
                         {"role": "user", "content": _retry_hint(exc)}]
        raise AssertionError("unreachable")

    def response_format(self) -> str:
        """The format asked for now: "schema", "json" (JSON mode) or "none"."""
        if self._formats is None:
            try:
                schema = bool(load_litellm().supports_response_schema(self.model))
            except Exception:
                schema = False
            self._formats = ["schema", "json", "none"] if schema else ["json", "schema", "none"]
        return self._formats[0]

    def _call(self, messages: list[Message], response_model: type[BaseModel],
              max_tokens: int | None = None) -> Any:
        """Send the messages, stepping down the format ladder if the provider refuses one."""
        while True:
            fmt = self.response_format()
            prepared = messages if fmt == "schema" else _with_schema_hint(messages, response_model)
            try:
                return self._request(prepared, response_model, fmt, max_tokens)
            except _FormatRejected:
                formats = self._formats or []
                if fmt in formats and len(formats) > 1:
                    formats.remove(fmt)  # shared by the workers: one refusal is enough

    def _request(self, messages: list[Message], response_model: type[BaseModel],
                 fmt: str, max_tokens: int | None = None) -> Any:
        from tenacity import Retrying, retry_if_exception, stop_after_attempt

        litellm = load_litellm()
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "timeout": self.timeout,
            "max_retries": 0,  # retries are ours, so Retry-After is honoured everywhere
            "drop_params": True,
            "temperature": 0,
        }
        if max_tokens:
            kwargs["max_tokens"] = max_tokens
        if fmt == "schema":
            kwargs["response_format"] = {"type": "json_schema", "json_schema": {
                "name": response_model.__name__,
                "schema": response_model.model_json_schema(),
                "strict": False,
            }}
        elif fmt == "json":
            kwargs["response_format"] = {"type": "json_object"}
        if self.base_url:
            kwargs["api_base"] = self.base_url
        if self._api_key:
            kwargs["api_key"] = self._api_key
        elif self.base_url and self.model.startswith("openai/") and not os.environ.get(
            "OPENAI_API_KEY"
        ):
            # local OpenAI-compatible servers (vLLM, LM Studio) take no key, the SDK needs one
            kwargs["api_key"] = "no-key"
        retrying = Retrying(
            stop=stop_after_attempt(self.retries + 1),
            wait=self._wait,
            retry=retry_if_exception(is_transient),
            reraise=True,
        )
        try:
            return retrying(litellm.completion, **kwargs)
        except Exception as exc:
            if fmt != "none" and _refuses_format(exc):
                raise _FormatRejected() from exc
            raise LLMError(self.describe(exc)) from None

    def _wait(self, retry_state: Any) -> float:
        exc = retry_state.outcome.exception() if retry_state.outcome else None
        after = retry_after(exc) if exc is not None else None
        if after is not None:
            return min(after, self.max_wait)
        delay = self.backoff * 2 ** (retry_state.attempt_number - 1)
        return min(delay * (0.5 + random.random() / 2), self.max_wait)

    def _usage(self, response: Any) -> Usage:
        u = getattr(response, "usage", None)
        prompt = int(getattr(u, "prompt_tokens", 0) or 0)
        completion = int(getattr(u, "completion_tokens", 0) or 0)
        return Usage(1, prompt, completion, self._cost(response))

    def _cost(self, response: Any) -> float:
        hidden = getattr(response, "_hidden_params", None) or {}
        cost = hidden.get("response_cost")
        if cost is None:
            try:
                cost = load_litellm().completion_cost(completion_response=response)
            except Exception:
                cost = 0.0  # model not in litellm's cost table
        return float(cost or 0.0)

    def describe(self, exc: BaseException) -> str:
        """Say in one line what went wrong talking to the model, without the key."""
        status = getattr(exc, "status_code", None)
        name = type(exc).__name__
        if name in ("Timeout", "APITimeoutError"):
            reason = f"timed out after {self.timeout:g}s"
        elif name == "APIConnectionError":
            reason = "cannot connect"
        else:
            text = str(exc).strip().splitlines()[0] if str(exc).strip() else name
            text = _PREFIX.sub("", text).strip() or name
            reason = text
            if isinstance(status, int) and status >= 400:
                phrase = _phrase(status)
                reason = f"{status} {phrase}: {text}" if text != phrase else f"{status} {phrase}"
        return self._redact(f"LLM {self.where}: {_clip(reason, 200)}")

    def _redact(self, text: str) -> str:
        if self._api_key:
            text = text.replace(self._api_key, "****")
        return re.sub(r"\bsk-[A-Za-z0-9_-]{8,}", "****", text)


def _refuses_format(exc: BaseException) -> bool:
    """Whether a 400/422 error complains about the response format."""
    status = getattr(exc, "status_code", None)
    text = str(exc).lower()
    return status in (400, 422) and any(w in text for w in _FORMAT_WORDS)


def is_transient(exc: BaseException) -> bool:
    """Whether a failed call is worth retrying: rate limits, 5xx, timeouts, lost connections."""
    litellm = load_litellm()
    if isinstance(exc, litellm.RateLimitError | litellm.Timeout | litellm.APIConnectionError):
        return True
    if isinstance(exc, litellm.InternalServerError | litellm.ServiceUnavailableError
                  | litellm.BadGatewayError):
        return True
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and (status == 429 or status >= 500)


def retry_after(exc: BaseException) -> float | None:
    """Seconds the server asked us to wait (Retry-After / retry-after-ms), if it said."""
    headers = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
    if not headers:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000)
        value = headers.get("retry-after")
    except Exception:
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _parse(content: str, response_model: type[T], finish_reason: str | None) -> T:
    if finish_reason == "length":
        raise InvalidAnswer("the answer was cut off (too long): answer more briefly")
    text = content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    if not text:
        raise InvalidAnswer("the answer was empty")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidAnswer(f"the answer is not valid JSON: {exc}") from None
    try:
        return response_model.model_validate(data)
    except ValidationError as exc:
        raise InvalidAnswer(f"the answer does not fit the schema: {exc}") from None


def _content(response: Any) -> str:
    try:
        message = response.choices[0].message
    except (AttributeError, IndexError):
        return ""
    content = getattr(message, "content", None)
    if not content:
        # some providers (Anthropic through litellm) answer a json_schema as a tool call
        calls = getattr(message, "tool_calls", None) or []
        if calls:
            return str(getattr(calls[0].function, "arguments", "") or "")
    return str(content or "")


def _finish_reason(response: Any) -> str | None:
    try:
        return response.choices[0].finish_reason
    except (AttributeError, IndexError):
        return None


def _with_schema_hint(messages: list[Message], response_model: type[BaseModel]) -> list[Message]:
    hint = ("\n\nAnswer with one JSON object, and nothing else, that fits this JSON schema:\n"
            + json.dumps(response_model.model_json_schema(), separators=(",", ":")))
    if messages and messages[0]["role"] == "system":
        return [{"role": "system", "content": messages[0]["content"] + hint}, *messages[1:]]
    return [{"role": "system", "content": hint.strip()}, *messages]


def _retry_hint(exc: InvalidAnswer) -> str:
    return (f"Your previous answer was rejected: {_clip(str(exc), 1500)}\n"
            "Answer again with one JSON object that fits the schema, and nothing else.")


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "error"


def _short(exc: BaseException) -> str:
    return _clip(" ".join(str(exc).split()), 200)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
