"""Country and language names, and their capitals where casual typing leaves them out."""

from __future__ import annotations

import re

LANGUAGES = (
    "spanish french german italian portuguese dutch japanese chinese mandarin cantonese korean "
    "arabic russian hindi turkish greek polish swedish norwegian danish finnish hebrew "
    "vietnamese thai indonesian swahili latin esperanto"
)
# one word each: "new" or "south" of a longer name would match any text
COUNTRIES = (
    "afghanistan albania algeria argentina armenia australia austria azerbaijan bangladesh "
    "belgium bolivia bosnia brazil bulgaria cambodia cameroon canada chile china colombia "
    "croatia cuba cyprus czechia denmark ecuador egypt england estonia ethiopia fiji finland "
    "france georgia germany ghana greece greenland guatemala hungary iceland india indonesia "
    "iran iraq ireland israel italy jamaica japan jordan kazakhstan kenya korea laos latvia "
    "lebanon lithuania luxembourg madagascar malaysia malta mexico moldova mongolia montenegro "
    "morocco mozambique myanmar namibia nepal netherlands holland nicaragua nigeria norway "
    "pakistan panama paraguay peru philippines poland portugal qatar romania russia rwanda "
    "scotland senegal serbia singapore slovakia slovenia spain sweden switzerland syria taiwan "
    "tanzania thailand tunisia turkey uganda ukraine uruguay usa america britain uk uzbekistan "
    "venezuela vietnam wales zambia zealand zimbabwe"
)
# words that are more often something else in lower case: "a turkey", "the china", "chile
# con carne", "guinea pigs", "polish my shoes"; "usa" and "uk" are capitals throughout
_NOT_NAMES = {"turkey", "china", "chile", "guinea", "polish", "usa", "uk"}
_NAME = re.compile(
    r"(?<![\w'-])(?:"
    + "|".join(sorted(set(f"{COUNTRIES} {LANGUAGES}".split()) - _NOT_NAMES, key=len, reverse=True))
    + r"|new zealand|south africa|south korea|sri lanka|costa rica|saudi arabia)(?![\w'-])"
)
_SHORT = re.compile(r"(?<![\w'-])(?:usa|uk)(?![\w'-])")


def with_name_capitals(text: str) -> str:
    """Capitalise country and language names typed in lower case: "we moved to portugal and
    i'm learning portuguese" -> "... Portugal ... Portuguese" (only lower-case forms)."""
    text = _NAME.sub(lambda m: m.group(0).title(), text)
    return _SHORT.sub(lambda m: m.group(0).upper(), text)
