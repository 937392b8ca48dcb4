"""A work or thing the speaker named as theirs, then called "it": the sentence is about it.

"I'm writing my thesis. It's on urban heat islands in Phoenix." says what the speaker's
thesis is about; read alone, "It's on urban heat islands" is about nothing. A sentence that
opens "It's about / on / called / set in ..." takes the one such thing the sentence before
it names ("my thesis", "a novel" the speaker is writing); two there, or none, leave it as said.
"""

from __future__ import annotations

import re

_THINGS = (
    r"(?:thesis|dissertation|novel|book|paper|essay|presentation|talk|project|app|startup"
    r"|company|business|podcast|blog|channel|course|class|band|game|website|shop|script"
    r"|screenplay|album|song|speech|wedding|party|trip|exam|interview|house|flat|apartment)"
)
# "my thesis", "our new app", or one the speaker is making: "I'm writing a fantasy novel"
_OWNED = (
    re.compile(rf"\b(?:my|our) ((?:[a-z-]+ ){{0,2}}?)({_THINGS})\b", re.IGNORECASE),
    re.compile(rf"\b(?:i'm|i am|we're|we are) (?:\w+ )?(?:writing|building|working on|making"
               rf"|starting|running|launching|planning|recording|organi[sz]ing|preparing"
               rf"|giving) (?:a|an|my|our) ((?:[a-z-]+ ){{0,2}}?)({_THINGS})\b", re.IGNORECASE),
)
# what a sentence says of the thing: its topic, its name, its setting, when it is due
_OPENING = re.compile(
    r"^it(?P<verb>'s| is| was)\s+(?=(?:about|on|called|set in|due|based on|titled)\b)",
    re.IGNORECASE,
)


def with_own_thing(sentences: list[str]) -> list[str]:
    """Each "It's about ..." opening said of the speaker's one thing named just before."""
    out: list[str] = []
    for sentence in sentences:
        m = _OPENING.match(sentence)
        thing = one_thing(out[-1]) if m and out else None
        if m and thing:
            verb = "was" if m["verb"].strip() == "was" else "is"
            sentence = f"{thing} {verb} {sentence[m.end():]}"
        out.append(sentence)
    return out


def one_thing(sentence: str) -> str | None:
    """"My thesis", "My fantasy novel": the speaker's one work or thing a sentence names."""
    found = {(words.lower(), thing.lower()) for owned in _OWNED
             for words, thing in owned.findall(sentence)}
    if len(found) != 1:
        return None
    words, thing = found.pop()
    return f"My {words}{thing}"
