"""What limits each measure of bench/perf.py, noted beside a missed target."""

WHY = {
    "help": "Typer, click and rich are imported for every command (about 0.2 s); what would "
    "help: build the help without rich, or register command modules lazily.",
    "facts_list": "Process start with Typer and rich (about 0.25 s) plus parsing every fact; "
    "listings over 500 rows now print as plain aligned text (rich renders about 1 ms a row). "
    "What would help: stream --json straight from the JSONL lines, a lighter CLI import.",
    "cold_search": "What is left: Python with Typer and rich (~0.25 s), importing Memory's modules "
    "(Typer itself imports pydantic), onnxruntime loading the model (~0.3 s, "
    "overlapped with the index loads), the JSONL line index of both kinds and the flat copy's "
    "snapshot. chromadb and bm25s are not imported by a search. What would help further: a "
    "saved id -> line offset index of the JSONL, a lighter import of Memory, or a long-running "
    "process (the MCP server) so nothing loads per query.",
    "p50": "Two exact vector queries over the flat copy (memory-bound: every row is read, "
    "~460 MB at 100k+100k), two BM25 queries, the refinement's vector lookups and the parse of "
    "the candidate records. What would help: int8 rows with an exact rescoring of the top "
    "candidates (numpy has no fast int8 matmul; onnxruntime's MatMulInteger would), or Chroma's "
    "HNSW index in a long-running process.",
    "facts_list_big": "Process start with Typer and rich (~0.25 s), then the saved order of the "
    "facts (ops/fact_order.py) is filtered and only the lines listed are read; --json parses "
    "and prints every fact (100k dicts: most of its time and memory).",
    "import": "See the stage shares: what is not embedding is parsing, segmentation, storage "
    "and the BM25 rebuild.",
    "locomo": "Embedding dominates: the local MiniLM reads every message once (about 290k "
    "tokens for LoCoMo) at roughly 2-5k tokens/s on this 2-core machine, less when other "
    "processes share it. What would get there: a smaller or distilled embedder, or an "
    "embedding server/GPU (windows already reuse the message vectors).",
    "peak": "onnxruntime's arena grows with rows x width^2 of a batch; batches are capped at "
    "2048 tokens (it was 1.7 GB with 32 rows of 256 tokens).",
    "delete_cli": "Python start (~0.25 s), finding the fact's line among 100k, the JSONL "
    "rewrite (~0.35 s) and the bm25s mask; Chroma's delete waits for its next write (the flat "
    "copy and the JSONL drop the fact at once), so chromadb is not imported. What would help: "
    "an append-only JSONL with tombstones instead of a rewrite.",
}
