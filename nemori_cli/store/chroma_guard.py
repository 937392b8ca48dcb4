"""Chroma's failures as nemori's: one line naming the index, the disk's fault told apart, a
stale client replaced."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from nemori_cli.errors import NemoriError, StoreError

_T = TypeVar("_T")


class Reconnecting(Protocol):
    """An index on a Chroma client that can name where it lives and open a fresh client."""

    location: str

    def reconnect(self) -> bool: ...


def guarded(method: Callable[..., _T]) -> Callable[..., _T]:
    """Turn a Chroma failure into a one-line StoreError naming where the index lives."""

    @functools.wraps(method)
    def wrapper(self: Reconnecting, *args: Any, **kwargs: Any) -> _T:
        try:
            return on_fresh_client_if_stale(self, lambda: method(self, *args, **kwargs))
        except (NemoriError, TypeError, AttributeError, AssertionError):
            raise
        except Exception as exc:
            raise StoreError(f"vector index at {self.location}: {one_line(exc)}") from None

    return wrapper


# chromadb 1.x: a client that read a collection while it was empty, before another process
# wrote to it, fails on it from then on; a client opened afterwards reads it fine
STALE_SEGMENT = "Error creating hnsw segment reader"
# a collection this client holds that another process dropped and made again (`nemori
# reindex`, a repair) while this one ran: "Collection [<uuid>] does not exist"
GONE_COLLECTION = re.compile(r"Collection \[[\w-]+\] does not exist")


def on_fresh_client_if_stale(index: Reconnecting, call: Callable[[], _T]) -> _T:
    """call(), and once more on a client opened just now if this one has gone stale."""
    try:
        return call()
    except Exception as exc:
        stale = STALE_SEGMENT in str(exc) or GONE_COLLECTION.search(str(exc))
        if not stale or not index.reconnect():
            raise
    return call()


# What SQLite and the OS say when a write finds no room or no permission to write
DISK_ERRORS = ("disk I/O error", "disk is full", "File too large", "No space left", "readonly")


def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    line = f"{type(exc).__name__}: {text[0][:300]}" if text else type(exc).__name__
    return f"{line} (is the disk full or read-only?)" if is_disk_error(exc) else line


def is_disk_error(exc: BaseException) -> bool:
    """Whether a failure is the disk's (full, read-only), not damage to what it holds."""
    return any(word in str(exc) for word in DISK_ERRORS)
