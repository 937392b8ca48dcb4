"""Clauses of offline facts: the part said to the listener cut off, a dangling "It..." joined.

"I made a cake, maybe you'd like it" still says "I made a cake"; "Mixed emotions are rough,
but I have faith in you" says nothing about its speaker once the part to the listener goes.
"I hold it for a minute. It helps with balance." is one fact, not a fact and a riddle.
"""

from __future__ import annotations

import re

from nemori_cli.pipeline.rewrite import is_past

# The speaker as subject or owner; "us" or "ourselves" alone is usually a generic "we".
SPEAKER = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|we|we're|we've|we'd|we'll|our)\b", re.IGNORECASE
)
# "Blue's my fave", "a favourite of mine", "special to me": the speaker's taste, said of a
# thing; "Running keeps me sane", "Yoga is my happy place": what works for the speaker
OWN_TASTE = re.compile(
    r"\bmy (?:fave|faves|favou?rites?|go-to|haven|passion|happy place|escape"
    r"|stress[- ]?(?:buster|relief|reliever))\b|\b(?:favou?rite|fave) of mine\b"
    r"|\b(?:special|dear) to me\b|\bcalms? me\b"
    r"|\bkeeps? me (?:sane|calm|grounded|centred|centered)\b"
    r"|\bhelps? me (?:relax|unwind|de-?stress|calm down|recharge|clear my (?:head|mind))\b"
    r"|\bhow (?:i|we) (?:relax|unwind|de-?stress|recharge)\b"
    r"|\b(?:fuels?|feeds?|nourish(?:es)?|lifts?) my soul\b",
    re.IGNORECASE,
)
# "since we last talked", "last time we chatted": the conversation itself, not a fact
SINCE_WE_TALKED = re.compile(
    r",?\s*\b(?:(?:ever )?since|(?:the )?last time) (?:we|i) (?:last )?(?:talked|chatted|chats?"
    r"|spoke|caught up|saw each ?other)\b"
    r"|,?\s*\bsince (?:my|our) last (?:chat|talk|conversation)\b",
    re.IGNORECASE,
)
# "Harriet had her baby", "Derek is coeliac", "Tom got engaged": a life event or a condition
# of someone the speaker names, which said to an assistant is about the speaker's people
# (a product or a place has no baby, diagnosis or wedding)
NAMED_LIFE_EVENT = re.compile(
    r"^(?!(?:I|I'm|I've|It|It's|This|That|There|The|They|He|She|We|You|Also|And|But|So|Just"
    r"|Then|Now|Today|Yesterday|Last|Next|My|Our|Your|His|Her|Their)\b)[A-Z][a-z]+"
    r"(?: (?:and|&) [A-Z][a-z]+)?(?:'s)?(?: (?:just|finally|recently|has|have|had|also))*"
    r" (?:had (?:her|his|their|a|the) (?:baby|babies|twins|operation|surgery)"
    r"|(?:got|is getting|are getting|was|were) (?:married|engaged|divorced|promoted|diagnosed"
    r"|laid off|made redundant)"
    r"|(?:is|are|was|were) (?:pregnant|expecting|co?eliac|celiac|diabetic|allergic|vegan"
    r"|vegetarian|lactose[- ]intolerant|in hospital|retiring)"
    r"|(?:passed away|died|was born|were born|retired|graduated|moved in|moved out"
    r"|broke (?:her|his|their) \w+))\b"
)
# "I love that idea", "I like this one": a reaction to what was just said, not a taste
REACTION = re.compile(r"^(?:i|we) (?:\w+ )?\w+ (?:that|this|it|those|these|them)\b",
                      re.IGNORECASE)
SECOND_PERSON = re.compile(
    r"\b(?:you|your|yours|yourself|you're|you've|you'll|you'd|ya|u)\b", re.IGNORECASE
)
# an eye-roll or "/s": said in jest ("because clearly I'm a monk living in a cave 🙄")
NOT_EARNEST = re.compile(r"[\U0001F644\U0001F612]|(?<!\S)/s\b")
# "I'm allergic to peanuts, so please keep that in mind": the second clause asks something
_PLEASE = re.compile(r"(?:and |but |so )?(?:please|pls|plz)\b", re.IGNORECASE)
# "... eggs when you write the recipe", "I started running after you said so": a time or
# condition of the listener's, not part of what the speaker says of themself
_WHEN_YOU = re.compile(
    r"\s+(?:when|whenever|while|if|before|after|once|until|as soon as) (?:you|u)\b[^,;.!?]*",
    re.IGNORECASE,
)
# clause boundaries inside a sentence: a comma, a dash, a semicolon or a colon
_CLAUSE_BREAK = re.compile(r"(\s*[-–—]+\s+|,\s+|;\s+|:\s+)")
# a clause opening on the speaker: "I ...", "we've ...", "my ..." (read case-insensitively)
OWN_OPENING = r"(?:i|i'm|i've|i'd|we|we're|we've|my|our)\b"
_OWN_SUBJECT = re.compile(rf"(?:and |but |so )?{OWN_OPENING}", re.IGNORECASE)
# a short sentence whose subject points back at the statement before it: "It helps a lot."
_DANGLING = re.compile(r"^(?:it|it's|they|they're|that|that's)\b", re.IGNORECASE)
# a clause of nothing but a connective, left hanging once the clause after it goes
_HANGING = re.compile(r"^(?:and|but|so|or|though|well|of course|anyway|also)$", re.IGNORECASE)
MAX_DANGLING_WORDS = 12
MAX_JOINED_WORDS = 20  # longer facts take more of a search's word budget


