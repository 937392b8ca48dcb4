"""Sentence splitting and first-person to third-person rewriting, for offline facts."""

from __future__ import annotations

import re


def word_set(text: str) -> frozenset[str]:
    """The set of the space-separated words of a text (for word lists)."""
    return frozenset(text.split())


def capitalised(text: str) -> str:
    """The text with its first letter in upper case."""
    return text[:1].upper() + text[1:]


_ABBREVIATIONS = ("mr", "mrs", "ms", "dr", "st", "vs", "etc", "e.g", "i.e", "approx", "no", "jr",
                  "a.m", "p.m", "u.s", "u.k")
# end punctuation, then a new sentence; casual typing starts it in lower case ("it was
# closed. so i left"), but an ellipsis then lower case goes on ("stuff... but the worst");
# a bracketed note ("[shared a photo: ...]") ends one too
_SENTENCE_END = re.compile(
    r"(?<=[.!?…])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])|(?<=[^.…][.!?])[\"')\]]*\s+(?=[a-z])"
    r"|(?<=\])\s+(?=[\"'(]?[A-Z])|\s*\n+\s*"
)
_INTERJECTION = re.compile(
    # a greeting to the assistant by name: "hi chatgpt, I'm Priya", "hey there"
    r"^(?:(?:(?:hey|hi|hello)(?: there| chatgpt| gpt| claude| gemini| grok| deepseek| copilot)"
    r"|hey|hi|hello|yo|wow|whoa|oh|ohh|ah|aw+|yeah|yes|yep|yup"
    r"|no (?:idea|clue|way)(?=\s*[,!.…])"
    # "no, I ..." and "no I ...", not "no one in my family", "NO shellfish pls"
    r"|no(?=\s*[,!.…:;-]|\s+(?:i|i'm|i've|we|you|it|it's|that|that's|this|he|she|they|not"
    r"|problem|worries|thanks|thank)\b)|nope|well|so|ha|haha+|hah|lol"
    r"|omg|thanks|thank you|ok|okay|sure|great|cool|awesome|nice|amazing|honestly|hmm+|um+"
    r"|totally|absolutely|definitely|right|anyway|anyways|anyhow|btw|by the way|also|and|but|plus"
    r"|actually|basically|literally|seriously|frankly|woah|tbh|to be honest|lmao"
    r"|true|indeed|gosh|man|dude|sweet|congrats|congratulations|exactly|guess what|you know what"
    r"|on (?:a|another|an(?:other)?) (?:\w+ )?note|speaking of (?:which|that)|in other news"
    r"|funnily enough|funny enough|fun fact|since (?:we|i) (?:last )?(?:spoke|talked|chatted)"
    r"|ugh+|argh+|sigh|oops|whoops|yikes|phew|meh|ooh+|yay+|woo+hoo+|hurray|hooray|alas"
    r"|scratch that|correction|my bad"
    # "Me, I am living in Lyon", "Moi je": an emphatic "me" before the "I" it doubles
    r"|(?:me|myself)(?=,? i\b)"
    # a hedge before what the speaker tells of themself: "I guess I'm a morning person now"
    r"|(?:i (?:guess|suppose|reckon)|i(?:'d| would) say|you know)(?: that)?"
    r"(?= (?:i|i'm|i've|my|we|our)\b)"
    # news announced before it is told: "I thought I'd let you know that I got the job", "the
    # only true thing is that I have a cat"
    r"|(?:i )?(?:just )?(?:thought|wanted) (?:i'd|i would|to) (?:let you know|tell you|mention"
    r"|share|say)(?: that)?(?= (?:i|i'm|i've|my|we|our)\b)"
    r"|(?:the )?(?:only )?(?:true |real )?(?:thing|truth|fact) is(?: that)?"
    r"(?= (?:i|i'm|i've|my|we|our)\b)"
    # a word of assent or a "forgot to say" before what the speaker tells: only with its stop
    r"|(?:good|perfect|fine|lovely|brilliant|alright|sorry|wait|context|makes sense|got it"
    r"|(?:quick|random|silly|dumb|side) (?:question|q|one|note|thought)|side note"
    r"|sounds good|(?:wait,? )?(?:sorry,? )?(?:i )?(?:forgot to (?:say|mention)|should have"
    r" (?:said|mentioned))"
    # "A lot's happened since we last chatted - I ...": news to come, no news itself
    r"|(?:so )?(?:a lot|lots|much|tons|loads)(?:'s| has)?(?: been)? (?:happened|happening"
    r"|going on)(?: since (?:we|i) (?:last )?(?:spoke|talked|chatted))?)(?=\s*[,!.…:;—–-])"
    r"|fyi|for context|for (?:the )?record|for reference|for your (?:information|reference)"
    r"|(?:just )?in case (?:it|that) (?:matters|helps)|not sure if (?:it's |this is )?relevant"
    r"(?: but)?|here(?:'s| is) (?:my|the|some) (?:situation|thing|deal|context|background"
    r"|backstory))"
    r"\b[\s,!.…:;—–-]*)+",
    re.IGNORECASE,
)
# "Unrelated: ...", "Update: ...", "update on the job hunt: ..."
_LABEL = re.compile(
    r"^(?:(?:[A-Za-z]+ ){0,3}[A-Za-z]+|(?:an? |quick |small |big )?update (?:on|about) [^:]{1,40})"
    r":\s+(?=\S)",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?|[^A-Za-z]+")

ADVERBS = word_set(
    "usually always often never sometimes really also just still actually only even totally "
    "definitely already rarely mostly generally recently finally truly absolutely honestly "
    "seriously literally currently kinda mainly normally typically basically occasionally "
    "constantly regularly certainly personally especially probably simply now then too all "
    "both once hardly barely gradually slowly luckily last first much far rather no longer "
    "almost twice thrice somehow ever def pretty"
)
SOFTENERS = frozenset({"kind of", "sort of"})
UNCHANGED = word_set(
    "can cannot could will would shall should may might must did didn't can't couldn't won't "
    "wouldn't shouldn't was wasn't had hadn't used ought"
)
IRREGULAR_PAST = word_set(
    "went got saw made took came ran did found felt thought bought met left knew began became "
    "brought wrote told said gave kept heard built sent spent won lost taught caught fell drove "
    "flew ate drank swam sang sat stood understood chose grew threw woke wore forgot paid sold "
    "slept lit hung held led meant dealt fought sought rode hid broke spoke stole froze shook "
    "overcame dove dreamt learnt burnt spelt put set cut hit let read quit split spread shut "
    "began drew fed forgave hurt knelt lay lent rang rose sank slid spun struck swore swung "
    "tore wept wound had"
)
BASE_ED = word_set(
    "need feed seed bleed breed speed proceed succeed exceed shed wed embed heed"
)
PAST_PREFIXES = ("re", "over", "under", "mis", "out", "with", "fore")
# -ly words that are verbs, not adverbs
LY_VERBS = word_set("apply reply rely supply multiply comply imply bully rally tally ally fly")
AMBIGUOUS_PAST = word_set("put set cut hit let read quit split spread shut hurt lay")
NOT_VERBS = word_set(
    "a an the to too so and or but not of in on at for with as if by from that this it "
    "he she they we you i"
)
SUBJECT_VERBS = {
    "gotta": "has to", "wanna": "wants to",
    "am": "is", "are": "is", "were": "was", "have": "has", "do": "does", "go": "goes",
    "don't": "doesn't", "haven't": "hasn't", "aren't": "isn't", "weren't": "wasn't",
    "'m": "is", "'re": "is", "'ve": "has", "'ll": "will",
}
# "I use a Fujifilm and want ...", "we moved to Leeds and still don't know": a second verb
# of the speaker's after "and" (only verbs seldom read as nouns there)
SHARED_VERBS = word_set("want need have don't haven't hope plan wanna gotta am")
# "goal is $40k and I have": a clause with a verb before "and I" is no compound subject
_NOT_SUBJECT = word_set("is are was were am be been has have had do does did will would can")
HAD_AFTER = word_set("been had gone done seen never already just got")
FIRST_PERSON = re.compile(
    r"\b(?:I|i|I'm|I've|I'd|I'll|me|my|mine|myself|we|we're|we've|we'd|we'll|our|ours|us"
    r"|ourselves)\b",
    re.IGNORECASE,
)


def normalise_quotes(text: str) -> str:
    """Use straight apostrophes and quotes, so contractions match."""
    return text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace(
        "\u201d", '"'
    )


def split_sentences(text: str) -> list[str]:
    """Split text into sentences at end punctuation and line breaks."""
    text = normalise_quotes(text)
    pieces, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        head = text[start : m.start()].rstrip()
        last = head.rsplit(None, 1)[-1].lower().rstrip(".") if head.split() else ""
        if head.endswith(".") and last in _ABBREVIATIONS:
            continue
        pieces.append(head)
        start = m.end()
    pieces.append(text[start:])
    return [p.strip() for p in pieces if p.strip()]


def strip_interjections(sentence: str, names: frozenset[str] = frozenset()) -> str:
    """Drop leading fillers and vocatives: "Wow, Mel! ..." -> "...", "..., Mel!" -> "...!"."""
    last = re.search(r",\s*([A-Z][a-z]+)\s*([.!]*)$", sentence)
    if last and last.group(1).lower() in names:
        sentence = sentence[: last.start()] + last.group(2)
    previous = None
    while previous != sentence:
        previous = sentence
        sentence = _INTERJECTION.sub("", sentence).lstrip()
        sentence = _LABEL.sub("", sentence)
        first = re.match(r"([A-Z][a-z]+)\s*[,!]\s*", sentence)
        if first and first.group(1).lower() in names:
            sentence = sentence[first.end() :]
    return sentence[:1].upper() + sentence[1:]  # "Well, took a trip" -> "Took a trip"


_CLAUSE_OPENERS = word_set("and but so because since as while though although when")


def _opens_clause(tokens: list[str], i: int) -> bool:
    """Whether the word at i opens a clause: first, after a stop, or after a conjunction."""
    if i < 2:
        return True
    stop = re.search(r"[,;:!?.—–-]", tokens[i - 1])
    return bool(stop) or tokens[i - 2].lower() in _CLAUSE_OPENERS


def is_irregular_past(word: str) -> bool:
    """Whether a word is an irregular past tense, prefixed or not ("took", "retook")."""
    word = word.lower()
    return word in IRREGULAR_PAST or any(
        word.startswith(p) and word[len(p):] in IRREGULAR_PAST for p in PAST_PREFIXES
    )


def is_past(word: str) -> bool:
    """Whether a word is a past tense that cannot be a present ("took", "booked"; not "read")."""
    word = word.lower()
    return is_irregular_past(word) and word not in AMBIGUOUS_PAST or (
        word.endswith("ed") and len(word) > 4 and word not in BASE_ED)


def _third_person(verb: str) -> str:
    lower = verb.lower()
    if lower in SUBJECT_VERBS:
        return SUBJECT_VERBS[lower]
    if (
        lower in UNCHANGED
        or is_irregular_past(lower)
        or lower in NOT_VERBS
        or (lower.endswith("ed") and lower not in BASE_ED)
        or lower.endswith(("n't", "ing"))
        or not lower.isalpha()
        or verb != lower
    ):
        return verb
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


_THEY = re.compile(r"\b(?:they|them|their|theirs|they're|they've|they'll|they'd)\b", re.IGNORECASE)


# words that bring another subject or clause between the speaker and a "me" or "us"
_OTHER_ACTOR = word_set(
    "and but or because when so while if that who which he she they you it him her them "
    "someone somebody everyone people"
)


def _speaker_acts_on_self(tokens: list[str], i: int) -> bool:
    """Whether "me"/"us" at tokens[i] is the object of a verb whose subject is the speaker,
    said just before ("I got me a bike", "we booked us a table")."""
    words: list[str] = []
    for tok in reversed(tokens[:i]):
        lower = tok.lower()
        if lower in {"i", "we"}:
            between = words[::-1]
            if between[:1] == ["and"] and between[1:2] in (["my"], ["our"]):
                between = between[3:]  # "I and my sister booked us": the pair acts on itself
            return len(between) <= 3 and not _OTHER_ACTOR & set(between)
        if re.search(r"[,.;:!?]", tok):
            return False
        if tok.strip():
            words.append(lower)
    return False


class _Rewriter:
    """Walk the tokens of one sentence, replacing first-person words."""

    def __init__(self, subject: str | None) -> None:
        self.name = subject or "the user"
        self.possessive = f"{subject}'s" if subject else "the user's"
        # "The user got their car serviced", not "the user's car": once "the user" is said,
        # the user's things are "their" (a name stays: a search for it finds the fact)
        self.pronoun = subject is None

    def rewrite(self, sentence: str) -> str:
        tokens = _WORD.findall(normalise_quotes(sentence))
        their = self.pronoun and not _THEY.search(sentence)  # else "their" is someone else's
        out: list[str] = []
        agree = False  # the next verb must agree with a third-person singular subject
        own = False  # the speaker is the subject of the clause so far
        shared = False  # after the speaker's "and": a second verb of theirs may follow
        i = 0
        while i < len(tokens):
            tok, lower = tokens[i], tokens[i].lower()
            nxt = tokens[i + 2].lower() if i + 2 < len(tokens) else ""
            if tok in {"I", "i"} or lower == "we":
                # "my dog and I love": a short compound subject keeps its plural verb ("never
                # liked Mac and I think" is no subject)
                clause = re.split(r"[,.;:!?]", "".join(out))[-1].lower().split()
                agree = not (2 <= len(clause) <= 4 and clause[-1] == "and"
                             and not (_NOT_SUBJECT | ADVERBS) & set(clause))
                own = True
                out.append(self.name)
            elif lower in {"i'm", "we're"}:
                out.append(f"{self.name} is")
                own = True
            elif lower in {"i've", "we've"}:
                out.append(f"{self.name} has")
                own = True
            elif lower in {"i'll", "we'll"}:
                out.append(f"{self.name} will")
            elif lower in {"i'd", "we'd"}:
                out.append(f"{self.name} {'had' if nxt in HAD_AFTER else 'would'}")
            elif lower == "us" and " ".join(t.lower() for t in tokens[max(0, i - 4):i:2]) in {
                "both of", "all of", "each of", "two of", "three of", "four of"}:
                out.append("them")  # "for both of us": the user and whoever is with them
            elif lower in {"me", "us"} and not (i + 1 < len(tokens) and tokens[i + 1] == "-"):
                # "I booked us a class": the user's own object is "themselves", not the user
                own_object = self.pronoun and _speaker_acts_on_self(tokens, i)
                out.append(("themself" if lower == "me" else "themselves") if own_object
                           else self.name)
            elif lower in {"my", "our"} and their and self.name in "".join(out).lower():
                out.append("their")
            elif (lower == "mine" and nxt.isalpha() and nxt not in {"are", "were"}
                  and _opens_clause(tokens, i)):
                # "mine just retired": not "the user's just retired" (the user has retired)
                out.append(f"{self.possessive} one")
            elif lower in {"my", "our", "mine", "ours"}:
                out.append(self.possessive)
            elif lower in {"myself", "ourselves"}:
                out.append("themself" if lower == "myself" else "themselves")
            elif (agree or shared) and tok[:1].isalpha() and (
                lower in ADVERBS or (lower.endswith("ly") and lower not in LY_VERBS)
                or "".join(tokens[i:i + 3]).lower() in SOFTENERS  # "I kind of want"
                or "".join(tokens[max(0, i - 2):i + 1]).lower() in SOFTENERS
            ):
                out.append(tok)
            elif agree and tok[:1].isalpha():
                out.append(_third_person(tok))
                agree = False
            elif shared and lower in SHARED_VERBS:
                out.append(_third_person(tok))
                shared = False
            else:
                if tok.strip(" ,"):
                    agree = False  # other punctuation ends the subject
                if re.search(r"[.;:!?]", tok):
                    own = False
                if tok.strip():
                    shared = own and lower == "and"
                out.append(tok)
            i += 1
        text = "".join(out)
        # "we both love", "we're all sad": one speaker, no "both" or "all"
        name = re.escape(self.name)
        text = re.sub(
            rf"\b({name}(?: is| has| will| would| had)?) (?:both|all)\b(?! of| about)", r"\1", text
        )
        return text[:1].upper() + text[1:]


# words that make chat emphatic and say nothing of the fact: "I'm so excited", "really love"
_INTENSIFIER = re.compile(
    r"\b(?:really|super|totally|actually|definitely|honestly|literally|seriously|truly"
    r"|absolutely|kinda|sorta|pretty(?= (?:\w+(?:ly|ful|ous|ive|ing|ed)|good|cool|big|hard|tough"
    r"|great|nice|fun|busy|happy|sure)\b))\s+(?=\w)"
    r"|\b(?P<verb>is|am|are|was|were|i'm|it's|that's|they're|we're|be|been|feel|felt|feels|looks"
    r"|looked|seems|sounds)"
    r" so\s+(?=\w)(?![^,.;!?]*\bthat\b)",  # "so tired that I slept" keeps its "so"
    re.IGNORECASE,
)


def drop_intensifiers(sentence: str) -> str:
    """Drop emphasis that chat adds and a fact does not need: "I'm so excited" -> "I'm excited"."""
    return _INTENSIFIER.sub(lambda m: f"{m['verb']} " if m["verb"] else "", sentence)


# "my wife and I went": the speaker first, so the wife is "their wife", not "the user's"
# ("my coworker's birthday friday and I want": a possessive is no partner of the speaker's,
# nor is a clause: "my kid asked and I fumbled the answer")
_PAIR_WORD = r"(?!(?:[a-z-]+ed|is|was|said|told|got|went|came|did|does|has|had|can|will)\b)[a-z-]+"
_OWN_PAIR = re.compile(rf"\b([Mm]y|[Oo]ur) ((?:{_PAIR_WORD} ){{0,2}}?{_PAIR_WORD}) and I\b(?!['’])")


def to_third_person(sentence: str, subject: str | None) -> str:
    """Rewrite a first-person sentence about its speaker in the third person."""
    paired = _OWN_PAIR.sub(lambda m: f"I and {m[1].lower()} {m[2]}", sentence)
    return _Rewriter(subject).rewrite(paired)


def has_first_person(sentence: str) -> bool:
    """Whether the sentence speaks about its speaker (I, me, my, we, our...)."""
    return bool(FIRST_PERSON.search(normalise_quotes(sentence)))
