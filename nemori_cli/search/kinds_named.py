"""A question that names a kind of thing ("Which sports do I do?"), and the words for its members.

The user said "wednesday evenings i have futsal", never "sport"; a small embedding model puts
that turn far from the question (cosine 0.19), and BM25 has no word of it. So a question that
names one of a few kinds with well-known members (sports, pets, instruments, cars, languages,
countries, and "cities": one city asked for is most often none of the well-known) also asks
the lexical indexes for those members, and a user's turn or a fact naming one matches the
kind's word. Advice asked for is a kind too, named in the question's own words: on what to
cook, eat or order, its members what people cannot eat ("What pudding should I make?" -
"Derek is coeliac"); on where to go, what limits travel ("i get horribly motion sick"); on
exercise, injuries ("a herniated disc at L5-S1"); on what to watch, read or listen to, genres
("I'm all about dramas and romcoms"). A question for the user's health problems is a kind
whose members are conditions ("i tore my meniscus playing padel"), and one for the hobbies
someone has told of a kind whose members are sports, instruments and crafts; not advice on a
hobby, nor activities: their members are in every other answer an assistant gives
(docs/benchmarks.md).
"""

from __future__ import annotations

import re

from nemori_cli.pipeline.proper_names import CITIES, COUNTRIES, LANGUAGES
from nemori_cli.search.questions import asks_advice, recalls_answer
from nemori_cli.search.turns import terms

