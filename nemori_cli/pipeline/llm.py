"""The litellm wrapper: structured JSON answers, retries, timeouts, token and cost accounting."""

from __future__ import annotations

import json
import os
import random
import re
import threading
import time
from collections import Counter
from collections.abc import Sequence
from http import HTTPStatus
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from nemori_cli.config import Settings
from nemori_cli.errors import NemoriError
from nemori_cli.models import strip_reasoning
from nemori_cli.pipeline.base import Usage
from nemori_cli.pipeline.litellm_import import load_litellm
from nemori_cli.pipeline.llm_context import context_size
from nemori_cli.pipeline.llm_formats import (
    is_local,
    ladder,
    refuses_format,
    response_format,
    schema_in_prompt,
)
from nemori_cli.pipeline.llm_pace import Breaker, Pace
from nemori_cli.pipeline.llm_transport import (
    is_timeout,
    is_transient,
    lacks_credentials,
    retry_after,
)

T = TypeVar("T", bound=BaseModel)
Message = dict[str, str]

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
# small models say a word before the JSON
_PREFIX = re.compile(r"^(?:litellm\.\w+:\s*)?(?:\w+Error:\s*)?(?:\w+Exception\s*-\s*)?")

CHARS_PER_TOKEN = 3  # a cautious estimate of prompt size before the server counts it


class LLMError(NemoriError):
    """The model could not be reached, refused, or never gave a valid answer."""

    def __init__(self, message: str, usage: Usage | None = None, kind: str = "error") -> None:
        super().__init__(message)
        self.usage = usage or Usage()  # what the failed attempts still cost
        # why: "invalid" (answers did not fit), "timeout", "error" (HTTP, connection),
        # "stopped" (not called: the circuit breaker is open)
        self.kind = kind


class InvalidAnswer(ValueError):
    """The model answered, but not with JSON that fits the schema."""


