"""Open a user's vector index: embedded Chroma with its flat copy, or a Chroma server."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from nemori_cli.config import validate_user_id
from nemori_cli.errors import BrokenIndex, StoreError, UsageError
from nemori_cli.store.chroma import ChromaVectorIndex
from nemori_cli.store.chroma_guard import is_disk_error, one_line
from nemori_cli.store.files import ensure_private_dir
from nemori_cli.store.flat import FlatVectors
from nemori_cli.store.mirrored import MirroredVectorIndex
from nemori_cli.store.vector_index import VectorIndex

if TYPE_CHECKING:
    from nemori_cli.config import Settings
    from nemori_cli.embed import Embedder


def quiet_chroma() -> None:
    # Chroma logs warnings (e.g. n_results capped) through logging; keep them off stdout.
    for name in ("chromadb", "chromadb.telemetry"):
        logging.getLogger(name).setLevel(logging.ERROR)


def open_vector_index(
    settings: Settings,
    user_id: str,
    embedder: Embedder,
    on_broken: Callable[[str], None] | None = None,
) -> VectorIndex:
    """Open the user's vector index: embedded under data_dir/chroma, or on settings.chroma_url.

    Embedded Chroma comes with a flat copy of its vectors (store/mirrored.py), and chromadb is
    imported only when a command needs Chroma itself. on_broken hears of a damaged flat copy.
    """
    validate_user_id(user_id)
    if settings.chroma_url is None:
        flat = FlatVectors(settings.data_dir / "flat" / user_id)
        return MirroredVectorIndex(
            flat,
            lambda: open_chroma(settings, user_id, embedder),
            embedder,
            chroma_dir=settings.data_dir / "chroma",
            on_broken=on_broken,
        )
    return open_chroma(settings, user_id, embedder)


def forget_chroma_clients() -> None:
    """Drop the Chroma clients this process keeps per path (after their folder moved)."""
    import sys

    if "chromadb" in sys.modules:
        from chromadb.api.client import SharedSystemClient

        SharedSystemClient.clear_system_cache()


# what a new Chroma store says when another process made its tables in the same instant
CREATION_RACE = "already exists"


def persistent_client(path: Path, chroma_settings: Any) -> Any:
    """An embedded Chroma client, waiting out another process that is creating the store."""
    import chromadb
    from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_fixed

    for attempt in Retrying(
        retry=retry_if_exception(lambda exc: CREATION_RACE in str(exc)),
        stop=stop_after_attempt(5),
        wait=wait_fixed(0.2),
        # a failed start stays in chromadb's per-path cache: the next try must not reuse it
        before_sleep=lambda _: forget_chroma_clients(),
        reraise=True,
    ):
        with attempt:
            return chromadb.PersistentClient(path=str(path), settings=chroma_settings)
    raise AssertionError("unreachable: Retrying returns or reraises")


def open_chroma(settings: Settings, user_id: str, embedder: Embedder) -> ChromaVectorIndex:
    """Open the user's Chroma collections: embedded under data_dir/chroma, or on the server."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    quiet_chroma()
    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.chroma_url is None:
        path = ensure_private_dir(settings.data_dir / "chroma")

        def fresh_client() -> Any:
            """A client of its own (chromadb shares one per path in a process)."""
            forget_chroma_clients()
            return persistent_client(path, chroma_settings)

        try:
            client = persistent_client(path, chroma_settings)
        except Exception as exc:
            if is_disk_error(exc):  # a full disk: moving the index aside would not help
                raise StoreError(
                    f"cannot open the vector index at {path}: {one_line(exc)}"
                ) from None
            raise BrokenIndex(
                f"cannot open the vector index at {path}: {one_line(exc)}; "
                "`nemori doctor --repair` moves it aside and rebuilds it",
                one_line(exc),
            ) from None
        return ChromaVectorIndex(
            client, user_id, embedder, location=str(path), reopen=fresh_client
        )

    url = settings.chroma_url
    host, port, ssl = parse_url(url)
    headers = {"Authorization": f"Bearer {settings.chroma_token}"} if settings.chroma_token else {}
    kwargs: dict[str, Any] = {}
    if settings.chroma_tenant:
        kwargs["tenant"] = settings.chroma_tenant
    if settings.chroma_database:
        kwargs["database"] = settings.chroma_database
    try:
        client = chromadb.HttpClient(
            host=host, port=port, ssl=ssl, headers=headers, settings=chroma_settings, **kwargs
        )
        client.heartbeat()
    except Exception as exc:
        raise StoreError(f"cannot reach the Chroma server at {url}: {one_line(exc)}") from None
    return ChromaVectorIndex(client, user_id, embedder, location=url)


def parse_url(url: str) -> tuple[str, int, bool]:
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise UsageError(f"chroma_url {url!r}: use http://HOST:PORT or https://HOST[:PORT]")
    if parts.path not in {"", "/"}:
        raise UsageError(f"chroma_url {url!r}: a path after the host is not supported")
    ssl = parts.scheme == "https"
    try:
        port = parts.port or (443 if ssl else 8000)
    except ValueError:
        raise UsageError(f"chroma_url {url!r}: invalid port") from None
    return parts.hostname, port, ssl
