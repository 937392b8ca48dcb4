"""Import a generated ~200 MB ChatGPT export and print wall time and peak memory.

    python bench/import_large.py [--mb 200] [--whole] [--ingest]

The export is written to a temp dir, then read in a fresh child process (so the generator's
memory does not count): open_source(...).conversations() over every conversation, nothing
stored. --whole parses the file in one piece instead of one conversation at a time, to compare.
--ingest also ingests it with --no-facts into a temp data dir (segmentation, embedding, storage
and indexing) and reports its wall and CPU time, peak RSS, stage shares, and its floor: the local
model alone on the same texts (bench/ingest_floor.py). `--mb 5` is a quick check.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import orjson

PHRASES = (
    "the hike to the refuge took six hours and we camped near the lake before the pass",
    "je voudrais réserver une chambre pour deux nuits à Chamonix près du téléphérique",
    "python asyncio gather cancels the remaining tasks when one raises unless you pass",
    "return_exceptions my sister moved to Lyon last spring and 🙂 loves her new job",
)
WORDS = [word for phrase in PHRASES for word in phrase.split()]


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def _node(node_id: str, parent: str | None, children: list[str], message: Any) -> dict:
    return {"id": node_id, "message": message, "parent": parent, "children": children}


def _message(rng: random.Random, role: str, when: float, text: str) -> dict:
    meta: dict[str, Any] = {"request_id": uuid.UUID(int=rng.getrandbits(128)).hex,
                            "timestamp_": "absolute", "message_type": None}
    if role == "assistant":
        meta.update({
            "finish_details": {"type": "stop", "stop_tokens": [200002]},
            "is_complete": True, "citations": [], "content_references": [],
            "model_slug": "gpt-4o", "default_model_slug": "gpt-4o", "parent_id": "x" * 36,
        })
    return {
        "id": str(uuid.UUID(int=rng.getrandbits(128))),
        "author": {"role": role, "name": None, "metadata": {}},
        "create_time": when, "update_time": None,
        "content": {"content_type": "text", "parts": [text]},
        "status": "finished_successfully", "end_turn": role == "assistant" or None,
        "weight": 1.0, "metadata": meta, "recipient": "all", "channel": None,
    }


def conversation(rng: random.Random, start: float) -> dict:
    """Build one conversation: a hidden system root, then 10-40 alternating turns."""
    ids = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(rng.randint(12, 42))]
    mapping = {}
    system = _message(rng, "system", start, "")
    system["metadata"]["is_visually_hidden_from_conversation"] = True
    mapping[ids[0]] = _node(ids[0], None, [ids[1]], None)
    mapping[ids[1]] = _node(ids[1], ids[0], [ids[2]], system)
    for i in range(2, len(ids)):
        role = "user" if i % 2 == 0 else "assistant"
        words = rng.randint(8, 60) if role == "user" else rng.randint(40, 260)
        msg = _message(rng, role, start + 30 * i, _text(rng, words))
        kids = [ids[i + 1]] if i + 1 < len(ids) else []
        mapping[ids[i]] = _node(ids[i], ids[i - 1], kids, msg)
    return {
        "title": _text(rng, 4), "create_time": start, "update_time": start + 3600,
        "mapping": mapping, "moderation_results": [], "current_node": ids[-1],
        "plugin_ids": None, "conversation_id": str(uuid.UUID(int=rng.getrandbits(128))),
        "conversation_template_id": None, "gizmo_id": None, "is_archived": False,
        "safe_urls": [], "default_model_slug": "gpt-4o",
        "id": str(uuid.UUID(int=rng.getrandbits(128))),
    }


def generate(path: str, megabytes: int) -> int:
    """Write a ChatGPT-shaped conversations.json of about this size; return the count."""
    rng = random.Random(7)
    target = megabytes * 1024 * 1024
    count, written, start = 0, 0, 1.70e9
    with open(path, "wb") as fh:
        fh.write(b"[")
        while written < target:
            blob = orjson.dumps(conversation(rng, start + count * 5000))
            if count:
                fh.write(b", ")
            fh.write(blob)
            written += len(blob) + 2
            count += 1
        fh.write(b"]")
    return count


def measure(path: str, whole: bool) -> dict:
    """Import every conversation of the file and report counts, time and peak RSS."""
    from nemori_cli.importers import open_source, payload

    if whole:
        payload.BIG = 1 << 62
    began = time.perf_counter()
    source = open_source(path)
    opened = time.perf_counter() - began
    conversations = messages = 0
    for conv in source.conversations():
        conversations += 1
        messages += len(conv.messages)
    seconds = time.perf_counter() - began
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "format": source.format, "conversations": conversations, "messages": messages,
        "open_seconds": round(opened, 2), "seconds": round(seconds, 2),
        "peak_rss_mb": round(peak_kb / 1024), "mode": "whole" if whole else "streamed",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200, help="size of the generated export")
    parser.add_argument("--whole", action="store_true", help="parse the file in one piece")
    parser.add_argument("--ingest", action="store_true", help="also run nemori ingest --no-facts")
    parser.add_argument("--stand-in", action="store_true",
                        help="with --ingest: the hashing stand-in embedder, for memory only")
    parser.add_argument("--measure", metavar="FILE", help=argparse.SUPPRESS)
    parser.add_argument("--memory-child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.whole)))
        return
    if args.memory_child:
        print(json.dumps(memory_child(*args.memory_child)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "conversations.json")
        began = time.perf_counter()
        count = generate(path, args.mb)
        size_mb = os.path.getsize(path) / 1024 / 1024
        print(f"generated {size_mb:.0f} MB, {count} conversations "
              f"in {time.perf_counter() - began:.1f} s")
        cmd = [sys.executable, __file__, "--measure", path] + (["--whole"] if args.whole else [])
        result = json.loads(subprocess.run(cmd, check=True, capture_output=True).stdout)
        print(f"{result['mode']}: {result['conversations']} conversations, "
              f"{result['messages']} messages in {result['seconds']} s "
              f"(open {result['open_seconds']} s), peak RSS {result['peak_rss_mb']} MB")
        if args.ingest and args.stand_in:
            ingest_stand_in(path, os.path.join(tmp, "data"))
        elif args.ingest:
            ingest(path, os.path.join(tmp, "data"))


def memory_child(path: str, data_dir: str) -> dict:
    """Memory.ingest --no-facts with the stand-in embedder; peak memory by kind, sampled."""
    import threading

    from synth_store import HashEmbedder

    from nemori_cli.embed import LOCAL_MODEL_ID
    from nemori_cli.memory import Memory

    try:  # as the console script does for a writing command (absent before native_memory)
        from nemori_cli.native_memory import limit_arenas

        limit_arenas()
    except ImportError:
        pass
    peak = {"VmRSS": 0, "RssAnon": 0, "RssFile": 0}

    def sample() -> None:
        while True:
            with open("/proc/self/status") as fh:
                for line in fh:
                    key = line.split(":")[0]
                    if key in peak:
                        peak[key] = max(peak[key], int(line.split()[1]) // 1024)
            time.sleep(0.2)

    threading.Thread(target=sample, daemon=True).start()
    memory = Memory.open(data_dir=Path(data_dir), embedder=HashEmbedder(LOCAL_MODEL_ID))
    began = time.perf_counter()
    summary = memory.ingest([path], facts=False)
    time.sleep(0.3)
    return {"seconds": time.perf_counter() - began, "messages": summary.messages,
            "episodes": summary.episodes, "peak_mb": peak}


def ingest_stand_in(path: str, data_dir: str) -> None:
    """The ingest's memory without the local model's time: everything else is nemori's own."""
    cmd = [sys.executable, __file__, "--memory-child", path, data_dir]
    r = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True)
                   .stdout.strip().splitlines()[-1])
    print(f"ingest --no-facts, stand-in embedder: {r['messages']} messages, {r['episodes']} "
          f"episodes in {r['seconds']:.0f} s; peak MB (VmRSS, RssAnon, RssFile): {r['peak_mb']}")


