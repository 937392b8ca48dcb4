"""Someone else's words in a user's message: a letter, CV or message pasted after saying whose
it is, and a quotation in the first person ("She wrote it herself: "In free time I am running
marathons""). Their "I" is not the user, so offline facts do not read them."""

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
    return _QUOTED_OTHER.sub(lambda m: f'{m["who"]}"…"', text)
