"""Settings from the config file and the environment are held to the same limits as the options."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer.main
from cli_runner import cli

from nemori_cli.cli.app import app
from nemori_cli.config import RANGES, load_settings
from nemori_cli.errors import ConfigError


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("dedup_threshold = -1", "setting dedup_threshold: must be between 0 and 1, not -1"),
        ("dedup_threshold = 7", "setting dedup_threshold: must be between 0 and 1, not 7"),
        ("max_episode_messages = 0", "setting max_episode_messages: must be at least 1, not 0"),
        ("gap_minutes = -5", "setting gap_minutes: must be at least 0, not -5"),
        ("workers = 0", "setting workers: must be at least 1, not 0"),
        ("llm_timeout = 0", "setting llm_timeout: must be more than 0, not 0"),
    ],
)
def test_an_out_of_range_config_value_is_an_error_naming_the_file(
    tmp_path: Path, line: str, said: str
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(line + "\n")
    with pytest.raises(ConfigError) as raised:
        load_settings({}, env={}, config_file=config)
    assert str(raised.value) == f"{config}: {said}"


def test_the_cli_says_a_bad_setting_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("dedup_threshold = -1\n")
    monkeypatch.setenv("NEMORI_CONFIG", str(config))
    code, out, err = cli("ingest", str(tmp_path / "nothing-here"))
    assert code == 1 and out == ""
    assert err == f"error: {config}: setting dedup_threshold: must be between 0 and 1, not -1\n"


def test_an_out_of_range_environment_value_names_the_variable() -> None:
    with pytest.raises(ConfigError, match="^NEMORI_DEDUP_THRESHOLD: setting dedup_threshold: "):
        load_settings({}, env={"NEMORI_DEDUP_THRESHOLD": "7"}, config_file=Path("/nonexistent"))
    with pytest.raises(ConfigError, match="^NEMORI_WORKERS: setting workers: invalid value"):
        load_settings({}, env={"NEMORI_WORKERS": "many"}, config_file=Path("/nonexistent"))


def test_values_in_range_load_and_the_workers_option_uses_the_same_limit(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("dedup_threshold = 1\ngap_minutes = 0\nmax_episode_messages = 1\n")
    settings = load_settings({}, env={}, config_file=config)
    assert (settings.dedup_threshold, settings.gap_minutes) == (1.0, 0.0)
    root = typer.main.get_command(app)
    for name in ("ingest", "backfill"):
        [workers] = [p for p in root.commands[name].params if p.name == "workers"]  # type: ignore[attr-defined]
        assert workers.type.min == RANGES["workers"].low  # type: ignore[attr-defined]