def ingest(path: str, data_dir: str) -> None:
    """Ingest with --no-facts in a child process (Memory.ingest, what `nemori ingest` runs);
    print wall and CPU time, peak RSS, stage shares, and the floor measured in the same run."""
    perf = os.path.join(os.path.dirname(os.path.abspath(__file__)), "perf.py")
    cmd = [sys.executable, perf, "--child", "ingest", data_dir, "0", path]
    load = Path("/proc/loadavg").read_text().strip()
    proc = subprocess.run(cmd, check=True, capture_output=True, text=True)
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    secs, floor = r["seconds"], r["floor_s"]
    print(f"ingest --no-facts: {r['conversations']} conversations, {r['messages']} messages, "
          f"{r['episodes']} episodes in {secs:.0f} s ({r['messages'] / secs:.0f} messages/s, "
          f"CPU {r['cpu_s']:.0f} s), peak RSS {r['peak_mb']:.0f} MB")
    print(f"floor (the local model alone on the {r['embedded_texts']} texts it embedded, "
          f"{r['embed_calls']} calls): {floor:.0f} s, CPU {r['floor_cpu_s']:.0f} s; "
          f"ratio {secs / floor:.2f}x wall, {r['cpu_s'] / r['floor_cpu_s']:.2f}x CPU")
    print("stage shares: " + ", ".join(f"{k} {v:.0%}" for k, v in r["shares"].items()))
    print(f"load average before: {load}; after: {Path('/proc/loadavg').read_text().strip()}")


if __name__ == "__main__":
    main()
