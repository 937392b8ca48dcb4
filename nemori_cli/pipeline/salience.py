"""How likely a first-person sentence is a lasting fact about its speaker, and its category."""

from __future__ import annotations

import re

from nemori_cli.pipeline.clauses import OWN_TASTE, REACTION, SPEAKER
from nemori_cli.pipeline.kin import without_own_pronouns
from nemori_cli.pipeline.rewrite import word_set

_STOPWORDS = word_set(
    "i me my mine myself we us our ours you your it its it's this that these those a an the and "
    "or but so to of in on at for with as is am are was were be been being have has had do does "
    "did not no yes just really very so too also still much more most some any all what which "
    "who when where why how there here then than now get got can could will would should may "
    "might must i'm i've i'd i'll we're we've don't didn't can't won't that's it's lot lots "
    "thing things stuff something anything everything one ones way like feel felt make made "
    "going go gonna wanna know think thought sure good great nice awesome amazing cool glad "
    "happy sorry thanks thank love totally definitely always"
)
_WEAK_START = re.compile(r"^(?:it|it's|that|that's|this|we|we're|we've)\b", re.IGNORECASE)
_YEAR = re.compile(r"\b(?:in|since|from|of|until|till|by|back in) (?:19[4-9]\d|20[0-3]\d)\b")
# "he", "them": someone the sentence does not name, so the fact says less on its own
_UNRESOLVED = re.compile(r"\b(?:he|she|him|her|they|them|they're)\b", re.IGNORECASE)
# "it", "this": a thing the sentence does not name ("this weekend" is a time, not a thing)
_IT = re.compile(r"\b(?:it|it's)\b", re.IGNORECASE)
_DEMONSTRATIVE = re.compile(
    r"\b(?:this|that|these|those)\b(?! (?:week|weekend|month|year|morning|afternoon|evening"
    r"|summer|winter|spring|fall|autumn|time)\b)",
    re.IGNORECASE,
)
# "this game Catan", "that app called Notion": a demonstrative the sentence names
_NAMED_DEMONSTRATIVE = re.compile(
    r"\b(?:this|that|these|those)(?: (?!(?:in|on|at|for|to|of|from|with|by|and|or)\b)[a-z]+)"
    r"{1,3}(?: called| named)? (?=[A-Z\d])"
)
# "I realized that ...": a "that" opening a clause points at nothing
_THAT_CLAUSE = re.compile(
    r"\b(?:realiz\w*|learn\w*|know|knew|think|thought|found|believe\w*|said|say|so|sure|now"
    r"|glad|hope\w*|feel|felt|mean\w*|such) that\b",
    re.IGNORECASE,
)
# a capitalised word inside the sentence: a person, place or title a search can find
_NAMED = re.compile(r"(?<=[\w,;:] )(?!I\b|I'\w+)[A-Z][a-z]+")
# Salience weights, fitted on LoCoMo's tuning samples (bench/locomo_facts_fit.py): a name or
# a date makes a fact stand alone; a pronoun, an intention or a bare category says less.
PRONOUN_PENALTY = 1.5
INTENT_PENALTY = 2.0
IT_PENALTY = 0.5
DEMONSTRATIVE_PENALTY = 1.0
NAMED_BONUS = 1.5
DATED_BONUS = 1.5
SHORT_PERSONAL_BONUS = 1.0
TASTE_BONUS = 0.6  # "Nature's always been my haven": few words, but what advice rests on
CATEGORY_BONUS = {"user_profile": 0.5, "other": 0.0, "experience": -0.3, "knowledge": -0.3}
# "I'll ask around", "I'm gonna keep going": said in passing more often than lasting (a
# place one is going to is a plan: "I'm going to Lisbon in May", "going to the coast")
_INTENT = re.compile(
    r"\b(?:i'll|we'll|i will|we will|i'm gonna|we're gonna|(?:i'm|we're) going to"
    r"(?! (?-i:[A-Z])| (?:the|a|an|my|our)\b)|i might|i may)\b",
    re.IGNORECASE,
)
# a lasting condition of the body, which advice on food, exercise or travel must respect
# ("I get horribly motion sick", "a herniated disc at L5-S1", "the doc says I'm prediabetic")
HEALTH = (
    r"prediabet\w*|herniat\w*|(?:slipped|bulging) discs?|sciatica|meniscus|arthritis"
    r"|migraines?|(?:motion|travel|car|sea|air)[- ]?sick\w*|blood pressure|cholesterol"
    r"|hypertension|insomnia|anxiety|depression|ibs|crohn'?s|epilep\w*|eczema|psoriasis"
    r"|(?:bad|weak|dodgy|torn|broken) (?:back|knees?|hips?|shoulders?|ankles?|wrists?)"
    r"|back (?:pain|problems?|issues?)|chronic \w+|(?:doc|doctor|gp|physio) (?:told|said|says)"
    # a medicine taken for long ("I'm on metformin and lisinopril", "started sertraline")
    r"|\w{3,}(?:pril|sartan|statin|olol|prazole|dipine|azepam|oxetine|traline|formin|thyroxine)s?\b"
    r"|insulin|statins?|antidepressants?|blood thinners?|warfarin|inhaler|epipen|birth control"
    r"|recovering|surgery|post-op|rehab"
)
_PROFILE = re.compile(
    r"\b(?:i(?:'m| am) (?:not )?(?:\w+ly |(?:more|less|kind|sort|a bit) of )?(?:a|an) \w+"
    r"|my name|i(?:'m| am) from|grew up|years old|born in"
    r"|i(?:'m| am) \d{1,2}(?= *(?:[,.;!]|and\b|$))"  # "I'm 45 and planning to retire"
    r"|i(?:'m| am) (?:\d'\d|\d{2,3} ?(?:kg|kgs|lbs?|pounds|cm|stone)\b|\d\d[mf]\b)"  # "6'2", "35M"
    r"|(?:live|lives|living|moved|move|moving|relocat\w*|based) (?:in|to|from)\b"
    r"|i(?:'m| am) (?:currently )?in (?:the )?(?-i:[A-Z])"  # "For context I'm in the UK"
    r"|(?:work|works|working|job) (?:at|for|as|in)\b|my (?:job|career|boss|company|employer)"
    r"|allerg\w*|vegetarian|vegan|gluten|lactose|intoleran\w*|diabet\w*|diagnosed|asthma"
    r"|on an? [\w-]+(?: [\w-]+)? diet|pesc[ae]tarian|(?:keto|paleo|halal|kosher)\b"
    r"|plant[- ]based|dairy[- ]free|intermittent fasting"
    r"|co?eliac|colou?r[- ]?blind|deaf|dyslexi\w*|adhd|autis\w*|disabilit\w*|disabled"
    r"|medication|therapy|health|pregnan\w*|injur\w*|transgender|married|divorced|engaged"
    r"|had (?:her|his|their|a|our) baby|passed away|(?:was|were) born|retired|graduated"
    rf"|{HEALTH}"
    r"|single parent|(?:i|we) rent\b|(?:i'm|we're|i am|we are) renting|(?:homeowner|tenant)s?\b"
    r"|favou?rite|faves?|go-to|prefer\w*|my (?:budget|price range)"
    r"|^(?:my|our) [\w -]{1,30}? (?:is|are) (?:called|named) (?-i:[A-Z])"  # who a name is
    r"|(?:i'm|i am|we're|we are) (?:\w+ )?into\b|all about|fan of|passionate about"
    r"|obsessed with|(?:i'm|i am) looking for|years of experience"
    r"|(?:don't|do not|never|can't|cannot|no longer|stopped|quit) (?:eat|drink|smoke)\w*"
    # what the user cannot do or take, which advice must respect: "I can't swim"
    r"|can(?:'t|not) (?:swim|drive|cook|ski|skate|dance|ride|handle|tolerate|digest)\b"
    r"|sober|sobriety"
    # a fear, which plans must steer round: "I'm terrible with heights", "scared of flying"
    r"|(?:afraid|scared|terrified|frightened) of|(?:fear|phobia) of|\w+phobi[ac]|heights\b"
    # a pursuit under way, which advice must fit: "I'm training for a marathon"
    r"|(?:i'm|i am|we're|we are) (?:currently |still |now )?(?:training for|learning"
    r"|studying|renovating|saving (?:up )?for|recovering|preparing for|practi[cs]ing"
    r"|teaching myself|writing (?:a|my)|building (?:a|my|our)|raising|caring for)\b"
    # what the user does without, which advice must respect: "I don't have a car"
    r"|(?:don't|do not|never) (?:have|own) (?:a |an |any )?(?:car|kids|children|pets?|dog|cat"
    r"|garden|tv|microwave|oven|dishwasher|driving licen[cs]e|licen[cs]e)\b"
    r"|(?:i|we) (?:\w+ )?(?:eat|drink|drive|own)\b"
    r"|(?:i|we) (?:always|never|often|rarely|seldom|barely|hardly) \w+|(?:left|right)[- ]?handed"
    r"|(?:i|we)(?:'ve| have)? (?:\w+ )?(?:love|like|enjoy|hate|dislike|adore)"
    r"|can(?:'t|not) stand|usually|every (?:day|week|month|year|morning|evening|weekend"
    r"|summer|winter|spring|fall|autumn|january|february|march|april|may|june|july|august|september"
    r"|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday))",
    re.IGNORECASE,
)
_KNOWLEDGE = re.compile(
    r"\b(?:learn\w*|studi\w*|study|know how|taught|teach\w*|skill\w*|realiz\w*|found out"
    r"|discovered|understand|figured out|read (?:that|about)|course|degree|certif\w*|fluent"
    r"|speak \w+|program\w*|coding|code)\b",
    re.IGNORECASE,
)
_EXPERIENCE = re.compile(
    r"\b(?:went|visited|attended|travell?ed|took|did|got|saw|met|made|ran|won|joined|started"
    r"|finished|bought|tried|played|hiked|climbed|watched|celebrated|participated|volunteered"
    r"|adopted|painted|wrote|built|had|was|were|\w+ed|going to|planning|plan to|will|trip"
    r"|on \d{1,2} \w+ \d{4}|in \d{4})\b",
    re.IGNORECASE,
)
_KIN = (
    r"(?:wife|husband|partner|boyfriend|girlfriend|sister|brother|sibling|mom|mother|dad"
    r"|father|parents|son|daughter|kids|children|family|grandma|grandmother|grandpa"
    r"|grandfather|aunt|uncle|cousin|friend|friends|dog|cat|pet|puppy|kitten|baby|babies"
    r"|toddler|newborn|twins|retriever|labrador|terrier|spaniel|poodle|collie|shepherd|beagle"
    r"|husky|dachshund|bulldog|corgi|doodle|hamster|rabbit|bunny|parrot|budgie|horse|pony"
    r"|tortoise|turtle|gecko|snake|guinea pig|ferret|hens|chickens)"
)
_SOME_KIN = rf"(?:a|an|one|two|three|four|five|six|\d+) (?:\w+ )?{_KIN}"  # "two young kids"
_RELATIONS = re.compile(
    rf"\bmy {_KIN}s?\b|\b(?:i|we) (?:have|(?:just )?(?:got|adopted|had)) {_SOME_KIN}(?:s|ren)?\b",
    re.IGNORECASE
)
# "We have two kids and a dog", "We adopted a puppy": a household told, not chit-chat
# opening on "we"
_HOUSEHOLD = re.compile(rf"^we(?: have|'ve| have got|'ve got|(?: just)? (?:got|adopted|had))"
                        rf" {_SOME_KIN}", re.IGNORECASE)
