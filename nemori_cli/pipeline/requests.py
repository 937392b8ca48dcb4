"""Requests to an assistant: instructions are not facts about the user who gives them.

"Fix the bug in my code" says nothing lasting about the user, and "Built me an artifact"
(a typo for "Build") is not "The user built the user an artifact". A request may carry a
real self-statement after a comma ("Make my resume shorter, I have 10 years of experience"):
that clause is kept. A request for a recommendation does say what the user wants ("Can you
recommend a vegetarian restaurant?"): it becomes "I'm looking for a vegetarian restaurant",
unless what is asked for is work on the conversation itself (names, titles, fixes, "this").
"""

from __future__ import annotations

import re

from nemori_cli.pipeline.clauses import NAMED_LIFE_EVENT, OWN_OPENING, OWN_TASTE, REACTION
from nemori_cli.pipeline.passive import DONE_TO_ME, as_done_to
from nemori_cli.pipeline.rewrite import capitalised, strip_interjections, word_set
from nemori_cli.pipeline.roles import said_role
from nemori_cli.pipeline.subject import restore_subject

IMPERATIVES = word_set(
    "act add adjust analyse analyze answer brainstorm build calculate change check choose "
    "classify clean combine compare compose continue convert correct create cut debug define "
    "delete describe design do don't draft draw drop edit estimate expand explain extract fetch "
    "fill find fix format generate give go help identify imagine implement improve include "
    "insert keep list make merge modify move name note optimise optimize organise organize "
    "outline paraphrase parse pick plan polish prepare pretend print proofread provide put "
    "recommend refactor remember remove rename replace reply respond return review rewrite run "
    "send set shorten show simplify sort split suggest summarise summarize swap tell test "
    "translate try turn tweak update use validate write leave skip avoid omit exclude mark flag "
    "highlight prioritise prioritize"
)
_LEAD = re.compile(r"^(?:(?:please|pls|kindly|ok|okay|now|also|and|then|just|so|alright)\b[\s,]*)+",
                   re.IGNORECASE)
