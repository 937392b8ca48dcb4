"""Errors that nemori reports to the user as one line, with their exit codes."""

from __future__ import annotations


class NemoriError(Exception):
    """An error with a one-line message meant for the user (exit code 1)."""

    exit_code = 1


class UsageError(NemoriError):
    """Bad options or arguments (exit code 2)."""

    exit_code = 2


class ConfigError(NemoriError):
    """A setting or the config file is invalid."""


class ImportFormatError(NemoriError):
    """A file cannot be read as any supported format (or as the one asked for)."""


class StoreError(NemoriError):
    """The store is locked, unreadable or inconsistent."""


class LockTimeout(StoreError):
    """Another nemori process held the store lock for longer than the timeout."""


class NotFound(NemoriError):
    """A record or user that was asked for does not exist."""


class EmbeddingMismatch(StoreError):
    """The index was built with another embedding model or dimension."""


class BrokenIndex(StoreError):
    """A derived index cannot be read: `nemori doctor --repair` moves it aside and rebuilds it."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message  # what is wrong, without the advice


class EmbeddingError(NemoriError):
    """The embedding model cannot be loaded or did not answer."""
