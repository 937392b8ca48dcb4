"""The local model's fast graph: int8 matrix products, in onnxruntime's own format.

The model ships with int8 weights that onnxruntime turns back into floats, so every product
runs in float32. Its fast graph quantises each product's input too (per text: every text is
run on its own) and multiplies in int8, about twice the speed on this kind of CPU, with
vectors within cosine 0.99 of the graph as shipped. It is made once from the shipped file
(whose sha256 was checked) into the cache dir, one copy per CPU (each is checked on the CPU
it runs on), and trusted while that file and the copy keep their size and modification time;
an ORT-format file also opens in half the time of the protobuf. The copy is derived:
deleting it costs one rebuild of a few seconds.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import orjson


@dataclass(frozen=True)
class GraphCopy:
    """Where the fast graph of one model file lives, and the stamp that says what it was made of."""

    source: Path
    path: Path

    @property
    def stamp(self) -> Path:
        return self.path.with_suffix(".json")

    def trusted(self) -> bool:
        """Whether the copy was made from this very source file, as it is now, and is whole."""
        try:
            stamp = orjson.loads(self.stamp.read_bytes())
            return stamp == self.made_of()
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
            tmp.write_bytes(orjson.dumps(self.made_of()))
            os.replace(tmp, self.stamp)
        except OSError:
            self.discard()
        finally:
            with contextlib.suppress(OSError):
                written.unlink(missing_ok=True)

    def made_of(self) -> dict[str, object]:
        """What the stamp must say: the source and the copy as they are now."""
        return {"source": identity(self.source), "copy": identity(self.path)}

    def discard(self) -> None:
        """Remove the copy and its stamp (an unreadable copy is made again next time)."""
        for path in (self.stamp, self.path):
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)


def identity(path: Path) -> list[int | str]:
    """What a file is taken to be unchanged by: its resolved path, size and mtime."""
    st = path.stat()
    return [str(path.resolve()), st.st_size, st.st_mtime_ns]


@functools.cache
def cpu_identity() -> str:
    """This CPU's model and instruction sets, hashed.

    A copy was checked against the shipped graph on the CPU that built it; int8 kernels
    differ by instruction set, so each CPU that shares a cache dir has a copy of its own.
    """
    described = os.uname().machine if hasattr(os, "uname") else os.environ.get(
        "PROCESSOR_IDENTIFIER", ""
    )
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(errors="replace").splitlines():
            if line.startswith(("model name", "flags", "Features")):
                described += "\n" + line.split(":", 1)[-1].strip()
            elif not line.strip() and "\n" in described:  # the first processor is enough
                break
    return hashlib.sha256(described.encode()).hexdigest()[:16]


def graph_copy(source: Path, sha256: str, runtime_version: str, cache_dir: Path) -> GraphCopy:
    """The fast graph of a model file for this onnxruntime version (the format follows it)
    and this CPU (it was checked on it)."""
    name = f"{source.stem}-{sha256[:16]}-{RECIPE}-ort{runtime_version}-{cpu_identity()}.ort"
    return GraphCopy(source, cache_dir / name)


RECIPE = "dq3"  # names how make_graph builds the copy; a new recipe makes new copies
# The graphs make_graph can build, fastest first. On a CPU without VNNI, onnxruntime's int8
# products can saturate 16-bit sums; 7-bit weights cannot. The last is the graph as shipped.
GRAPH_KINDS = ("int8", "int8, 7-bit weights", "shipped")


@functools.cache
def process_cache_dir() -> Path:
    """A private temporary dir for this process's copies, removed at exit (no cache dir)."""
    path = Path(tempfile.mkdtemp(prefix="nemori-model-"))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def make_graph(source: Path, out: Path, kind: str = GRAPH_KINDS[0]) -> None:
    """Write a graph of the model file source (one of GRAPH_KINDS) to out, in ORT format."""
    import onnxruntime as ort

    extended = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    if kind == "shipped":
        _save(source, out, extended, ort_format=True)
        return
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".build-") as tmp:
        floats, quantised = Path(tmp) / "floats.onnx", Path(tmp) / "quantised.onnx"
        # basic optimisation folds the shipped int8 weights into the float weights they stand for
        _save(source, floats, ort.GraphOptimizationLevel.ORT_ENABLE_BASIC, ort_format=False)
        logging.disable(logging.WARNING)  # the quantiser's advice on pre-processing
        try:
            # per-channel weights: per-tensor scales cost cosine 0.95 against the shipped graph;
            # the token tables stay int8 too (a 23 MB graph that loads in ~20 ms, not 58 MB)
            quantize_dynamic(
                floats,
                quantised,
                weight_type=QuantType.QInt8,
                op_types_to_quantize=["MatMul", "Gather"],
                per_channel=True,
                reduce_range=kind != "int8",
            )
        finally:
            logging.disable(logging.NOTSET)
        # extended, not all: the saved graph holds no layout particular to this CPU
        _save(quantised, out, extended, ort_format=True)


def _save(source: Path, out: Path, level: object, *, ort_format: bool) -> None:
    """Have onnxruntime load source at an optimisation level and write the graph it runs."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = level
    options.log_severity_level = 3
    options.optimized_model_filepath = str(out)
    if ort_format:
        options.add_session_config_entry("session.save_model_format", "ORT")
    ort.InferenceSession(str(source), sess_options=options, providers=["CPUExecutionProvider"])
