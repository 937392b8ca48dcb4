"""nemori: long-term memory from your chat archives."""

__version__ = "0.1.0"
