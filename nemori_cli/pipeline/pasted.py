"""Someone else's words in a user's message: a letter, CV or message pasted after saying whose
it is, and a quotation in the first person ("She wrote it herself: "In free time I am running
marathons"", a bio "like 'I'm a 34-year-old architect'"). Their "I" is not the user, so offline
facts do not read them."""

from __future__ import annotations

import re

# what says the text to come is someone else's: "I got this email from my landlord", "She
# wrote it herself:", "Ola's CV summary" (not "my cover letter": the user's own draft)
_OTHERS_TEXT = re.compile(
    r"\b(?:(?:got|received|forwarded) (?:this|an?|the|his|her|their) (?:\w+ )?(?:email|e-mail"
    r"|letter|message|text|note|reply|response|dm|review)"
    r"|(?:he|she|they|(?-i:[A-Z][a-z]+)) (?:wrote|sent|posted|texted|emailed)(?: (?:it|this|me))?"
    r"|(?:his|her|their|(?-i:[A-Z][a-z]+)'s|(?:my|our) [\w-]+'s) (?:\w+ )?(?:cv|resume|résumé"
    r"|email|letter|message|text|post|essay|bio|summary|draft|note|review|comment|statement))\b",
    re.IGNORECASE,
)
# how a pasted letter or message opens: "Dear Mr Nowak,", "Hi Anna,", a quotation mark
_LETTER_OPENING = re.compile(r"^\s*(?:dear\b|(?:hi|hello|hey) [A-Z][\w.]*(?: [A-Z]\w*)?,|[\"“])",
                             re.IGNORECASE)
_PARAGRAPHS = re.compile(r"\n\s*\n")
# a quotation of four words or more in the first person, of someone who is not the speaker
# ('My boss said "I am leaving"', 'She wrote: "I run marathons"'): their "I", not the user
_QUOTED_OTHER = re.compile(
    r"(?P<who>\b(?:he|she|they|(?-i:[A-Z][a-z]+)|(?:my|our|his|her|their|the) [\w-]+)"
    r"(?: \w+)? (?:said|says|wrote|writes|told me|tells me|asked|asks|texted|replied|goes|went)"
    r"[,:]? )[\"“](?=[^\"”\n]*\b(?:I|I'm|I've|my|me|we|our)\b)"
    r"(?:[^\"”\n\s]+\s+){3,}[^\"”\n]*?\S[\"”](?!\w)",
    re.IGNORECASE,
)

# a quotation of four words or more in the first person that a colon or "like" brings in, in
# single quotes or double: a sample, a template, a friend's message ("a bio like 'I'm a
# 34-year-old architect'", "Fill in this template: 'Hi, I am [age]'", "My friend sent me
# this: 'I got the job'"), not the user telling
_QUOTED_SAMPLE = re.compile(
    r"(?P<who>(?::|\b(?:like|saying|reads?|goes)\b)\s*)[\"“‘']"
    r"(?=[^\"”’\n]*?\b(?:I|I'm|I've|I'd|my|me|we|our)\b)"
    r"(?:[^\"”’\n\s]+\s+){3,}?[^\n]*?\S[\"”’'](?!\w)"
)

# the user's own text brought in ("here's my rough speech for my sister: 'hi everyone, I'm
# Omar, Layla's older brother ...'"): theirs to tell, when so called within this many
# characters before the quotation
OWN_TEXT_REACH = 300
_OWN_TEXT = re.compile(
    r"\b(?:my|our) (?:[\w-]+ ){0,2}(?:speech|toast|draft|letter|email|bio|post|message|essay|cv"
    r"|resume|story|poem|note|profile|summary|intro|introduction|answer|reply)\b",
    re.IGNORECASE,
)


def without_pasted(text: str) -> str:
    """The message without what it pastes of someone else's, and without the first-person
    words it quotes of someone else (each left as "…")."""
    paragraphs = _PARAGRAPHS.split(text)
    for i, paragraph in enumerate(paragraphs[:-1]):
        if _OTHERS_TEXT.search(paragraph) and (
            paragraph.rstrip().endswith((":", "?")) or _LETTER_OPENING.match(paragraphs[i + 1])
        ):
            text = "\n\n".join(paragraphs[: i + 1])
            break
    text = _QUOTED_OTHER.sub(left_out, text)
    return _QUOTED_SAMPLE.sub(left_out_unless_own, text)


def left_out(quoted: re.Match[str]) -> str:
    """A quotation left as "…", with the stop it ended on, so the sentence after stays apart."""
    stop = quoted[0][-2] if quoted[0][-2] in ".!?" else ""
    return f'{quoted["who"]}"…"{stop}'


def left_out_unless_own(quoted: re.Match[str]) -> str:
    """A quoted sample left out, unless the words before it call it the user's own."""
    before = quoted.string[max(0, quoted.start() - OWN_TEXT_REACH):quoted.start()]
    return quoted[0] if _OWN_TEXT.search(before) else left_out(quoted)