MAX_SHORT_WORDS = 5
_OWN_START = re.compile(r"^(?:i|i'm|i am|my|we|we're|we are|our)\b", re.IGNORECASE)


def content_words(sentence: str) -> list[str]:
    """The words of a sentence that say something (no stopwords, no filler)."""
    words = re.findall(r"[a-z][a-z']+", sentence.lower())
    return [w for w in words if w not in _STOPWORDS and len(w) > 2]


def short_but_personal(sentence: str) -> bool:
    """A short sentence whose subject is the speaker's life: "I'm vegetarian.", "My daughter
    is 5.", "I hate cilantro." (not "I love that idea", nor "One of my favorites")."""
    return (
        len(sentence.split()) <= MAX_SHORT_WORDS
        and bool(_OWN_START.match(sentence))
        and bool(_PROFILE.search(sentence) or _RELATIONS.search(sentence))
        and bool(content_words(sentence) or re.search(r"\d", sentence))  # "I'm 30."
        and not REACTION.match(sentence)
    )


def salience(sentence: str, category: str, dated: bool = False) -> float:
    """Score how likely a qualifying sentence is a lasting fact about its speaker."""
    score = min(len(content_words(sentence)), 8) / 2
    first = SPEAKER.search(sentence)
    before = sentence[: first.start()] if first else ""
    # the speaker opens the sentence, or its main clause after a short phrase ("As a kid, I")
    if first and (len(before.split()) <= 2
                  or before.rstrip().endswith(",") and len(before.split()) <= 4):
        score += 1.0
    if _WEAK_START.match(sentence) and not _HOUSEHOLD.match(sentence):
        score -= 1.0
    if _INTENT.search(sentence):
        score -= INTENT_PENALTY
    if _UNRESOLVED.search(without_own_pronouns(sentence)):
        score -= PRONOUN_PENALTY
    if _IT.search(sentence):
        score -= IT_PENALTY
    if _DEMONSTRATIVE.search(_THAT_CLAUSE.sub("", _NAMED_DEMONSTRATIVE.sub("", sentence))):
        score -= DEMONSTRATIVE_PENALTY
    if _NAMED.search(sentence):
        score += NAMED_BONUS
    if dated or _YEAR.search(sentence):  # "We got married in 1978": a date of its own
        score += DATED_BONUS
    if OWN_TASTE.search(sentence):
        score += TASTE_BONUS
    if short_but_personal(sentence):  # "I'm vegetarian.": few words, all about the speaker
        score += SHORT_PERSONAL_BONUS
    return score + CATEGORY_BONUS[category]


def categorize(sentence: str) -> tuple[str, float]:
    """Guess the category of a first-person sentence, with a confidence."""
    if _PROFILE.search(sentence) or OWN_TASTE.search(sentence):
        return "user_profile", 0.7
    if _KNOWLEDGE.search(sentence):
        return "knowledge", 0.6
    if _EXPERIENCE.search(sentence):
        return "experience", 0.6
    if _RELATIONS.search(sentence):
        return "user_profile", 0.6
    return "other", 0.5
