"""Derived stores that cannot be opened are moved aside, so that a repair can rebuild them."""

from __future__ import annotations

from pathlib import Path

from nemori_cli.errors import BrokenIndex
from nemori_cli.models import KINDS
from nemori_cli.parts import Parts
from nemori_cli.store.broken import move_aside
from nemori_cli.store.open_index import forget_chroma_clients


def damaged_stores(parts: Parts, user: str) -> list[tuple[Path, str]]:
    """The user's derived stores (and the shared Chroma folder) that cannot be read, and why."""
    found = list(parts.vectors(user).damaged())
    for lexical in [parts.lexical(kind, user) for kind in KINDS] + [parts.turns(user)]:
        try:
            lexical.doc_ids()
        except BrokenIndex as exc:
            found.append((lexical.folder, exc.reason))
    return found


def move_aside_damaged(parts: Parts, user: str) -> list[str]:
    """Move every damaged derived store aside under a dated name; one line per store moved.

    What is moved is then missing, which the drift repair (or a reindex) rebuilds from the
    JSONL; nothing is deleted, so a damaged file can still be looked at.
    """
    done: list[str] = []
    for path, why in damaged_stores(parts, user):
        kept = move_aside(path)
        if kept is not None:
            where = path.relative_to(parts.data_dir)
            done.append(f"{where} could not be read ({why}); moved aside to {kept.name}")
    if done:
        forget_chroma_clients()
        parts.reopen()
    return done
