"""Keep a long write's resident memory to what it uses (glibc's malloc; elsewhere nothing).

Chroma's index (Rust), onnxruntime and the tokenizer allocate and free through glibc's malloc
on threads of their own. glibc gives each thread an arena of its own (up to 8 a core) and keeps
what is freed in it, so an ingest's resident memory grew batch by batch with memory no one used.
A writing command limits the arenas before any thread starts, and an ingest hands the free
pages back after each stored batch (measured in docs/benchmarks.md, "Import").
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys
from typing import Any


@functools.cache
def _glibc() -> Any:
    """glibc, if this process runs on it (None on macOS, Windows or musl)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
    except (OSError, AttributeError):  # musl has no malloc_trim
        return None
    return libc


def on_glibc() -> bool:
    """Whether this process's malloc is glibc's (the only one these calls change)."""
    return _glibc() is not None


M_ARENA_MAX = -8  # mallopt's parameter number in glibc's malloc.h
WRITER_ARENAS = 2


def limit_arenas(arenas: int = WRITER_ARENAS) -> None:
    """Let threads share this many malloc arenas (call before the threads start)."""
    libc = _glibc()
    if libc is not None:
        libc.mallopt(M_ARENA_MAX, arenas)


def release_free_memory() -> None:
    """Return the free pages of every malloc arena to the system (a few milliseconds)."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)