SPORTS = (
    "football soccer futsal basketball baseball softball volleyball tennis badminton squash "
    "pickleball hockey rugby cricket golf swimming cycling bouldering climbing skiing "
    "snowboarding surfing skateboarding boxing kickboxing judo karate taekwondo jiujitsu "
    "fencing rowing kayaking canoeing sailing triathlon marathon jogging yoga pilates crossfit "
    "gymnastics wrestling lacrosse handball archery netball frisbee"
)
PETS = (
    "dog puppy cat kitten hamster rabbit bunny parrot budgie canary guinea turtle tortoise "
    "goldfish gecko lizard snake ferret horse pony chinchilla hedgehog axolotl greyhound "
    "retriever labrador poodle terrier beagle spaniel collie husky corgi dachshund bulldog pug "
    "chihuahua schnauzer labradoodle cockapoo tabby"
)
# a car is most often told by its maker or its kind ("picked up a used 2022 Kia Niro EV")
CARS = (
    "toyota honda ford tesla kia hyundai nissan bmw audi mercedes volkswagen vw volvo subaru "
    "mazda chevy chevrolet jeep peugeot renault fiat skoda citroen porsche lexus jaguar "
    "rivian polestar dacia vauxhall opel suzuki mitsubishi ev hatchback suv sedan saloon "
    "minivan pickup convertible hybrid"
)
INSTRUMENTS = (
    "piano guitar violin cello ukulele drums flute saxophone trumpet clarinet bass harp banjo "
    "mandolin accordion trombone viola oboe harmonica bagpipes synthesizer tuba bassoon "
    "xylophone"
)
# advice on what to cook, eat or order is answered by what the user and their people cannot
# eat, which the question does not name ("What pudding should I make?" - "Derek is coeliac");
# not a question of what someone once made or what the assistant once said
DIETS = (
    "allergic allergy allergies intolerant intolerance coeliac celiac gluten dairy lactose "
    "vegetarian vegan pescatarian halal kosher diabetic diabetes prediabetic prediabetes peanut "
    "peanuts nut nuts shellfish"
)
_FOOD = re.compile(
    r"\b(?:cook|cooking|bake|baking|recipes?|pudding|puddings|desserts?|cakes?|pastry|pastries"
    r"|dinner|lunch|breakfast|brunch|meals?|menu|restaurants?|snacks?|eat|coffee)\b",
    re.IGNORECASE,
)
# advice on where to go is answered by what limits the user's travel ("I don't fly any
# more", "I get horribly motion sick")
TRAVEL_LIMITS = (
    "fly flying flights flight plane planes aeroplane aeroplanes airplane airplanes airport "
    "seasick seasickness carsick motion wheelchair mobility"
)
_TRAVEL = re.compile(
    r"\b(?:trips?|holidays?|vacations?|getaways?|travel\w*|honeymoon|(?:week|weekend|time|days?)"
    r" away|city break|go away)\b",
    re.IGNORECASE,
)
# advice on exercise is answered by what the user's body will not take ("a herniated disc at
# L5-S1", "my dodgy knee")
INJURIES = (
    "injury injuries injured herniated disc discs sciatica arthritis asthma knee knees hip hips "
    "shoulder shoulders ankle ankles wrist surgery operation pregnant pregnancy physio"
)
_EXERCISE = re.compile(
    r"\b(?:gym|workouts?|exercises?|exercising|fitness|training|stretch(?:es|ing)?|running plan"
    r"|strength|lifting|weights)\b",
    re.IGNORECASE,
)
# a question for the user's health problems is answered by the conditions they told of, in
# passing ("i get horribly motion sick", "a herniated disc", "night calls wreck my sleep")
CONDITIONS = (
    "allergic allergy allergies intolerant intolerance coeliac celiac diabetic diabetes "
    "prediabetic prediabetes asthma migraine migraines insomnia sleep anxiety depression eczema "
    "psoriasis arthritis cholesterol hypertension pressure seasick seasickness carsick motion "
    "sick injury injured herniated disc sciatica meniscus torn sprained fracture surgery "
    "diagnosed physio flare pain"
)
_HEALTH = re.compile(
    r"\b(?:health|medical) (?:problems?|issues?|conditions?|concerns?|troubles?)\b|\bailments?\b"
    r"|\billness(?:es)?\b",
    re.IGNORECASE,
)
# a question for the hobbies someone has told of (not advice on one, nor what an assistant
# said: their answers name hobbies at every turn)
HOBBIES = (
    f"{SPORTS} {INSTRUMENTS} painting drawing sketching knitting crochet sewing quilting "
    "pottery ceramics baking cooking gardening photography chess reading writing poetry hiking "
    "birdwatching woodworking gaming fishing camping dancing singing calligraphy origami "
    "journaling scrapbooking embroidery sculpting carving astronomy volunteering"
)
_HOBBIES = re.compile(r"\bhobb(?:y|ies)\b|\bpastimes?\b", re.IGNORECASE)
# advice on what to watch, read or listen to is answered by the genres the user likes
GENRES = (
    "drama dramas romcom romcoms comedy comedies horror thriller thrillers documentary "
    "documentaries anime fantasy romance mystery mysteries crime sci-fi scifi western "
    "westerns musical musicals biography biographies memoir memoirs jazz rock pop folk "
    "classical metal hip-hop rap indie"
)
_SHOWS = re.compile(
    r"\b(?:watch|movies?|films?|shows?|series|tv|netflix|books?|read|novels?|podcasts?"
    r"|music|songs?|albums?|listen)\b",
    re.IGNORECASE,
)
MEMBERS = {
    "food": DIETS,
    "shows": GENRES,
    "travel": TRAVEL_LIMITS,
    "exercise": INJURIES,
    "sport": SPORTS,
    "pet": PETS,
    "animal": PETS,
    "instrument": INSTRUMENTS,
    "language": LANGUAGES,
    "country": COUNTRIES,
    "city": CITIES,
    "car": CARS,
    "health": CONDITIONS,
    "hobby": HOBBIES,
}
# advice asked for, in the question's own words
_ADVICE_KINDS = {"food": _FOOD, "travel": _TRAVEL, "exercise": _EXERCISE, "shows": _SHOWS}
# the kinds named in the question's own words, whose stand-in is those words
_WORDED_KINDS = {**_ADVICE_KINDS, "health": _HEALTH, "hobby": _HOBBIES}
_KIND = re.compile(  # "programming languages" are not the ones people speak
    r"\b(sport|pet|animal|instrument|car(?!s? (?:boot|park|seat|pool)s?\b)|countr(?:y|ie)"
    r"|citie(?=s\b)"
    r"|(?<!programming )(?<!coding )(?<!scripting )language)s?\b",
    re.IGNORECASE,
)


def kinds_named(query: str) -> list[str]:
    """The kinds the question names ("sport" for "Which sports do I do?"), each once."""
    named = (m.lower() for m in _KIND.findall(query))
    kinds = list(dict.fromkeys(
        "country" if m.startswith("countr") else "city" if m.startswith("cit") else m
        for m in named))
    advice = asks_advice(query)
    if _HEALTH.search(query):
        kinds.append("health")
    if _HOBBIES.search(query) and not advice and not recalls_answer(query):
        kinds.append("hobby")
    if advice:
        kinds += [kind for kind, said in _ADVICE_KINDS.items() if said.search(query)]
    return kinds


def members_query(query: str) -> str | None:
    """The members of each kind the question names, as one lexical query; else None."""
    return " ".join(MEMBERS[kind] for kind in kinds_named(query)) or None


def stand_ins(query: str) -> dict[str, frozenset[str]]:
    """Each kind the question names, as its stemmed term (for advice, the question's own
    words: "pudding", "getaway"), and its members' stemmed terms."""
    out = {}
    for kind in kinds_named(query):
        asked = _WORDED_KINDS.get(kind)
        said = " ".join(asked.findall(query)) if asked else kind
        out.update(dict.fromkeys(terms(said), terms(MEMBERS[kind])))
    return out
