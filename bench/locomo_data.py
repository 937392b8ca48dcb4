"""Convert LoCoMo (snap-research/LoCoMo, data/locomo10.json) to the nemori JSON import format.

One nemori conversation per LoCoMo session, one nemori user per sample. Messages keep the
dialogue id (`D<session>:<turn>`) as their id, the speaker's name as `name`, role "user", and a
timestamp from `session_N_date_time` with turns a minute apart. Image captions are appended as
"[shared a photo: ...]". The data is CC BY-NC 4.0: read it from ../shared/data, never copy it
into the repository.

    sys.path.insert(0, "bench")  # bench/ is a folder of scripts, not a package
    from locomo_data import load_samples, sample_to_nemori, write_nemori_files
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

# /work/main/bench or /work/wt/<name>/bench: the shared data sits under /work/shared
DEFAULT_PATH = next(
    (
        p / "shared" / "data" / "locomo10.json"
        for p in Path(__file__).resolve().parents
        if (p / "shared" / "data" / "locomo10.json").exists()
    ),
    Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo10.json",
)
_SESSION_KEY = re.compile(r"^session_(\d+)$")
_TURN_GAP = timedelta(minutes=1)


def load_samples(path: Path | str = DEFAULT_PATH) -> list[dict[str, Any]]:
    """Read the LoCoMo samples (a JSON list)."""
    with open(path, encoding="utf-8") as fh:
        samples = json.load(fh)
    if not isinstance(samples, list):
        raise ValueError(f"{path}: expected a JSON list of LoCoMo samples")
    return samples


def user_id(sample: dict[str, Any]) -> str:
    """The nemori user id of a sample (its sample_id, e.g. "conv-26")."""
    return str(sample["sample_id"])


def parse_session_time(text: str) -> datetime | None:
    """Parse a LoCoMo date such as "1:56 pm on 8 May, 2023" (as UTC); None when unreadable."""
    cleaned = " ".join(text.replace(",", " ").split())
    for fmt in ("%I:%M %p on %d %B %Y", "%I:%M%p on %d %B %Y", "%H:%M on %d %B %Y"):
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    return None


def sessions(sample: dict[str, Any]) -> Iterator[tuple[int, list[dict[str, Any]], str | None]]:
    """Yield (session number, turns, date text) in session order, skipping empty sessions."""
    conv = sample["conversation"]
    numbers = sorted(int(m.group(1)) for key in conv if (m := _SESSION_KEY.match(key)))
    for n in numbers:
        turns = conv.get(f"session_{n}") or []
        if turns:
            yield n, turns, conv.get(f"session_{n}_date_time")


def turn_text(turn: dict[str, Any]) -> str:
    """A turn's text with its image caption, if any, appended."""
    text = str(turn.get("text") or "").strip()
    caption = str(turn.get("blip_caption") or "").strip()
    if caption:
        text = f"{text} [shared a photo: {caption}]".strip()
    return text


def sample_to_nemori(sample: dict[str, Any]) -> dict[str, Any]:
    """One sample as a nemori JSON document: {"conversations": [...]}, one per session."""
    conv = sample["conversation"]
    sid = user_id(sample)
    out: list[dict[str, Any]] = []
    for n, turns, when_text in sessions(sample):
        start = parse_session_time(when_text) if when_text else None
        messages = []
        for i, turn in enumerate(turns):
            msg: dict[str, Any] = {
                "id": str(turn["dia_id"]),
                "role": "user",
                "name": str(turn.get("speaker") or ""),
                "content": turn_text(turn),
            }
            if start is not None:
                msg["timestamp"] = (start + i * _TURN_GAP).isoformat().replace("+00:00", "Z")
            messages.append(msg)
        out.append(
            {
                "id": f"{sid}-session-{n}",
                "title": f"{conv.get('speaker_a')} and {conv.get('speaker_b')}, session {n}",
                "messages": messages,
            }
        )
    return {"conversations": out}


def turn_count(samples: list[dict[str, Any]]) -> int:
    """Number of dialogue turns over all samples."""
    return sum(len(turns) for s in samples for _, turns, _ in sessions(s))


def write_nemori_files(
    folder: Path | str, path: Path | str = DEFAULT_PATH, *, limit: int | None = None
) -> list[tuple[str, Path]]:
    """Write one nemori JSON file per sample into folder; return (user id, file) pairs."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written: list[tuple[str, Path]] = []
    for sample in load_samples(path)[:limit]:
        target = folder / f"{user_id(sample)}.json"
        target.write_text(json.dumps(sample_to_nemori(sample), ensure_ascii=False), "utf-8")
        written.append((user_id(sample), target))
    return written
