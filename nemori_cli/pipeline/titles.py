"""Recognise source titles that say nothing about a chat ("New chat", "Conversation 2")."""

from __future__ import annotations

import re

_GENERIC = re.compile(
    r"^(?:"
    r"(?:new |untitled |unnamed |empty )?(?:chat|conversation|thread|session|dialog(?:ue)?)"
    r"(?:\s*#?\d+)?(?:\s*[.:\-–—]\s*(?:web search|search|browsing|voice|image|canvas))?"
    r"|untitled(?:\s*\d+)?|new|none|null|no title|\(no title\)|greetings?|hello|hi|hey"
    r"|(?:assist(?:ing)?|help(?:ing)?) (?:the )?user(?: with)?(?: (?:a |an |the |their )?\w+){0,1}"
    r"|user (?:asks?|requests?|needs?|wants?|seeks?) (?:for )?(?:help|assistance)"
    r"|(?:general |casual |friendly )?(?:greeting|chat|conversation|small talk)s?"
    r"(?: and [a-z ]+)?"
    r")[.!?]*$",
    re.IGNORECASE,
)


def is_generic(title: str | None) -> bool:
    """Whether a source title names no topic, so the content should give one instead."""
    if not title or not title.strip():
        return True
    return bool(_GENERIC.match(" ".join(title.split())))


def meaningful(title: str | None) -> str | None:
    """The title, or None when it says nothing."""
    return None if is_generic(title) else (title or "").strip()
