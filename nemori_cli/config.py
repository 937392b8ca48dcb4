"""Settings, built once from defaults < config file < NEMORI_* env vars < options."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from nemori_cli.errors import ConfigError, UsageError

APP_NAME = "nemori"
USER_ID_RE = re.compile(r"^[A-Za-z0-9_.@-]{1,128}$")
SECRET_HINTS = ("key", "token", "secret", "password")


@dataclass(frozen=True)
class Range:
    """The values a number setting may take (and its command-line option, where it has one)."""

    low: float | None = None
    high: float | None = None
    above: bool = False  # low itself is not allowed

    def fault(self, value: float) -> str | None:
        """What is wrong with a value ("must be at least 1"), or None when it is in range."""
        low, high = self.low, self.high
        if (low is None or value > low or (value == low and not self.above)) and (
            high is None or value <= high
        ):
            return None
        return f"must be {self.describe()}"

    def describe(self) -> str:
        """The range in words: "at least 1", "between 0 and 1"."""
        low, high = self.low, self.high
        if low is not None and high is not None:
            return f"between {low:g} and {high:g}"
        if low is not None:
            return f"{'more than' if self.above else 'at least'} {low:g}"
        return f"at most {high:g}" if high is not None else "any number"


RANGES = {  # the number settings' limits; the options that set them (--workers) use these too
    "gap_minutes": Range(0),
    "max_episode_messages": Range(1),
    "topic_shift_threshold": Range(0),
    "dedup_threshold": Range(0, 1),  # a cosine similarity
    "workers": Range(1),
    "llm_timeout": Range(0, above=True),
    "llm_retries": Range(0),
    "llm_context": Range(0),
    "llm_max_tokens_segment": Range(1),
    "llm_max_tokens_episode": Range(1),
    "llm_max_tokens_prediction": Range(1),
    "lock_timeout": Range(0),
}


@dataclass(frozen=True)
class Settings:
    """Everything nemori can be configured with; one instance is passed down."""

    data_dir: Path
    user: str = "me"
    llm_model: str | None = None
    llm_base_url: str | None = None
    llm_api_key: str | None = None
    embed_model: str | None = None  # None: the local ONNX model
    chroma_url: str | None = None  # None: embedded Chroma under data_dir/chroma
    chroma_tenant: str | None = None
    chroma_database: str | None = None
    chroma_token: str | None = None
    # segmentation
    gap_minutes: float = 30.0
    max_episode_messages: int = 24
    topic_shift_threshold: float = 0.25
    # facts
    dedup_threshold: float = 0.92
    prediction_correction: bool = False
    # LLM calls
    workers: int = 4
    llm_timeout: float = 120.0  # until an answer's speed is measured; then sized to it
    llm_retries: int = 4
    llm_context: int = 0  # the model's context in tokens; 0: ask the server or litellm
    # the first rung of the format ladder: auto (by provider), grammar, schema, json or none
    llm_response_format: str = "auto"
    # the longest answer allowed per call (tokens); a longer one is cut and asked again
    llm_max_tokens_segment: int = 512
    llm_max_tokens_episode: int = 800
    llm_max_tokens_prediction: int = 1000
    # storage
    lock_timeout: float = 60.0
    cache_dir: str | None = None  # None: the platform cache dir (the model's fast graph)

    @property
    def extractor_name(self) -> str:
        """The extractor that new records are made by: "offline" or "llm:<model>"."""
        return f"llm:{self.llm_model}" if self.llm_model else "offline"

    def masked(self) -> dict[str, Any]:
        """Return the settings as a dict with secrets masked, for display."""
        out: dict[str, Any] = {}
        for k, v in asdict(self).items():
            # a text setting named like a secret; numbers (llm_max_tokens_*) are never secrets
            if isinstance(v, str) and any(h in k for h in SECRET_HINTS):
                v = "****"
            out[k] = str(v) if isinstance(v, Path) else v
        return out


def default_data_dir() -> Path:
    """The platform data dir for nemori (platformdirs)."""
    from platformdirs import user_data_path

    return user_data_path(APP_NAME, appauthor=False)


# what embed_model may say for the local model (compared lower-cased); unset says it too
LOCAL_MODEL_NAMES = frozenset(
    {"local", "local:all-minilm-l6-v2-int8", "all-minilm-l6-v2", "local:all-minilm-l6-v2"}
)


def is_local_model(embed_model: str | None) -> bool:
    """Whether an embed_model setting leaves the local model as the embedder."""
    name = (embed_model or "").strip().lower()
    return not name or name in LOCAL_MODEL_NAMES


def model_cache_dir(settings: Settings) -> Path:
    """Where derived copies of the local model are kept: cache_dir, else the platform's."""
    if settings.cache_dir:
        return Path(settings.cache_dir).expanduser() / "models"
    from platformdirs import user_cache_path

    return user_cache_path(APP_NAME, appauthor=False) / "models"


