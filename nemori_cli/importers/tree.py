"""Walk message trees (ChatGPT mapping, Open WebUI history) along the branch that was shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def branch(
    nodes: dict[str, Any], leaf: str | None, parent_of: Callable[[Any], Any]
) -> list[Any]:
    """Return the nodes from the root down to `leaf`, following parent links up.

    The walk stops where a parent is missing from `nodes` (a broken tree: keep what is
    reachable) or where a link would revisit a node (a cycle).
    """
    path: list[Any] = []
    seen: set[str] = set()
    key = leaf
    while isinstance(key, str) and key in nodes and key not in seen:
        seen.add(key)
        node = nodes[key]
        path.append(node)
        key = parent_of(node) if isinstance(node, dict) else None
    path.reverse()
    return path


def latest_leaf(
    nodes: dict[str, Any],
    children_of: Callable[[Any], Any],
    time_of: Callable[[Any], float | None],
) -> str | None:
    """Pick the leaf to start from when the tree names none: the most recent one.

    A leaf is a node none of whose children is present. Ties (or no times) go to the leaf that
    comes last, which is where exporters put the newest nodes.
    """
    best: str | None = None
    best_time = float("-inf")
    for key, node in nodes.items():
        kids = children_of(node) if isinstance(node, dict) else None
        if isinstance(kids, list) and any(isinstance(k, str) and k in nodes for k in kids):
            continue
        when = time_of(node) if isinstance(node, dict) else None
        when = float("-inf") if when is None else when
        if when >= best_time:
            best, best_time = key, when
    if best is None and nodes:  # every node has a child: a cycle; start anywhere
        best = next(reversed(nodes))
    return best
