"""What someone did to the speaker, said with the speaker as subject: "the GP started me on
amlodipine" -> "I was started on amlodipine by the GP", "they've moved me to Thursdays" ->
"I've been moved to Thursdays".

Said to an assistant, a statement must have the speaker as subject; these have them as
object, and tell as much about them as "I started on amlodipine".
"""

from __future__ import annotations

import re

from nemori_cli.pipeline.rewrite import word_set

# the past of a verb done to a person (its participle the same, but "gave"); not "made",
# "told", "asked": "my mum made me dinner", "told me about her trip" are facts about her
DONE_TO = word_set(
    "started put moved switched promoted diagnosed prescribed gave offered hired fired laid "
    "invited referred transferred booked signed sent accepted charged paid kept discharged "
    "admitted upgraded rejected dumped awarded granted"
)
PARTICIPLES = {"gave": "given"}
_PRONOUNS = frozenset({"they", "he", "she"})
_NOT_AGENTS = frozenset({"you", "it", "this", "that", "we", "there"})  # capitalised, as names
# "the GP", "my old boss", "our landlord", "Harriet", "they": not "you" (the assistant) or "it"
_AGENT = r"(?P<agent>(?i:they|he|she|(?:the|my|our) [\w-]+(?: [\w-]+)?)|[A-Z][\w-]+)"
DONE_TO_ME = (  # the opening of such a clause: "they just sent me", "the GP has put me"
    rf"{_AGENT}(?P<perfect>'ve|'s|(?i: have| has))?"
    r"(?P<adverb>(?i: just| finally| recently| already| also| even| actually))?"
    rf" (?P<verb>(?i:{'|'.join(sorted(DONE_TO))})) (?i:me)\b"
)
_DONE_TO_ME = re.compile(rf"^{DONE_TO_ME}(?P<rest>(?:[^,;:!?.]|\.(?=\d))*)(?P<end>.*)$")

# "by my parents" goes before a clause of its own: "... this guitar by my parents when I ..."
_CLAUSE_BREAK = re.compile(
    r" (?=(?:when|while|because|after|before|since|so|and|but|as|which|who|that|if)\b)",
    re.IGNORECASE,
)


def as_done_to(clause: str) -> str:
    """The clause with the speaker as subject when it tells what someone did to them."""
    m = _DONE_TO_ME.match(clause)
    if not m or m["agent"].split()[0].lower() in _NOT_AGENTS:
        return clause
    adverb = (m["adverb"] or "").lower()
    was = f"I've{adverb} been" if m["perfect"] else f"I was{adverb}"
    verb = m["verb"].lower()
    first, _, others = m["agent"].partition(" ")
    if first.lower() in _PRONOUNS:
        by = ""
    elif others:  # "The GP" opened the sentence; "by the GP" does not
        by = f" by {first.lower()} {others}"
    else:
        by = f" by {first}"  # a name keeps its capital
    parts = _CLAUSE_BREAK.split(m["rest"].rstrip(), maxsplit=1)
    done, then = parts[0], (f" {parts[1]}" if len(parts) > 1 else "")
    return f"{was} {PARTICIPLES.get(verb, verb)}{done}{by}{then}{m['end']}"