# "update on the job hunt: got the offer": news, not "update the code"
_NEWS = re.compile(r"^update (?:on|about) [^:]{1,40}:", re.IGNORECASE)
# "Built me ...", "Get us ...": a verb whose object is the speaker opens a request
_VERB_ME = re.compile(r"^[A-Za-z]+ (?:me|us)\b", re.IGNORECASE)
# "I want the calculator to ...", "I'd like the summary as ...": a request about the work
_WANT_WORK = re.compile(
    r"^i(?:'d| would)? (?:want|need|like|prefer) (?:the|that|this|these|those|it|them)\b"
    r"(?! (?:kind|type|sort|style|way)\b)"
    r"|^i(?:'d| would)? (?:want|need|like) (?:some |a few |more |your )?(?:[\w-]+ ){0,3}?"
    r"(?:ideas|tips|suggestions|help|advice|recommendations|examples|options)\b"
    # "I need a 7-day dinner plan", "I need a Google Sheets formula that ...": a work to make
    r"|^i(?:'d| would)? (?:want|need|like) (?:a|an|the|some) (?:[\w-]+ ){0,3}?(?:formula|plan"
    r"|list|letter|email|query|script|function|template|outline|summary|itinerary|schedule"
    r"|routine|recipe|essay|speech|toast|poem|prompt|regex|draft|caption|bio|table|slides?"
    r"|presentation|timetable)\b"
    # "I want to mention that ...", "I'd like to stress ...": what the text being written says
    r"|^i (?:want|'d like|would like) to (?:mention|say|add|include|stress|emphasi[sz]e|point out"
    r"|thank|apologi[sz]e)\b"
    r"|^no\b[^.!?,]*\b(?:please|pls|plz)\b",  # "No paid apps please, ...": a request
    re.IGNORECASE,
)
# "Please remember that I'm vegetarian", "Keep in mind my budget is $500", "Also, remind me
# that I'm allergic to cats", "yes, add that Derek is coeliac" (to a letter being written):
# what follows is the statement the speaker wants kept or told
_KEEP = re.compile(
    r"^(?:(?:also|and|oh|btw|by the way|one more thing|yes|yeah|ok|okay)[,:]? ){0,2}"
    r"(?:please |pls )?(?:(?:remember|note|keep in mind|bear in mind|don't forget"
    r"|do not forget|remind me)(?: that)?|(?:add|mention|say|include|tell them|let them know)"
    r" that)[,:]?\s+(?=(?:i|i'm|i've|i'd|my|we|we're|we've|our)\b|(?-i:[A-Z][a-z]+ (?:is|has"
    r"|had|got|was|were)\b))",
    re.IGNORECASE,
)
# "how do i make cookies chewy", "is it too late": a question typed without its "?"; and as
# people new to English ask it, the subject before the verb: "how i abort the rebase", "when
# i can run again", "what is the difference between A2 and B1", "which is better"
_QUESTION = re.compile(
    r"^(?:(?:how|what|which|where|why|when|who)(?: [\w']+){0,3}? (?:do|does|did|can|could"
    r"|should|would|will|is|are|am)|(?:do|does|did|can|could|should|would|will|is|are|am))"
    r" (?:i|you|we|it|they|there|my|this|that)\b"
    r"|^how (?:i|we) "
    r"|^(?:when|where|what|which) (?:i|we) (?:can|should|could|must|need|have to)\b(?!,)"
    r"|^(?:what|which|who)(?:'s| is| are) (?:the|a|an|better|best)\b"
    r"|^which (?:one )?(?:is|are) (?:better|best|faster|cheaper|easier)\b",
    re.IGNORECASE,
)
_SELF_CLAUSE = re.compile(  # after a request, a clause about the speaker: "..., I'm vegan"
    r"(?:[,;:]| [-\u2013\u2014])\s+(?:and |but |because |since |as )?"
    r"(?=(?:I|I'm|I've|I'd|we|We|we're|We're)\b|" + re.sub(r"\?P<\w+>", "?:", DONE_TO_ME) + ")"
)

# "Sounds fun, even if I'm not into games": the speaker in the concession, not the remark
_OWN_CONCESSION = re.compile(
    rf",\s+(?:even if|even though|although|though|but|except that)\s+(?={OWN_OPENING})",
    re.IGNORECASE,
)

# "The recipe looks great, I'm allergic to shellfish": a remark on something else, then the
# speaker's own clause, which is the statement
_AFTER_REMARK = re.compile(rf",\s+(?={OWN_OPENING})", re.IGNORECASE)
_REMARK = re.compile(
    r"^(?:[\w']+ ){0,4}?(?:looks?|sounds?|seems?|is|was|works?|worked|helps?|helped)"
    r"(?: [\w']+){0,3}$",
    re.IGNORECASE,
)

