"""Which files in a folder or an archive hold chats, for the files whose extension cannot say."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

_ACTIVITY = re.compile(r"^my ?activity\.(?:json|html?)$", re.IGNORECASE)
_GEMINI_FOLDER = re.compile(r"gemini|bard", re.IGNORECASE)
_WORKSPACE_FILE = re.compile(r"^conversation_\w+\.txt$", re.IGNORECASE)
_AI_STUDIO_FOLDER = re.compile(r"ai ?studio", re.IGNORECASE)
_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}")
_TAKEOUT_PAGE = b'class="outer-cell'
_AI_STUDIO_KEYS = (b'"chunkedPrompt"', b'"runSettings"')
PAGE_SNIFF = 2 * 1024 * 1024  # Takeout pages open with a long <style> block
PROMPT_SNIFF = 64 * 1024


def activity_members(names: Sequence[str]) -> list[str]:
    """Pick a Takeout archive's activity files: Gemini's when present, JSON over HTML.

    Takeout writes `My Activity/<product>/MyActivity.json` (or `.html`) for each product; only
    Gemini's are chat, and the same activity in both forms is read once.
    """
    found = [n for n in names if _is_activity(n)]
    gemini = [n for n in found if _GEMINI_FOLDER.search(posixpath.dirname(n))]
    chosen = gemini or found
    folders_with_json = {posixpath.dirname(n) for n in chosen if n.lower().endswith(".json")}
    return [
        n for n in chosen
        if n.lower().endswith(".json") or posixpath.dirname(n) not in folders_with_json
    ] + [n for n in names if _is_workspace(n)]


def _is_workspace(name: str) -> bool:
    """Gemini in Workspace keeps `Conversation History/conversation_<n>.txt` (JSON inside)."""
    folder, base = posixpath.split(name)
    return bool(_WORKSPACE_FILE.match(base)) and bool(_GEMINI_FOLDER.search(folder))


def _is_activity(name: str) -> bool:
    base = posixpath.basename(name)
    if _ACTIVITY.match(base):
        return True
    folder = posixpath.basename(posixpath.dirname(name))
    return bool(_GEMINI_FOLDER.search(folder)) and base.lower().endswith((".json", ".html"))


def extension(name: str) -> str:
    """A file name's extension, lower case; "" when what follows the last dot is not one."""
    # AI Studio names prompt files after their titles: "Gemini 2.5 notes" has no extension.
    ext = posixpath.splitext(name)[1]
    return ext.lower() if _EXTENSION.fullmatch(ext) else ""


def ai_studio_member(name: str) -> bool:
    """Tell whether an archive member is an AI Studio prompt (Drive stores them bare)."""
    base = posixpath.basename(name)
    return not extension(base) and bool(_AI_STUDIO_FOLDER.search(posixpath.dirname(name)))


def is_takeout_page(head: bytes) -> bool:
    """Tell from a file's first bytes whether it is a Takeout activity page."""
    return _TAKEOUT_PAGE in head


def is_ai_studio_prompt(head: bytes) -> bool:
    """Tell from a file's first bytes whether it is an AI Studio prompt file."""
    return head.lstrip()[:1] == b"{" and any(key in head for key in _AI_STUDIO_KEYS)
