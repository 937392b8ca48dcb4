"""Hybrid retrieval: vector and BM25 candidates, fused, filtered and refined."""