# ", give me ...", ", are there ...?": a request or question spliced onto a statement
_ASIDE = re.compile(
    r"[,;]\s+(?=(?:(?:and|so|then) )?(?:kindly )?(?:(?:please|pls|can|could|would|will|are|is"
    r"|do|does|should|what|how|which|any|where|why)\b[^.!]*\?\s*$"
    r"|(?:" + "|".join(sorted(IMPERATIVES)) + r")\b"
    r"|(?:what|how|which|where|why|when)(?: \w+)? (?:can|could|should|do|does|would|will)"
    r" (?:i|we|you)\b"
    # "..., party ideas?", "..., thoughts?": what the speaker asks for, named alone
    r"|(?:[\w-]+ ){0,3}(?:ideas|tips|suggestions|recommendations|recs|advice|thoughts)\s*\?*\s*$))",
    re.IGNORECASE,
)
# "..., maybe conflict?", "..., is that normal?": a few words of doubt after what the user
# tells an assistant (between people, "..., right?" is more often chat than a question)
_DOUBT = re.compile(r"[,;]\s+(?=(?:[\w'-]+ ){0,2}[\w'-]+\s*\?+\s*$)")
# "vet bill was €380 how do i cat-proof the flat", "balance is numeric, what go type should i
# scan it into": a question run on after a statement, typed without its "?"
_RUN_ON_QUESTION = re.compile(
    r"(?:,\s+|\s+)(?=(?:how|what|which|where|why|when)(?: [\w'-]+){0,3}? (?:do|does|did|can"
    r"|could|should|would|will|shall|must|am) (?:i|we)\b)"
    # "my coworker is vegan lol, what can he even eat": after a comma, of anyone
    r"|,\s+(?=(?:how|what|which|where|why|when)(?: [\w'-]+){0,2}? (?:do|does|did|can|could"
    r"|should|would|will|is|are) (?:he|she|they|you|it)\b)",
    re.IGNORECASE,
)
# "If I won the lottery I'd buy a vineyard", "Suppose I'm a small business owner": a world
# the speaker imagines, not theirs (a plan stays: "If we replace it we'd want a used one")
_HYPOTHETICAL = re.compile(
    r"^\W*(?:(?:suppose|supposing|imagine|pretend|let's say)(?: that)?,? (?:i|we)\b"
    r"|hypothetically\b|what if (?:i|we)\b"
    r"|if (?:i|we) would\b"  # "If we would move to Haarlem", as learners say
    r"|(?:even )?if (?:i|we) (?:\w+ )?(?:were|was|had|won|could|did|went"
    r"|\w{3,}ed)\b[^.!?]*?\b(?:i|we)(?:'d| would| could| might)\b)",
    re.IGNORECASE,
)
# "my neighbour's son", "my boss's wife": someone else's people and things, not the speaker's
_SOMEONE_ELSES = re.compile(
    r"^(?:my|our) (?:\w+ )?(?:neighbou?r|friend|colleague|co-?worker|boss|manager|roommate"
    r"|flatmate|housemate|client|customer|landlord|landlady|teacher|student|patient|classmate)"
    r"(?:'s|s')\s",
    re.IGNORECASE,
)
# "planning a trip to japan in april, can you suggest an itinerary?", "my landlord wants 15%
# more, is that legal", "i'm a fleetwood mac fan so what songs ...": the request or question
# goes, "?" or not; not after a condition ("if I send it, could you check it?")
_RUN_ON_REQUEST = re.compile(
    r",\s+(?=(?:can|could|would|will) you\b|(?:is|are|was|were|does|do|did|can|could|should"
    r"|would|will) (?:that|this|it|there|i|we)\b)"
    r"|,?\s+so\s+(?=(?:what|which|how|any|can|could|should|would)\b)"
    # a question run on without a stop: "i keep botching landings do you have any tricks"
    r"|\s+(?=(?:do|can|could|would) you (?:have|know|recommend|suggest|think|help|give|tell)\b)"
    # "I'm allergic to penicillin so keep that in mind": a note to the assistant, not news
    r"|[,;]?\s+(?:so\s+|and\s+)?(?:please\s+)?(?=(?:keep|bear) (?:that|this) in mind\b)"
    # "so no prawns please", "so trains please for the trip" (not "so no meat please, eggs
    # are fine", which tells more after it)
    r"|[,;]?\s+so\s+(?=(?:[\w'-]+\s+){0,4}(?:please|pls|plz)(?:\s+[\w'-]+){0,5}\W*$)"
    # "I'm terrible with heights so skip the viewpoints": what follows "so" asks, not tells
    r"|[,;]?\s+so\s+(?=(?:skip|avoid|omit|exclude|keep|make|give|suggest|recommend|don't"
    r"|do not|stick to|focus on|leave out|mention|include|explain|use|mark|flag)\b)"
    r"|[,;]?\s+(?:so|and)\s+(?=(?:please|pls|plz)\b)",  # "I'm colorblind so please avoid ..."
    re.IGNORECASE,
)
_CONDITION = re.compile(r"^\W*(?:if|when|whether|once|after|before|unless)\b", re.IGNORECASE)
_SUBJECT = re.compile(
    r"^(?:(?:both|all|each|one|two|three|most|some|none)(?: of)? )?(?:my|our)\b"
    r"|^me and (?:my|our|the|(?-i:[A-Z][a-z]+))\b"
    r"|\b(?:I|I'm|I've|I'd|I'll|we|we're|we've|we'd|we'll)\b",
    re.IGNORECASE,
)


