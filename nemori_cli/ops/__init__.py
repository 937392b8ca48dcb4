"""The operations Memory runs: ingest, delete, reindex, export/restore, doctor."""
