"""Shared fixtures: every test gets its own data dir and a clean NEMORI_* environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

REPO = Path(__file__).resolve().parent.parent
SAMPLE_CHATS = REPO / "sample_chats"


@pytest.fixture(scope="session", autouse=True)
def model_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache dir for the whole run (the model's fast graph is built once, not per test,
    and never in the user's own cache), set before any session fixture runs nemori."""
    path = tmp_path_factory.mktemp("cache")
    os.environ["NEMORI_CACHE_DIR"] = str(path)
    return path


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, model_cache: Path) -> None:
    """Point nemori at a temporary data, config and cache dir; drop the caller's NEMORI_*."""
    for var in list(os.environ):
        if var.startswith("NEMORI_"):
            monkeypatch.delenv(var)
    monkeypatch.setenv("NEMORI_CONFIG", str(tmp_path / "no-config.toml"))
    monkeypatch.setenv("NEMORI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("NEMORI_CACHE_DIR", str(model_cache))


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """The temporary data dir that the isolated environment points at."""
    return tmp_path / "data"


@pytest.fixture(scope="session")
def sample_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store built once from sample_chats/ for the fault tests: copy it, never change it."""
    from store_check import run

    data = tmp_path_factory.mktemp("sample-store") / "data"
    built = run(["ingest", str(SAMPLE_CHATS)], data)
    assert built.returncode == 0, built.stderr
    return data
