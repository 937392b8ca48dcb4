"""Each user's folder of JSONL files: open it, list the users, delete one."""

from __future__ import annotations

import shutil
from pathlib import Path

from nemori_cli.config import validate_user_id
from nemori_cli.errors import StoreError
from nemori_cli.store.files import StoreLock
from nemori_cli.store.jsonl import JsonlFile


class UserStore:
    """The JSONL files of one user: users/<user_id>/{episodes,facts,ingested}.jsonl."""

    def __init__(self, data_dir: Path, user_id: str, *, lock_timeout: float) -> None:
        self.user_id = validate_user_id(user_id)
        self.folder = Path(data_dir) / "users" / user_id
        # Hold this one around changes that span several files (ingest, delete).
        self.lock = StoreLock(self.folder / "user.lock", timeout=lock_timeout, label=self.folder)
        self.episodes = JsonlFile(self.folder / "episodes.jsonl", lock_timeout=lock_timeout)
        self.facts = JsonlFile(self.folder / "facts.jsonl", lock_timeout=lock_timeout)
        self.ingested = JsonlFile(self.folder / "ingested.jsonl", lock_timeout=lock_timeout)

    def exists(self) -> bool:
        """Whether anything was ever stored for this user."""
        return self.folder.is_dir()


def list_users(data_dir: Path) -> list[str]:
    """Return the ids of the users that have a folder under data_dir/users, sorted."""
    root = Path(data_dir) / "users"
    if not root.is_dir():
        return []
    names = []
    for entry in root.iterdir():
        if entry.is_dir():
            try:
                names.append(validate_user_id(entry.name))
            except Exception:
                continue  # not a folder nemori made
    return sorted(names)


def delete_user_files(data_dir: Path, user_id: str, *, lock_timeout: float = 60.0) -> None:
    """Delete a user's JSONL files and BM25 indexes (the Chroma collections are the caller's)."""
    validate_user_id(user_id)
    store = UserStore(data_dir, user_id, lock_timeout=lock_timeout)
    targets = [store.folder, Path(data_dir) / "bm25" / user_id]
    if not any(t.exists() for t in targets):
        return
    with store.lock, store.episodes.lock, store.facts.lock, store.ingested.lock:
        for target in targets:
            try:
                shutil.rmtree(target)
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise StoreError(f"{target}: cannot delete: {exc.strerror}") from None
