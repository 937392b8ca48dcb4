"""A quick-loading copy of the local model: its graph as stored, in onnxruntime's own format.

onnxruntime opens an ORT-format file (a flatbuffer) in about half the time it takes to parse
the ONNX protobuf, and a copy made from a file whose sha256 was checked is trusted while that
file and the copy keep their size and modification time: a cold `nemori search` then neither
parses the protobuf nor hashes 23 MB. The copy is derived: deleting it costs one slower load.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

import orjson


@dataclass(frozen=True)
class GraphCopy:
    """Where the ORT copy of one model file lives, and the stamp that says what it was made of."""

    source: Path
    path: Path

    @property
    def stamp(self) -> Path:
        return self.path.with_suffix(".json")

    def trusted(self) -> bool:
        """Whether the copy was made from this very source file, as it is now, and is whole."""
        try:
            stamp = orjson.loads(self.stamp.read_bytes())
            return stamp == {"source": identity(self.source), "copy": identity(self.path)}
        except (OSError, orjson.JSONDecodeError):
            return False

    def scratch(self) -> Path | None:
        """A fresh path in the cache dir for onnxruntime to write a new copy to (None if the
        cache dir cannot be made)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError:
            return None
        return self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")

    def commit(self, written: Path) -> None:
        """Put a newly written copy in place with its stamp; a failure leaves no copy."""
        try:
            os.replace(written, self.path)
            tmp = self.stamp.with_name(f".{self.stamp.name}.{os.getpid()}.tmp")
            tmp.write_bytes(
                orjson.dumps({"source": identity(self.source), "copy": identity(self.path)})
            )
            os.replace(tmp, self.stamp)
        except OSError:
            self.discard()
        finally:
            with contextlib.suppress(OSError):
                written.unlink(missing_ok=True)

    def discard(self) -> None:
        """Remove the copy and its stamp (an unreadable copy is made again next time)."""
        for path in (self.stamp, self.path):
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)


def identity(path: Path) -> list[int | str]:
    """What a file is taken to be unchanged by: its resolved path, size and mtime."""
    st = path.stat()
    return [str(path.resolve()), st.st_size, st.st_mtime_ns]


def graph_copy(source: Path, sha256: str, runtime_version: str, cache_dir: Path) -> GraphCopy:
    """The copy of a model file for this onnxruntime version (the format follows the runtime)."""
    name = f"{source.stem}-{sha256[:16]}-ort{runtime_version}.ort"
    return GraphCopy(source, cache_dir / name)