def default_config_file() -> Path:
    """The platform config file for nemori (platformdirs)."""
    from platformdirs import user_config_path

    return user_config_path(APP_NAME, appauthor=False) / "config.toml"


def validate_user_id(user: str) -> str:
    """Return the user id if it is safe as a folder name, else raise UsageError."""
    if not isinstance(user, str) or not USER_ID_RE.match(user) or user in {".", ".."}:
        raise UsageError(f"invalid user id {user!r}: use 1-128 letters, digits, '-', '_', '.', '@'")
    return user


_ENV = {
    "data_dir": "NEMORI_DATA_DIR",
    "user": "NEMORI_USER",
    "llm_model": "NEMORI_LLM_MODEL",
    "llm_base_url": "NEMORI_LLM_BASE_URL",
    "llm_api_key": "NEMORI_LLM_API_KEY",
    "embed_model": "NEMORI_EMBED_MODEL",
    "chroma_url": "NEMORI_CHROMA_URL",
    "chroma_tenant": "NEMORI_CHROMA_TENANT",
    "chroma_database": "NEMORI_CHROMA_DATABASE",
    "chroma_token": "NEMORI_CHROMA_TOKEN",
    "workers": "NEMORI_WORKERS",
    "lock_timeout": "NEMORI_LOCK_TIMEOUT",
    "dedup_threshold": "NEMORI_DEDUP_THRESHOLD",
    "prediction_correction": "NEMORI_PREDICTION_CORRECTION",
    "llm_context": "NEMORI_LLM_CONTEXT",
    "cache_dir": "NEMORI_CACHE_DIR",
}


def load_settings(
    overrides: Mapping[str, Any] | None = None,
    *,
    env: Mapping[str, str] | None = None,
    config_file: Path | None = None,
) -> Settings:
    """Build Settings from defaults, the config file, the environment and overrides."""
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    path = config_file or Path(env.get("NEMORI_CONFIG") or default_config_file())
    values.update(_read_config_file(path))
    origins = dict.fromkeys(values, str(path))  # where each value was set, for its error
    for name, var in _ENV.items():
        if env.get(var):
            values[name] = env[var]
            origins[name] = var
    given = {k: v for k, v in (overrides or {}).items() if v is not None}
    values.update(given)
    for name in given:  # an option or argument of the caller's: its error names only the setting
        origins.pop(name, None)
    values.setdefault("data_dir", default_data_dir())
    return _coerce(values, source=str(path), origins=origins)


def _read_config_file(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read config file: {exc}") from None
    return dict(data.get("nemori", data))


def _coerce(values: dict[str, Any], *, source: str, origins: Mapping[str, str]) -> Settings:
    known = {f.name: f for f in fields(Settings)}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ConfigError(f"{source}: unknown setting(s): {', '.join(unknown)}")
    settings = Settings(data_dir=Path(values.pop("data_dir")).expanduser())
    typed: dict[str, Any] = {}
    for name, raw in values.items():
        default = getattr(settings, name)
        where = f"{origins[name]}: " if name in origins else ""
        try:
            if isinstance(default, bool):
                typed[name] = (
                    raw if isinstance(raw, bool) else str(raw).lower() in {"1", "true", "yes", "on"}
                )
            elif isinstance(default, int):
                typed[name] = int(raw)
            elif isinstance(default, float):
                typed[name] = float(raw)
            else:
                typed[name] = None if raw in ("", None) else str(raw)
        except (TypeError, ValueError):
            raise ConfigError(f"{where}setting {name}: invalid value {raw!r}") from None
        wrong = RANGES[name].fault(typed[name]) if name in RANGES else None
        if wrong:
            raise ConfigError(f"{where}setting {name}: {wrong}, not {raw}")
    settings = replace(settings, **typed)
    validate_user_id(settings.user)
    return settings
