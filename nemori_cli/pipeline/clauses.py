"""Clauses of offline facts: dangling "It was..." joined back, compounds split, stated views.

"I went hiking last week. It helped clear my head." is one fact, not a fact and a riddle;
"I got a new job - it's in Lisbon; and my sister moved in" holds two. A speaker's view said
without "I" ("Staying focused is key for any founder") is still theirs.
"""

from __future__ import annotations

import re

# The speaker as subject or owner; "us" or "ourselves" alone is usually a generic "we".
SPEAKER = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|we|we're|we've|we'd|we'll|our)\b", re.IGNORECASE
)
# a sentence whose subject points back at the one before it
_DANGLING = re.compile(
    r"^(?:it|it's|it was|that|that's|this|they|they're|he|he's|she|she's|which)\b", re.IGNORECASE
)
# dashes, semicolons, and ", but"/", and"... ("so" stays: a consequence belongs to its cause)
_CLAUSE = re.compile(r"\s+(?:-|--|–|—)\s+|;\s+|,\s+(?=(?:but|and|though|although|plus)\s)")
_CONJUNCTION = re.compile(r"^(?:but|and|though|although|plus)\s+", re.IGNORECASE)
_INTENSE = r"(?:(?:so|really|super|very|pretty|truly|just|also|definitely|totally|always)\s+)*"
# "It's important to...", "X is key", "X can help...", "X brings people together"
_VIEW = re.compile(
    rf"^(?:it's|it is|that's|that is|it was)\s+{_INTENSE}(?:important|essential|crucial|vital"
    r"|key|necessary|inspiring|amazing|incredible|awesome|wonderful|sad|hard|tough|rewarding"
    r"|fulfilling|great|cool|nice|heartbreaking|heartwarming|crazy|special)\s+(?:to|that|how"
    r"|when)\b"
    rf"|\b(?:is|are)\s+{_INTENSE}(?:key|important|essential|crucial|vital|necessary|everything"
    r"|the best way|a great way|all about)\b"
    r"|\b(?:can|could)\s+(?:really\s+)?(?:help|make|do wonders|change|bring|inspire|be)\b"
    r"|\bhas the power to\b"
    r"|\b(?:helps?|makes?|keeps?|brings?|gives?|reminds?|teaches?|builds?|lets?) (?:us|people"
    r"|everyone|someone|others|ourselves)\b",
    re.IGNORECASE,
)


def attach_dangling(sentences: list[str]) -> list[str]:
    """Join a sentence opening on "It", "That" or "They" to the speaker's statement before it."""
    out: list[str] = []
    for sentence in sentences:
        before = out[-1] if out else ""
        if (
            before
            and _DANGLING.match(sentence)
            and SPEAKER.search(before)
            and not before.rstrip(" \"')").endswith("?")
        ):
            out[-1] = f"{before.rstrip(' .!')} and {sentence[:1].lower()}{sentence[1:]}"
        else:
            out.append(sentence)
    return out


def split_clauses(sentence: str) -> list[str]:
    """The clauses of a compound sentence that speak about the speaker, each on its own."""
    parts = [p for p in _CLAUSE.split(sentence) if p.strip()]
    mine = [_CONJUNCTION.sub("", p) for p in parts if SPEAKER.search(p)]
    if len(parts) < 2 or not mine:
        return [sentence]
    return [p[:1].upper() + p[1:] for p in mine]


def states_a_view(sentence: str) -> bool:
    """Whether a sentence says what is important, helps or matters (a view of its speaker)."""
    return bool(_VIEW.search(sentence))
