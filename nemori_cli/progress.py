"""How Memory reports progress, without knowing who draws it."""

from __future__ import annotations

from typing import Protocol


class Task(Protocol):
    """One progress bar."""

    def advance(self, n: int = 1) -> None: ...

    def grow(self, n: int) -> None:
        """Add n to the total (for work discovered while running)."""
        ...

    def close(self) -> None: ...


class Progress(Protocol):
    """A place to open progress bars and say things."""

    def task(self, description: str, total: int | None = None) -> Task: ...

    def note(self, text: str) -> None:
        """Tell the user something that is not an error (a wait, a skip)."""
        ...


class _NullTask:
    def advance(self, n: int = 1) -> None:
        pass

    def grow(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


class NullProgress:
    """Progress that shows nothing (scripts, tests)."""

    def task(self, description: str, total: int | None = None) -> Task:
        return _NullTask()

    def note(self, text: str) -> None:
        pass
