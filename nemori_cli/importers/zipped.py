"""Export archives (.zip): read the conversation files inside, one after another."""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator

from nemori_cli.importers.base import Sink
from nemori_cli.importers.detect import Plan
from nemori_cli.importers.payload import Payload
from nemori_cli.importers.sniff import activity_members, ai_studio_member
from nemori_cli.importers.sqlite_file import EXTENSIONS as SQLITE_EXTENSIONS
from nemori_cli.models import Conversation

# The chat files of exports (ChatGPT, Claude, DeepSeek; Grok's prod-grok-backend.json).
_CONVERSATIONS = re.compile(r"^(?:conversations.*|prod-grok-backend)\.json$", re.IGNORECASE)
_READABLE = (".json", ".jsonl", ".md", ".markdown", ".txt", *SQLITE_EXTENSIONS)
# Files that exports put beside the conversations and that hold none (ChatGPT's account,
# settings and file lists; Claude's; Grok's account and billing).
COMPANIONS = frozenset({
    "user.json", "users.json", "projects.json", "memories.json", "message_feedback.json",
    "shared_conversations.json", "model_comparisons.json", "group_chats.json",
    "export_manifest.json", "user_settings.json", "ads.json",
    "conversation_asset_file_names.json", "library_files.json",
    "prod-mc-auth-mgmt-api.json", "prod-mc-billing.json",
    "thread.json",  # Jan's thread title and settings, read beside its messages.jsonl
})
MEMORIES = "memories.json"


def holds_memory(head: bytes) -> bool:
    """Whether the start of a memories.json is Claude's memory of the user (read, unlike the
    other companions)."""
    return b'"conversations_memory"' in head


def plan_zip(payload: Payload, plan_member: Callable[[Payload], Plan]) -> Plan:
    """Plan a zip export: its conversations*.json files (else every readable file in it), and
    Claude's memories.json."""
    with _open(payload) as archive:
        members = _members(archive.namelist())
        members += [n for n in archive.namelist() if posixpath.basename(n).lower() ==
                    MEMORIES and n not in members and holds_memory(_head(archive, n))]
        if not members:
            raise payload.error("no conversations.json (or other chat file) in the zip archive")
        first = plan_member(_member(payload, archive, members[0]))

    def read(sink: Sink) -> Iterator[Conversation]:
        with _open(payload) as archive:
            for index, name in enumerate(members):
                member_plan = first if index == 0 else plan_member(_member(payload, archive, name))
                yield from member_plan.read(sink)

    return Plan(first.format, read, first.expected if len(members) == 1 else None)


def _open(payload: Payload) -> zipfile.ZipFile:
    source = io.BytesIO(payload.data) if payload.path == "-" else payload.path
    try:
        return zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise payload.error(f"not a readable zip archive ({exc})") from None


def _members(names: list[str]) -> list[str]:
    files = [n for n in names if not n.endswith("/") and not _hidden(n)]
    chosen = [n for n in files if _CONVERSATIONS.match(posixpath.basename(n))]
    if not chosen:
        chosen = activity_members(files)  # a Google Takeout archive
    if not chosen:
        chosen = [
            n for n in files
            if (n.lower().endswith(_READABLE) or ai_studio_member(n))
            and posixpath.basename(n).lower() not in COMPANIONS
        ]
    return sorted(chosen)


def _head(archive: zipfile.ZipFile, name: str) -> bytes:
    try:
        with archive.open(name) as member:
            return member.read(1 << 16)
    except (zipfile.BadZipFile, zlib.error, RuntimeError, NotImplementedError, OSError):
        return b""


def _hidden(name: str) -> bool:
    return any(part.startswith(".") or part == "__MACOSX" for part in name.split("/"))


def _member(payload: Payload, archive: zipfile.ZipFile, name: str) -> Payload:
    try:
        data = archive.read(name)
    except (zipfile.BadZipFile, zlib.error, RuntimeError, NotImplementedError, OSError) as exc:
        raise payload.error(f"cannot read {name} from the zip archive ({exc})") from None
    return Payload(f"{payload.label}:{name}", data, posixpath.basename(name))
