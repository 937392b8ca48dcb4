"""Privacy: a private data dir, no telemetry, no network when offline, no API key in any output."""

from __future__ import annotations

import ipaddress
import json
import os
import socket
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_runner import cli
from conftest import SAMPLE_CHATS
from fake_llm_server import FakeLLMServer, error

KEY = "sk-nemori-privacy-test-0123456789abcdef"


@pytest.fixture(autouse=True)
def _restore_umask() -> Iterator[None]:
    """main() sets the process umask to 077; give the other tests theirs back."""
    old = os.umask(0o022)
    os.umask(old)
    yield
    os.umask(old)




def _is_local(host: object) -> bool:
    if not isinstance(host, str) or host in ("localhost", ""):
        return True
    try:
        addr = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    return addr.is_loopback or addr.is_unspecified


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Fail (and record) every attempt to reach or resolve a host that is not this machine."""
    attempts: list[str] = []
    real_connect = socket.socket.connect
    real_getaddrinfo = socket.getaddrinfo

    def connect(self: socket.socket, address: object) -> None:
        host = address[0] if isinstance(address, tuple) else None
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_local(host):
            attempts.append(f"connect {address}")
            raise OSError("network disabled in this test")
        return real_connect(self, address)  # type: ignore[arg-type]

    def getaddrinfo(host: object, *args: object, **kwargs: object) -> object:
        if not _is_local(host):
            attempts.append(f"resolve {host}")
            raise socket.gaierror("network disabled in this test")
        return real_getaddrinfo(host, *args, **kwargs)  # type: ignore[arg-type]

    def create_connection(address: tuple[str, int], *args: object, **kwargs: object) -> object:
        if not _is_local(address[0]):
            attempts.append(f"create_connection {address}")
            raise OSError("network disabled in this test")
        return real_create_connection(address, *args, **kwargs)  # type: ignore[arg-type]

    real_create_connection = socket.create_connection
    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    return attempts


def test_the_guard_catches_a_connection(no_network: list[str]) -> None:
    with pytest.raises(OSError), socket.create_connection(("192.0.2.1", 443), timeout=1):
        pass
    assert no_network


def test_offline_ingest_and_search_open_no_network_connection(no_network: list[str]) -> None:
    code, _, err = cli("ingest", str(SAMPLE_CHATS / "alps-hiking-trip.json"))
    assert code == 0, err
    code, out, err = cli("search", "hiking", "--json")
    assert code == 0, err
    assert json.loads(out)
    assert no_network == []


def test_litellm_loads_without_network_and_without_callbacks(no_network: list[str]) -> None:
    from nemori_cli.pipeline.llm import load_litellm

    litellm = load_litellm()
    assert litellm.callbacks == [] and litellm.success_callback == []
    assert litellm.failure_callback == []
    assert no_network == []


def test_chroma_telemetry_is_off(data_dir: Path) -> None:
    from nemori_cli.memory import Memory

    client = Memory.open().parts.vectors().client  # type: ignore[attr-defined]
    assert client.get_settings().anonymized_telemetry is False


def test_data_dir_and_everything_in_it_is_private(data_dir: Path) -> None:
    os.umask(0o022)  # a permissive shell umask: nemori must not inherit it
    code, _, err = cli("ingest", str(SAMPLE_CHATS / "food-preferences.json"))
    assert code == 0, err
    assert cli("search", "food")[0] == 0
    seen = 0
    for folder, _dirs, files in os.walk(data_dir):
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700, folder
        for name in files:
            mode = stat.S_IMODE(os.lstat(os.path.join(folder, name)).st_mode)
            assert mode == 0o600, f"{folder}/{name}: {oct(mode)}"
            seen += 1
    assert seen > 10  # JSONL files, locks, Chroma's database and the bm25s indexes
    code, out, _ = cli("doctor", "--json")
    assert code == 0 and json.loads(out)["ok"], out


def test_config_show_masks_the_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEMORI_LLM_API_KEY", KEY)
    monkeypatch.setenv("NEMORI_CHROMA_TOKEN", KEY + "-chroma")
    for args in (("config", "show"), ("config", "show", "--json")):
        code, out, err = cli(*args)
        assert code == 0, err
        assert KEY not in out + err and "****" in out
    code, out, _ = cli("config", "show", "--json")
    shown = json.loads(out)
    assert shown["llm_api_key"] == shown["chroma_token"] == "****"
    # numbers named like tokens are limits, not secrets
    assert shown["llm_max_tokens_segment"] == 512 and shown["llm_max_tokens_episode"] == 800
    assert shown["llm_max_tokens_prediction"] == 1000


def test_an_llm_error_never_shows_the_api_key(
    monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    def echo_key(request: dict) -> object:  # providers do echo the key they were given
        return error(401, f"Incorrect API key provided: {KEY}. Bearer {KEY}")

    with FakeLLMServer(echo_key) as server:
        monkeypatch.setenv("NEMORI_LLM_MODEL", "openai/test-model")
        monkeypatch.setenv("NEMORI_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("NEMORI_LLM_API_KEY", KEY)
        code, out, err = cli("ingest", str(SAMPLE_CHATS / "food-preferences.json"), "--json")
        code2, out2, err2 = cli("backfill", "--json")
        assert server.requests, "the LLM was never called: the test proves nothing"
    assert KEY not in out + err + out2 + err2
    for folder, _dirs, files in os.walk(data_dir):
        for name in files:
            assert KEY.encode() not in Path(folder, name).read_bytes(), f"{folder}/{name}"
