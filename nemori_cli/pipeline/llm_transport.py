"""What a failed call to the model means: worth retrying, a timeout, how long to wait."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from nemori_cli.pipeline.litellm_import import load_litellm


def is_timeout(exc: BaseException) -> bool:
    """Whether a failed call timed out waiting for the answer."""
    return type(exc).__name__ in ("Timeout", "APITimeoutError")


def lacks_credentials(exc: BaseException) -> bool:
    """Whether the call was never sent for want of an API key (litellm calls that a 500)."""
    text = str(exc)
    return "Missing credentials" in text or "api_key client option must be set" in text


def is_refused_access(exc: BaseException) -> bool:
    """Whether the key is missing, wrong or not allowed: asking again gives the same answer."""
    litellm = load_litellm()
    if isinstance(exc, litellm.AuthenticationError | litellm.PermissionDeniedError):
        return True
    return getattr(exc, "status_code", None) in (401, 403) or lacks_credentials(exc)


def is_transient(exc: BaseException) -> bool:
    """Whether a failed call is worth retrying: rate limits, 5xx, timeouts, lost connections."""
    litellm = load_litellm()
    if is_refused_access(exc):
        return False
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
