"""Let the global options come anywhere: move them in front of the command before parsing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


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