# "Can you recommend X?", "Suggest me X", "What's a good X?", "Any X recommendations?"
_SEEK = (
    re.compile(r"^(?:can|could|would|will) you (?:please )?(?:recommend|suggest)(?: me| to me)? "
               r"(?P<x>.+?)[.?!]*$", re.IGNORECASE),
    re.compile(r"^(?:recommend|suggest)(?: me)? (?P<x>.+?)[.?!]*$", re.IGNORECASE),
    re.compile(r"^(?:what|which)(?:'s| is| are| would be)? "
               r"(?P<x>(?:(?:some|a|an|the) )?(?:good|best|great|nice|decent|cheap) .+?)\?+$",
               re.IGNORECASE),
    re.compile(r"^any (?P<x>.+? (?:recommendations|suggestions|recs))\b[.?!]*$", re.IGNORECASE),
)
# work on the conversation itself, or something about the assistant: no wish of the user's
_NOT_SOUGHT = re.compile(
    r"^(?:some |a few |a |an |the |me )?(?:better |best |good |short |catchy )?(?:names?|titles?|"
    r"words?|synonyms?|captions?|slogans?|taglines?|subject lines?|phrases?|headlines?|ways? to"
    r"|improvements?|changes?|edits?|fix(?:es)?|corrections?|alternatives? (?:to|for) "
    r"(?:this|that|it)|how|what|where|when|why|which|whether|if)\b"
    r"|\b(?:this|these|those|it|you|your|above|below|next steps?|the topic)\b|\blearn more$"
    r"|\b(?:to|on|of|for|in|with|about) that\b|^that\b",
    re.IGNORECASE,
)


def sought(sentence: str) -> str | None:
    """What a request for a recommendation asks for ("a vegetarian restaurant"), else None."""
    text = _LEAD.sub("", sentence.strip())
    for pattern in _SEEK:
        m = pattern.match(text)
        if m and not _NOT_SOUGHT.search(m["x"]) and len(m["x"].split()) >= 2:
            return re.sub(r"^(?:me|to me) ", "", m["x"]).rstrip(" ,;:")
    return None


# a request to work on a text the user gives ("Can you make this email sound more polite?",
# "Translate to Spanish:"): what follows is the text, not news of the user ("Edit: ..." is)
_WORK_ON = re.compile(
    r"^\W*(?:(?:can|could|would|will) you (?:please )?|please )?(?:(?:translate|proofread"
    r"|rewrite|rephrase|paraphrase|polish|edit|correct|shorten|summari[sz]e|reword)\b"
    r"(?:[^.?!:]*\b(?:this|these|the following|below)\b[^.?!:]*[.?!:]?|\s+[^.?!:]+:|(?<!edit)\s*:)"
    r"|make (?:this|these|the following)\b[^.?!:]*\bsound\b[^.?!:]*[.?!:]?)",
    re.IGNORECASE,
)


def own_words(sentences: list[str]) -> list[str]:
    """The sentences up to a request to work on a text; the text after it is not the user's
    news ("Translate this: My name is Ana and I live in Toronto.")."""
    for i, sentence in enumerate(sentences):
        if m := _WORK_ON.match(sentence):
            return [*sentences[:i], sentence[: m.end()]]
    return sentences