# "I took your advice and started running": the credit to the listener goes, the rest is a
# fact ("I started running"); the listener's "your" would otherwise drop the whole sentence
_CREDIT = re.compile(
    r"^(?:so |well |and )?(?P<who>i|we) (?:took|followed|tried|used|went with|listened to) "
    r"(?:your|ur) (?:\w+ )?(?:advice|rec\w*|suggestions?|tips?|ideas?|picks?)"
    r" (?:and|&) (?P<rest>.+)",
    re.IGNORECASE,
)
_OWN_OPENING = re.compile(
    r"(?:i|i'm|i've|we|we're|we've|my|our|the|a|an|it|it's|they|he|she|this|that|these"
    r"|those)\b",
    re.IGNORECASE,
)


# "its a secondhand Brompton, picked it up yesterday": a thing named (by a name or a number),
# then what the speaker did with it, the "I" dropped
_THING_THEN_DEED = re.compile(
    r"^[Ii]t(?:'s|s| is) (?P<thing>(?:a|an|my|our) (?=[^,]*(?:\b[A-Z]|\d))[^,]+(?:, [^,]+?)?),\s+"
    r"(?P<verb>[a-z]+) it(?P<particle> (?:up|off|out|back|home|over|in|down))?\b(?P<rest>.*)$"
)


def thing_then_deed(sentence: str) -> str:
    """"its a 2019 Golf, bought it last month" -> "I bought a 2019 Golf last month"."""
    m = _THING_THEN_DEED.match(sentence)
    if m is None or not is_past(m["verb"]):
        return sentence
    thing = f"{m['thing']}," if "," in m["thing"] else m["thing"]  # "a Brompton, 3 speed,"
    return f"I {m['verb']}{m['particle'] or ''} {thing}{m['rest']}"


def without_credit(sentence: str) -> str:
    """"I took your advice and watched it" -> "I watched it"; other sentences as they are."""
    m = _CREDIT.match(sentence)
    if m is None:
        return sentence
    rest = m["rest"]
    if _OWN_OPENING.match(rest):  # "... and the kids loved it": a clause of its own
        return rest[:1].upper() + rest[1:]
    return f"{'We' if m['who'].lower() == 'we' else 'I'} {rest}"


def without_addressee(sentence: str) -> str:
    """Drop the clauses said to the listener ("I made a cake, maybe you'd like it")."""
    sentence = _WHEN_YOU.sub("", without_credit(sentence))
    pieces = _CLAUSE_BREAK.split(sentence)
    if not SECOND_PERSON.search(sentence) and not any(_PLEASE.match(p) for p in pieces[::2]):
        return sentence
    kept: list[str] = []
    for i in range(0, len(pieces), 2):
        # a later clause kept on its own must open with its own subject ("I", "my")
        opens = i == 0 or kept or _OWN_SUBJECT.match(pieces[i])
        if opens and not SECOND_PERSON.search(pieces[i]) and not _PLEASE.match(pieces[i]):
            kept += [pieces[i - 1]] if kept and i else []
            kept.append(pieces[i])
    while len(kept) > 2 and _HANGING.match(kept[-1].strip()):  # "I love football, but, of course"
        del kept[-2:]
    text = "".join(kept).strip(" ,;:-–—")
    text = re.sub(r"^(?:and|but|so)\s+", "", text, flags=re.IGNORECASE)  # "so I joined"
    if not SPEAKER.search(text):
        return ""  # what is left says nothing about the speaker
    return text[:1].upper() + text[1:]


def attach_dangling(sentences: list[str]) -> list[str]:
    """Join a short sentence opening on "It" or "They" to the speaker's statement before it."""
    out: list[str] = []
    for sentence in sentences:
        before = out[-1] if out else ""
        if (
            before
            and _DANGLING.match(sentence)
            and len(sentence.split()) <= MAX_DANGLING_WORDS
            and len(sentence.split()) + len(before.split()) <= MAX_JOINED_WORDS
            and SPEAKER.search(before)
            and not SECOND_PERSON.search(sentence)
            and not before.rstrip(" \"')").endswith("?")
            and not sentence.rstrip(" \"')").endswith("?")
        ):
            out[-1] = f"{before.rstrip(' .!')} and {sentence[:1].lower()}{sentence[1:]}"
        else:
            out.append(sentence)
    return out