class _FormatRejected(Exception):
    """The provider refused the response format we asked for."""


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
        # response formats still to try, current first (see llm_formats); a provider that
        # refuses one steps down, and the run remembers it
        self._formats: list[str] | None = None
        self.local = is_local(self.base_url)
        workers = max(1, int(getattr(settings, "workers", 1) or 1))
        # a server of one's own may serve one request at a time: start with one in flight
        self.pace = Pace(workers, start=1 if self.local else workers,
                         first_timeout=self.timeout)
        self.breaker = Breaker()
        self.first_format = getattr(settings, "llm_response_format", "auto") or "auto"
        # answers by outcome: valid_first, valid_retry, invalid, failed (transport), stopped
        self.outcomes: Counter[str] = Counter()
        self._context_setting = int(getattr(settings, "llm_context", 0) or 0)
        self._context: tuple[int, str] | None = None
        self._context_lock = threading.Lock()

    @property
    def where(self) -> str:
        """Name the model and endpoint for messages ("openai/x at http://...")."""
        return f"{self.model} at {self.base_url}" if self.base_url else self.model

    @property
    def context(self) -> int:
        """The model's context size in tokens (a setting, the server's word, or litellm's)."""
        if self._context is None:
            with self._context_lock:
                if self._context is None:
                    self._context = context_size(self.model, self.base_url,
                                                 self._context_setting)
        return self._context[0]

    @property
    def stopped(self) -> str | None:
        """Why the model is no longer called this run (the circuit breaker), or None."""
        return self.breaker.reason

    def complete(
        self, messages: Sequence[Message], response_model: type[T], *,
        max_tokens: int | None = None,
    ) -> tuple[T, Usage]:
        """Return the model's answer validated as response_model, and the usage it cost.

        The answer may be at most max_tokens long; one cut at that limit is invalid. An
        invalid answer is asked again once, with the validation error; a second invalid
        answer, or a transport failure after retries, raises LLMError (usage on `.usage`).
        Once answers keep failing (the circuit breaker), raise LLMError without calling.
        """
        if self.breaker.reason is not None:
            self._count("stopped")
            raise LLMError(f"LLM {self.where}: not called: stopped after "
                           f"{self.breaker.reason}", kind="stopped")
        convo = list(messages)
        usage = Usage()
        for attempt in (1, 2):
            try:
                response = self._call(convo, response_model, max_tokens)
            except LLMError as exc:
                self.breaker.record(False, _clip(str(exc), 160))
                self._count("failed")
                raise LLMError(str(exc), usage, exc.kind) from None
            usage = usage + self._usage(response)
            content = _content(response)
            try:
                answer = _parse(content, response_model, _finish_reason(response))
            except InvalidAnswer as exc:
                if attempt == 2:
                    message = f"LLM {self.where}: invalid answer twice: {_short(exc)}"
                    self.breaker.record(False, _clip(message, 160))
                    self._count("invalid")
                    raise LLMError(message, usage, "invalid") from None
                convo = [*convo, {"role": "assistant", "content": content[:4000]},
                         {"role": "user", "content": _retry_hint(exc)}]
                continue
            self.breaker.record(True)
            self._count("valid_first" if attempt == 1 else "valid_retry")
            return answer, usage
        raise AssertionError("unreachable")

    def _count(self, outcome: str) -> None:
        with self._context_lock:
            self.outcomes[outcome] += 1

    def response_format(self) -> str:
        """The format asked for now: "grammar", "schema", "json" (JSON mode) or "none"."""
        if self._formats is None:
            formats = ladder(self.model, self.base_url)
            if self.first_format in formats:  # a setting starts lower down the ladder
                formats = formats[formats.index(self.first_format):]
            elif self.first_format != "auto":
                formats = [self.first_format, *(f for f in formats if f != self.first_format)]
            self._formats = formats
        return self._formats[0]

    def _call(self, messages: list[Message], response_model: type[BaseModel],
              max_tokens: int | None = None) -> Any:
        """Send the messages, stepping down the format ladder if the provider refuses one."""
        while True:
            fmt = self.response_format()
            prepared = (_with_schema_hint(messages, response_model) if schema_in_prompt(fmt)
                        else messages)
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
            "max_retries": 0,  # retries are ours, so Retry-After is honoured everywhere
            "drop_params": True,
            "temperature": 0,
        }
        if max_tokens:
            kwargs["max_tokens"] = max_tokens
        prompt_tokens = sum(len(m["content"]) for m in messages) // CHARS_PER_TOKEN
        fmt_value = response_format(fmt, response_model)
        if fmt_value is not None:
            kwargs["response_format"] = fmt_value
        if self.base_url:
            kwargs["api_base"] = self.base_url
        if self._api_key:
            kwargs["api_key"] = self._api_key
        elif self.base_url and self.model.startswith("openai/") and not os.environ.get(
            "OPENAI_API_KEY"
        ):
            # local OpenAI-compatible servers (vLLM, LM Studio) take no key, the SDK needs one
            kwargs["api_key"] = "no-key"

        def worth_retrying(exc: BaseException) -> bool:
            if fmt != "none" and refuses_format(exc):
                return False  # step down the ladder instead
            if self.local and is_timeout(exc):
                return False  # the server is still busy with the abandoned answer
            return is_transient(exc)

        def send() -> Any:
            with self.pace.slot() as flight:
                kwargs["timeout"] = self.pace.timeout(prompt_tokens, max_tokens)
                started = time.perf_counter()
                try:
                    response = litellm.completion(**kwargs)
                except Exception as exc:
                    if is_transient(exc) and not refuses_format(exc):
                        self.pace.congested()
                    raise
                u = self._usage(response)
                self.pace.succeeded(time.perf_counter() - started, u.prompt_tokens,
                                    u.completion_tokens, flight)
                return response

        retrying = Retrying(
            stop=stop_after_attempt(self.retries + 1),
            wait=self._wait,
            retry=retry_if_exception(worth_retrying),
            reraise=True,
        )
        try:
            return retrying(send)
        except Exception as exc:
            if fmt != "none" and refuses_format(exc):
                raise _FormatRejected() from exc
            kind = "timeout" if is_timeout(exc) else "error"
            raise LLMError(self.describe(exc, kwargs.get("timeout")), kind=kind) from None

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

    def describe(self, exc: BaseException, timeout: float | None = None) -> str:
        """Say in one line what went wrong talking to the model, without the key."""
        status = getattr(exc, "status_code", None)
        name = type(exc).__name__
        if name in ("Timeout", "APITimeoutError"):
            reason = f"timed out after {timeout or self.timeout:g}s"
        elif name == "APIConnectionError":
            reason = "cannot connect"
        else:
            text = str(exc).strip().splitlines()[0] if str(exc).strip() else name
            text = _PREFIX.sub("", text).strip() or name
            reason = text
            if isinstance(status, int) and status >= 400 and not lacks_credentials(exc):
                phrase = _phrase(status)
                reason = f"{status} {phrase}: {text}" if text != phrase else f"{status} {phrase}"
        return self._redact(f"LLM {self.where}: {_clip(reason, 200)}")

    def _redact(self, text: str) -> str:
        if self._api_key:
            text = text.replace(self._api_key, "****")
        return re.sub(r"\bsk-[A-Za-z0-9_-]{8,}", "****", text)


def _json_in(text: str) -> Any:
    """The JSON a reply is, or else the first JSON object in it ("Here it is: {...}")."""
    try:
        return json.loads(text)
    except ValueError as exc:
        start = text.find("{")
        if start < 0:
            raise
        try:
            return json.JSONDecoder().raw_decode(text, start)[0]
        except ValueError:
            raise exc from None


def _parse(content: str, response_model: type[T], finish_reason: str | None) -> T:
    if finish_reason == "length":
        raise InvalidAnswer("the answer was cut off (too long): answer more briefly")
    text = strip_reasoning(content).strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    if not text:
        raise InvalidAnswer("the answer was empty")
    try:
        data = _json_in(text)
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
