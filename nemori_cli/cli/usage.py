"""Click's usage errors as the one line nemori prints for every error."""

from __future__ import annotations

from typing import Any

from nemori_cli.config import Range

NUMBERS = {"integer": "a whole number", "int range": "a whole number", "float": "a number",
           "float range": "a number"}  # click's type names -> what the value must be


def one_line(exc: Any) -> str | None:
    """A click error as one line ("-k/--limit must be at least 1"); None when it is help shown
    in its place (a group given no command)."""
    if type(exc).__name__ == "NoArgsIsHelpError":  # so named in click and in typer's copy
        return None
    message = str(getattr(exc, "message", None) or exc.format_message()).rstrip(".")
    param = getattr(exc, "param", None)
    if param is not None and type(exc).__name__ != "MissingParameter":
        rule = bad_value(param.type, message)
        return f"{names(param)} {rule}" if rule else f"{names(param)}: {message}"
    ctx = getattr(exc, "ctx", None)
    text = message[:1].lower() + message[1:]
    return f"{text} (see `{ctx.command_path} --help`)" if ctx is not None else text


def names(param: Any) -> str:
    """How a parameter is named in an error: "-k/--limit", "--workers", or "QUERY"."""
    if param.param_type_name == "option":
        return "/".join(sorted(param.opts, key=len))
    return str(param.human_readable_name).upper()


def bad_value(kind: Any, message: str) -> str | None:
    """The rule a number breaks ("must be at least 1", "must be a number, not 'x'"), or None."""
    wanted = NUMBERS.get(getattr(kind, "name", ""))
    if wanted and " is not a valid " in message:
        return f"must be {wanted}, not {message.split(' is not a valid ', 1)[0]}"
    if wanted and hasattr(kind, "min") and hasattr(kind, "max"):
        return f"must be {Range(kind.min, kind.max, above=kind.min_open).describe()}"
    return None
