"""What limits each measure of bench/perf.py, noted beside a missed target."""

WHY = {
    "help": "Typer, click and rich are imported for every command (about 0.2 s); what would "
    "help: build the help without rich, or register command modules lazily.",
    "facts_list": "Process start with Typer and rich (about 0.25 s) plus parsing every fact; "
    "listings over 500 rows now print as plain aligned text (rich renders about 1 ms a row). "
    "What would help: stream --json straight from the JSONL lines, a lighter CLI import.",
    "cold_search": "What is left: the command's own Python (Typer and rich, Memory's modules, "
    "the BM25 matrices, the JSONL line index of both kinds, the flat copy's snapshot), with the "
    "query embedded beside it by the helper process (the model's imports and load, ~0.25 s on "
    "the other core). On a busy machine the helper waits for a core. What would help further: "
    "a saved id -> line offset index of the JSONL, a lighter import of Memory, or a "
    "long-running process (the MCP server) so nothing loads per query.",
    "p50": "Once Chroma's HNSW indexes are in, two HNSW queries (the kinds side by side on two "
    "threads, ~3 ms), two BM25 queries and the turn list (~3 ms), the refinement (spans, "
    "vector lookups, ~6 ms) and the parse of the candidate records. It is CPU-bound: another "
    "process on the two cores shows in it at once. What would help: fewer candidates refined, "
    "or the refinement's text scoring cached per record.",
    "facts_list_big": "Process start with Typer and rich (~0.25 s), then the saved order of the "
    "facts (ops/fact_order.py) is filtered and only the lines listed are read; --json parses "
    "and prints every fact (100k dicts: most of its time and memory).",
    "import": "See the stage shares: what is not embedding is parsing, segmentation, storage "
    "and the BM25 rebuild.",
    "locomo": "Embedding dominates: the local MiniLM reads every message once (about 290k "
    "tokens for LoCoMo) at roughly 10k tokens/s on its fast graph on this 2-core machine, "
    "less when other processes share it. What would get there: a smaller or distilled "
    "embedder, or an embedding server/GPU (windows already reuse the message vectors).",
    "peak": "onnxruntime's arena grows with the length of a text; each text is run on its "
    "own (it was 1.7 GB with 32 rows of 256 tokens in one batch).",
    "delete_cli": "Python start (~0.25 s), finding the fact's line among 100k, the JSONL "
    "rewrite (~0.35 s) and the bm25s mask; Chroma's delete waits for its next write (the flat "
    "copy and the JSONL drop the fact at once), so chromadb is not imported. What would help: "
    "an append-only JSONL with tombstones instead of a rewrite.",
}
