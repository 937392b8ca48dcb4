"""Read chat archives into Conversations: one module per format, detection in detect.py.

Importers know nothing of storage or LLMs; they stream Conversation objects.
"""

from nemori_cli.importers.base import EmptySource, Skipped
from nemori_cli.importers.detect import FORMATS
from nemori_cli.importers.scan import ScanReport, scan
from nemori_cli.importers.source import Source, expand_paths, open_bytes, open_source

__all__ = [
    "FORMATS",
    "EmptySource",
    "ScanReport",
    "Skipped",
    "Source",
    "expand_paths",
    "open_bytes",
    "open_source",
    "scan",
]