def is_request(sentence: str) -> bool:
    """Whether a sentence asks the assistant to do or tell something rather than tells about
    the user."""
    text = _LEAD.sub("", sentence.strip())
    first = text.split(maxsplit=1)[0].lower().rstrip(",:") if text.split() else ""
    return ((first in IMPERATIVES and not _NEWS.match(text)) or bool(_VERB_ME.match(text))
            or bool(_WANT_WORK.match(text)) or bool(_QUESTION.match(text)))


def about_speaker(clause: str) -> bool:
    """Whether a clause has the speaker as subject, its dropped "I" restored ("Took a trip"),
    or as the one whose taste it tells ("Blue's my fave")."""
    clause = restore_subject(strip_interjections(clause))
    if someone := _SOMEONE_ELSES.match(clause):  # the speaker may still be in what follows
        clause = clause[someone.end():]
    return bool(_SUBJECT.search(clause) or OWN_TASTE.search(clause))


def self_statements(sentence: str, to_assistant: bool = False) -> list[str]:
    """The parts of a sentence that may state something about its speaker.

    A request yields only the first-person clauses that follow it; a statement loses a
    request or question spliced on after a comma ("I keep forgetting, give me a system").
    Said to an assistant, a part must have the speaker as subject ("I", "we", "My X"):
    "whip up an email to my team" is a request whatever its verb. A request for a
    recommendation is what the speaker is looking for. A role given in passing ("As a
    nurse, I ...") is a statement of its own.
    """
    sentence = _KEEP.sub("", sentence)  # "Remember that I'm vegetarian": a statement to keep
    if _HYPOTHETICAL.match(sentence):
        return []
    roles = []
    if said := said_role(sentence):  # "As a nurse, I ..." says what the speaker is
        role, sentence = said
        roles.append(role)
    if wish := sought(sentence):
        return [*roles, f"I'm looking for {wish}."]
    if is_request(sentence):
        parts = [capitalised(p) for p in _SELF_CLAUSE.split(sentence)[1:]]
    else:
        parts = [sentence]
        main, *own = _OWN_CONCESSION.split(sentence, maxsplit=1) if to_assistant else [""]
        # "Looks great, though I don't eat pork", "I love it, but I'm allergic to nuts"
        if own and (not about_speaker(main) or REACTION.match(main)):
            parts = [capitalised(own[0])]
        remark, *clause = _AFTER_REMARK.split(parts[0], maxsplit=1)
        if not clause:  # "The starter worked, baked my first loaf": the "I" chat drops
            remark, *clause = re.split(r",\s+", parts[0], maxsplit=1)
            clause = [c for c in clause if restore_subject(capitalised(c)) != capitalised(c)]
        if clause and _REMARK.match(remark) and not about_speaker(remark):
            parts = [capitalised(clause[0])]
    out = []
    for part in parts:
        head = _ASIDE.split(part, maxsplit=1)[0]
        if to_assistant:
            head = _DOUBT.split(head, maxsplit=1)[0]
        asked = _RUN_ON_QUESTION.split(head, maxsplit=1)
        # with its "?" the sentence is one question: "if I want X, what do I change?"
        if len(asked) > 1 and len(asked[0].split()) >= 2 and not head.rstrip().endswith("?"):
            head = asked[0]
        told, *request = _RUN_ON_REQUEST.split(head, maxsplit=1)
        if request and len(told.split()) >= 2 and not _CONDITION.match(told):
            head = told
            # "so skip the bars, I'm into architecture": the speaker again after the request
            parts += [capitalised(p) for p in _SELF_CLAUSE.split(request[0])[1:]]
        if head != part:  # what is left of a cut: no "so" or "and" dangling at its end
            head = re.sub(r"(?:[\s,;]+(?:so|and|but|or|because))+$", "", head.rstrip(" ,;"))
            head = head.rstrip(" ,;") + "."
        if to_assistant and not about_speaker(head):  # "the GP started me on ...": kept
            head = as_done_to(head)
        wanted = not to_assistant or about_speaker(head) or NAMED_LIFE_EVENT.match(head)
        if head.strip() and wanted and not is_request(head):
            out.append(head)
    return [*roles, *out]
