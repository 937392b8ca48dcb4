"""Let the global options come anywhere: move them in front of the command before parsing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

GLOBAL_OPTIONS = {  # option -> whether it takes a value; these work before or after the command
    "--data-dir": True,
    "--user": True,
    "-u": True,
    "--llm": True,
    "--llm-base-url": True,
    "--embed-model": True,
    "--chroma-url": True,
}


def hoist(argv: Sequence[str], takes_value: Mapping[str, bool]) -> list[str]:
    """Move every global option (and its value) to the front, keeping their order.

    `nemori search "cat" --data-dir D` then means `nemori --data-dir D search "cat"`. Nothing
    after a `--` moves: there it is an argument.
    """
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest.extend(argv[i:])
            break
        name = arg.split("=", 1)[0] if arg.startswith("--") else arg
        if name in takes_value:
            if takes_value[name] and "=" not in arg and i + 1 < len(argv):
                front.extend(argv[i : i + 2])
                i += 2
                continue
            front.append(arg)
        else:
            rest.append(arg)
        i += 1
    return front + rest


def command_at(argv: Sequence[str], takes_value: Mapping[str, bool]) -> int | None:
    """Where the command word of a hoisted command line is (None when an option or nothing
    comes first)."""
    i = 0
    while i < len(argv):
        arg = argv[i]
        name = arg.split("=", 1)[0] if arg.startswith("--") else arg
        if name in takes_value:
            i += 2 if takes_value[name] and "=" not in arg else 1
            continue
        return None if arg.startswith("-") else i
    return None


def command_of(argv: Sequence[str], takes_value: Mapping[str, bool]) -> str | None:
    """The command word of a hoisted command line (None when an option or nothing comes first)."""
    at = command_at(argv, takes_value)
    return None if at is None else argv[at]
