"""The end-to-end flow against a real Chroma server (chroma run), and a server that is down."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from chroma_server import chroma_server_url, free_port  # noqa: F401  (the chroma_url fixture)
from cli_runner import cli, ingest_sample_chats
from store_check import child_environ

SAMPLE_CHATS = Path(__file__).resolve().parent.parent / "sample_chats"


def _client(url: str, **kwargs: str):  # type: ignore[no-untyped-def]
    """A Chroma client of our own, to look at what nemori stored on the server."""
    import chromadb
    from chromadb.config import Settings

    host, port = url.removeprefix("http://").split(":")
    return chromadb.HttpClient(host=host, port=int(port), **kwargs,
                               settings=Settings(anonymized_telemetry=False))


@pytest.fixture(scope="module")
def served(chroma_url: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir whose vectors live on the Chroma server, with sample_chats/ ingested."""
    data = tmp_path_factory.mktemp("served") / "data"
    ingest_sample_chats(data, NEMORI_CHROMA_URL=chroma_url)
    return data


def test_vectors_live_on_the_server_not_in_the_data_dir(served: Path, chroma_url: str) -> None:
    from nemori_cli.store.vector_index import collection_name

    assert not (served / "chroma").exists()
    client = _client(chroma_url)
    names = {c.name for c in client.list_collections()}
    assert {collection_name("me", "episode"), collection_name("me", "fact")} <= names
    assert client.get_collection(collection_name("me", "fact")).count() >= 5


def test_search_delete_and_reindex_against_the_server(
    served: Path, chroma_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ("--data-dir", str(served), "--chroma-url", chroma_url)
    code, out, err = cli(*base, "search", "hiking", "--json")
    assert code == 0, err
    before = json.loads(out)
    assert {h["kind"] for h in before} == {"episode", "fact"}
    fact = next(h for h in before if h["kind"] == "fact")
    assert "hik" in fact["content"].lower()

    code, _, err = cli(*base, "facts", "delete", fact["id"], "--yes")
    assert code == 0, err
    _, out, _ = cli(*base, "search", "hiking", "--json", "-k", "50")
    assert fact["id"] not in {h["id"] for h in json.loads(out)}

    _, out, _ = cli(*base, "search", "hiking", "--json")
    kept = json.loads(out)
    code, _, err = cli(*base, "reindex")
    assert code == 0, err
    _, out, _ = cli(*base, "search", "hiking", "--json")
    assert [(h["kind"], h["id"]) for h in json.loads(out)] == [(h["kind"], h["id"]) for h in kept]


def test_the_database_setting_chooses_where_collections_go(
    chroma_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import chromadb
    from chromadb.config import Settings

    from nemori_cli.store.vector_index import collection_name

    host, port = chroma_url.removeprefix("http://").split(":")
    admin = chromadb.AdminClient(Settings(
        chroma_api_impl="chromadb.api.fastapi.FastAPI", chroma_server_host=host,
        chroma_server_http_port=int(port), anonymized_telemetry=False))
    admin.create_database("team")
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "I play the cello on Sundays."}]))
    monkeypatch.setenv("NEMORI_CHROMA_DATABASE", "team")
    args = ("--data-dir", str(tmp_path / "d"), "--user", "cellist", "--chroma-url", chroma_url)
    code, _, err = cli(*args, "ingest", str(chat))
    assert code == 0, err
    name = collection_name("cellist", "episode")
    assert name in {c.name for c in _client(chroma_url, database="team").list_collections()}
    assert name not in {c.name for c in _client(chroma_url).list_collections()}

    monkeypatch.setenv("NEMORI_CHROMA_DATABASE", "nope")
    code, _, err = cli(*args, "search", "cello")
    assert code == 1 and chroma_url in err and "Database" in err and "Traceback" not in err


def test_a_server_that_is_down_is_a_one_line_error_naming_the_url(served: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    env = child_environ()
    env["NEMORI_CONFIG"] = os.environ["NEMORI_CONFIG"]  # the isolated one from conftest
    proc = subprocess.run(
        [sys.executable, "-m", "nemori_cli.cli.app", "--data-dir", str(served), "--chroma-url",
         url, "search", "hiking"],
        capture_output=True, text=True, env=env, check=False, timeout=120,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    lines = [x for x in proc.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and url in lines[0], proc.stderr
    assert proc.stdout == ""
