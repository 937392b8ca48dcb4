"""What an ingest embeds, by kind: texts, tokens, and each kind's share of the floor.

    python bench/embed_kinds.py                 # LoCoMo offline, facts on, the local model
    python bench/embed_kinds.py --time          # also replay each kind alone (its floor)
    python bench/embed_kinds.py --export-mb 20  # a generated ChatGPT export, --no-facts,
                                                # counted with the hashing stand-in (no model)
    python bench/embed_kinds.py --save A.json   # keep the texts (then, with other code, B.json)
    python bench/embed_kinds.py --compare A.json B.json  # replay both in turn, one process

Only the texts the embedder is actually sent are counted (after the run's embedding cache).
Kinds: message openings embedded for segmentation or for an episode's windows, an episode's
own document (`#0`: title, and the narrative when it is short), passages of long messages,
facts, and queries (prediction-correction). Tokens are the local model's (truncated at 256,
with [CLS] and [SEP]); the model's time per text grows with its tokens.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ingest_floor import cpu_s  # noqa: E402

KINDS = ("opening (segmentation)", "opening (windows)", "episode #0", "passage", "fact", "query")


class KindRecorder:
    """An embedder that notes each text it is sent under the kind its caller is making."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self.labels: list[str] = []  # the innermost labelled caller is last
        self.doc_kinds: dict[str, str] = {}  # text -> kind, of the episode docs being built
        self.texts: dict[str, list[str]] = defaultdict(list)

    def embed(self, texts: Sequence[str]) -> Any:
        texts = list(texts)
        label = self.labels[-1] if self.labels else "other"
        for t in texts:
            kind = self.doc_kinds.get(t, "opening (windows)") if label == "docs" else label
            self.texts[kind].append(t)
        return self.inner.embed(texts)

    def labelled(self, label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        """fn, with its embed calls counted under label."""

        @functools.wraps(fn)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            self.labels.append(label)
            try:
                return fn(*args, **kwargs)
            finally:
                self.labels.pop()

        return wrapped


def install(recorder: KindRecorder) -> None:
    """Patch the ingest's embedding call sites so the recorder knows what each text is."""
    import nemori_cli.indexing as indexing
    import nemori_cli.ops.ingest as ingest
    from nemori_cli.ops.ingest import IngestRun
    from nemori_cli.pipeline.offline import OfflineExtractor

    laid_out = indexing.episode_texts

    def episode_texts(episodes: Any) -> Any:
        laid = laid_out(episodes)
        recorder.doc_kinds = {}
        for doc_id, parts in zip(laid.ids, laid.parts, strict=True):
            tail = doc_id.rsplit("#", 1)[1]
            kind = "episode #0" if tail == "0" else "passage" if tail.startswith("m") else ""
            for t in parts:
                if kind and recorder.doc_kinds.get(t) != "episode #0":
                    recorder.doc_kinds[t] = kind
        return laid

    indexing.episode_texts = episode_texts  # type: ignore[assignment]
    ingest.episode_docs = recorder.labelled("docs", ingest.episode_docs)  # type: ignore[assignment]
    indexing.episode_docs = recorder.labelled("docs", indexing.episode_docs)  # type: ignore[assignment]
    for owner, name, label in (
        (OfflineExtractor, "message_vectors", "opening (segmentation)"),
        (IngestRun, "_store_extractions", "fact"),
        (IngestRun, "related_facts", "query"),
    ):
        setattr(owner, name, recorder.labelled(label, getattr(owner, name)))


def tokens(texts: list[str]) -> int:
    """The local model's tokens of the texts (as it truncates them)."""
    from tokenizers import Tokenizer

    from nemori_cli.embed import MAX_TOKENS, TOKENIZER_PATH

    tok = Tokenizer.from_file(str(TOKENIZER_PATH))
    tok.enable_truncation(max_length=MAX_TOKENS)
    tok.no_padding()
    return sum(len(e.ids) for e in tok.encode_batch(texts)) if texts else 0


def replay(texts: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of a fresh local model embedding texts, 512 a call."""
    from nemori_cli.embed import LocalEmbedder

    model = LocalEmbedder()
    model.embed(["warm up the session"])
    t, c = time.perf_counter(), cpu_s()
    for start in range(0, len(texts), 512):
        model.embed(texts[start : start + 512])
    return time.perf_counter() - t, cpu_s() - c


def run_locomo(tmp: Path, stand_in: bool) -> KindRecorder:
    """Ingest the ten LoCoMo samples offline with facts (as perf.py's locomo item does)."""
    import locomo_data

    files = dict(locomo_data.write_nemori_files(tmp / "convs"))
    memory, recorder = open_memory(tmp / "data", stand_in)
    for uid, path in sorted(files.items()):
        s = memory.ingest([str(path)], user=uid, facts=True)
        if s.failed:
            raise SystemExit(f"ingest of {uid} failed: {s.failed}")
    return recorder


def run_export(tmp: Path, megabytes: int, stand_in: bool) -> KindRecorder:
    """Ingest a generated ChatGPT export with --no-facts (as import_large.py does)."""
    import import_large

    path = str(tmp / "conversations.json")
    import_large.generate(path, megabytes)
    memory, recorder = open_memory(tmp / "data", stand_in)
    s = memory.ingest([path], facts=False)
    if s.failed:
        raise SystemExit(f"ingest failed: {s.failed[:3]}")
    return recorder


def open_memory(data: Path, stand_in: bool) -> tuple[Any, KindRecorder]:
    """A Memory whose embedder (behind the run's cache) is a recorder."""
    from nemori_cli.config import load_settings, model_cache_dir
    from nemori_cli.embed import LOCAL_MODEL_ID, CachedEmbedder, LocalEmbedder
    from nemori_cli.memory import Memory

    if stand_in:
        from synth_store import HashEmbedder

        inner: Any = HashEmbedder(LOCAL_MODEL_ID)
    else:
        inner = LocalEmbedder(cache_dir=model_cache_dir(load_settings({})))
    recorder = KindRecorder(inner)
    install(recorder)
    return Memory.open(data_dir=data, embedder=CachedEmbedder(recorder)), recorder


def table(recorder: KindRecorder, timed: bool) -> list[str]:
    """The markdown table of the recorded texts by kind."""
    rows, total_tok, total_s = [], 0, 0.0
    stats = {}
    for kind in [k for k in (*KINDS, "other") if recorder.texts.get(k)]:
        texts = recorder.texts[kind]
        tok = tokens(texts)
        wall = replay(texts)[0] if timed else 0.0
        stats[kind] = (len(texts), tok, wall)
        total_tok += tok
        total_s += wall
    head = "| kind | texts | tokens | tokens/text | token share |"
    rule = "|---|---:|---:|---:|---:|"
    if timed:
        head += " floor (alone) | floor share |"
        rule += "---:|---:|"
    rows += [head, rule]
    for kind, (n, tok, wall) in stats.items():
        row = f"| {kind} | {n:,} | {tok:,} | {tok / n:.0f} | {tok / total_tok:.0%} |"
        if timed:
            row += f" {wall:.1f} s | {wall / total_s:.0%} |"
        rows.append(row)
    n_all = sum(s[0] for s in stats.values())
    last = f"| all | {n_all:,} | {total_tok:,} | {total_tok / max(n_all, 1):.0f} | 100% |"
    rows.append(last + (f" {total_s:.1f} s | 100% |" if timed else ""))
    return rows


def compare(paths: list[str], rounds: int) -> list[str]:
    """Replay saved text sets in turn, rounds times, in one process: the floors' ratio."""
    sets = [[t for texts in json.loads(Path(p).read_text()).values() for t in texts]
            for p in paths]
    runs: list[list[tuple[float, float]]] = [[] for _ in sets]
    for _ in range(rounds):
        for i, texts in enumerate(sets):
            runs[i].append(replay(texts))
    rows = ["| texts saved in | texts | tokens | floor wall (median) | floor CPU (median) |",
            "|---|---:|---:|---:|---:|"]
    for path, texts, got in zip(paths, sets, runs, strict=True):
        wall = sorted(w for w, _ in got)[len(got) // 2]
        cpu = sorted(c for _, c in got)[len(got) // 2]
        rows.append(f"| {Path(path).name} | {len(texts):,} | {tokens(texts):,} | "
                    f"{wall:.1f} s | {cpu:.1f} s |")
    rows.append("rounds (wall, CPU s): " + "; ".join(
        f"{Path(p).name}: " + ", ".join(f"{w:.1f}/{c:.1f}" for w, c in got)
        for p, got in zip(paths, runs, strict=True)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--export-mb", type=int, help="a generated ChatGPT export instead of LoCoMo")
    ap.add_argument("--stand-in", action="store_true",
                    help="the hashing stand-in instead of the local model (counts only)")
    ap.add_argument("--time", action="store_true", help="replay each kind alone, timed")
    ap.add_argument("--save", help="write the recorded texts by kind to this JSON file")
    ap.add_argument("--compare", nargs="+", help="replay these saved text sets in turn")
    ap.add_argument("--rounds", type=int, default=3, help="--compare's rounds (median)")
    args = ap.parse_args()
    if args.compare:
        load = os.getloadavg()[0]
        print("\n".join(compare(args.compare, args.rounds)))
        print(f"load average (1 min): {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
        return
    stand_in = args.stand_in or bool(args.export_mb)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="nemori-embed-kinds-") as tmp:
        if args.export_mb:
            recorder = run_export(Path(tmp), args.export_mb, stand_in)
        else:
            recorder = run_locomo(Path(tmp), stand_in)
    if args.save:
        Path(args.save).write_text(json.dumps(recorder.texts))
    print("\n".join(table(recorder, args.time)))
    print(f"load average (1 min): {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
