"""nemori: long-term memory from your chat archives.

The Python API: `Memory` and the records it returns (see docs/python-api.md). They are loaded
on first use, so that `nemori --help` does not import the whole package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nemori_cli.config import Settings
    from nemori_cli.errors import (
        ConfigError,
        EmbeddingMismatch,
        ImportFormatError,
        LockTimeout,
        NemoriError,
        NotFound,
        StoreError,
        UsageError,
    )
    from nemori_cli.memory import Memory
    from nemori_cli.models import Conversation, Episode, Fact, Message, SearchHit
    from nemori_cli.ops.delete import Deleted
    from nemori_cli.ops.doctor import UserReport
    from nemori_cli.ops.records import Stats
    from nemori_cli.ops.reindex import Reindexed
    from nemori_cli.ops.run_summary import IngestSummary

__version__ = "0.1.0"

# public name -> the module that defines it
API = {
    "Memory": "nemori_cli.memory",
    "Settings": "nemori_cli.config",
    **dict.fromkeys(
        ("Conversation", "Episode", "Fact", "Message", "SearchHit"), "nemori_cli.models"
    ),
    **dict.fromkeys(
        (
            "ConfigError",
            "EmbeddingMismatch",
            "ImportFormatError",
            "LockTimeout",
            "NemoriError",
            "NotFound",
            "StoreError",
            "UsageError",
        ),
        "nemori_cli.errors",
    ),
    "Deleted": "nemori_cli.ops.delete",
    "IngestSummary": "nemori_cli.ops.run_summary",
    "Reindexed": "nemori_cli.ops.reindex",
    "Stats": "nemori_cli.ops.records",
    "UserReport": "nemori_cli.ops.doctor",
}

__all__ = [
    "ConfigError",
    "Conversation",
    "Deleted",
    "EmbeddingMismatch",
    "Episode",
    "Fact",
    "ImportFormatError",
    "IngestSummary",
    "LockTimeout",
    "Memory",
    "Message",
    "NemoriError",
    "NotFound",
    "Reindexed",
    "SearchHit",
    "Settings",
    "Stats",
    "StoreError",
    "UsageError",
    "UserReport",
    "__version__",
]


def __getattr__(name: str) -> Any:
    """Load a public name of the API from its module on first use."""
    if name not in API:
        raise AttributeError(f"module 'nemori_cli' has no attribute {name!r}")
    value = getattr(importlib.import_module(API[name]), name)
    globals()[name] = value
    return value
