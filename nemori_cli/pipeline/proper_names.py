"""Country, language and city names, and their capitals where casual typing leaves them out."""

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
# well-known cities whose names are no common word in lower case ("nice", "reading", "bath",
# "split", "cork", "phoenix" are left out): one word each, as COUNTRIES
CITIES = (
    "london manchester liverpool leeds birmingham glasgow edinburgh bristol cardiff belfast "
    "sheffield newcastle nottingham leicester brighton oxford cambridge york dublin galway "
    "boston chicago seattle denver austin dallas houston atlanta miami philadelphia portland "
    "detroit nashville baltimore pittsburgh sacramento oakland minneapolis cleveland orlando "
    "toronto vancouver montreal ottawa calgary edmonton winnipeg quebec halifax paris berlin "
    "madrid barcelona lisbon porto rome milan naples florence venice vienna prague budapest "
    "warsaw krakow amsterdam rotterdam brussels antwerp zurich geneva munich hamburg frankfurt "
    "cologne stockholm oslo copenhagen helsinki athens istanbul dubrovnik seville valencia "
    "bordeaux lyon marseille tokyo kyoto osaka seoul beijing shanghai bangkok hanoi mumbai "
    "delhi bangalore dubai manila jakarta bali taipei sydney melbourne brisbane perth auckland "
    "adelaide lima bogota santiago johannesburg nairobi cairo lagos marrakech accra"
)
_CITY_PAIRS = (
    "new york|san francisco|los angeles|san diego|las vegas|new orleans|salt lake city"
    "|mexico city|buenos aires|sao paulo|cape town|hong kong|abu dhabi|tel aviv"
)
# words that are more often something else in lower case: "a turkey", "the china", "chile
# con carne", "guinea pigs", "polish my shoes"; "usa", "uk" and "nyc" are capitals throughout
_NOT_NAMES = {"turkey", "china", "chile", "guinea", "polish", "usa", "uk"}
_NAME = re.compile(
    r"(?<![\w'-])(?:"
    + "|".join(sorted(set(f"{COUNTRIES} {LANGUAGES} {CITIES}".split()) - _NOT_NAMES, key=len,
                      reverse=True))
    + rf"|new zealand|south africa|south korea|sri lanka|costa rica|saudi arabia|{_CITY_PAIRS})"
    r"(?![\w'-])"
)
_SHORT = re.compile(r"(?<![\w'-])(?:usa|uk|nyc)(?![\w'-])")
# those words are the names after a word of going or being somewhere, or of speaking
_PLACED = re.compile(
    r"\b(?:to|in|from|across|around|visit|visiting|visited|leave|leaving|left) "
    r"(?:turkey|china|chile)(?![\w'-])"
    r"|\b(?:in|speak|speaks|speaking|learn|learning|learned|learnt|fluent) polish(?![\w'-])"
)


def with_name_capitals(text: str) -> str:
    """Capitalise country, language and city names typed in lower case: "we moved to porto
    and i'm learning portuguese" -> "... Porto ... Portuguese" (only lower-case forms)."""
    text = _NAME.sub(lambda m: m.group(0).title(), text)
    text = _PLACED.sub(lambda m: m[0][: m[0].rindex(" ") + 1] + m[0].split()[-1].title(), text)
    return _SHORT.sub(lambda m: m.group(0).upper(), text)
