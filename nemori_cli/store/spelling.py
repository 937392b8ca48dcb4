"""British spellings read as American ones, so a lexical match does not hang on "colour".

Assistants mostly answer in American English and many people write British: "Can you suggest
songs I could practise?" must find the session that says "practice", and "my favourite cafe"
the fact that says "favorite". Every word is mapped before it is stemmed, in the index and in
the query alike. Only spellings are mapped (not words: "holiday" stays "holiday"), and the
"-ise" verbs only from a list, since "promise", "exercise" and "advise" are American too.
"""

from __future__ import annotations

import functools
import re

# the lexical indexes record this, so that one built before (or without) the mapping is
# queried the way it was built
VERSION = 1

_WORDS = {
    "grey": "gray", "greys": "grays", "greyish": "grayish", "mum": "mom", "mums": "moms",
    "mummy": "mommy", "tyre": "tire", "tyres": "tires", "pyjamas": "pajamas",
    "pyjama": "pajama", "aluminium": "aluminum", "plough": "plow", "ploughed": "plowed",
    "mould": "mold", "mouldy": "moldy", "moustache": "mustache", "draught": "draft",
    "draughts": "drafts", "storey": "story", "storeys": "stories", "yoghurt": "yogurt",
    "yoghurts": "yogurts", "aeroplane": "airplane", "aeroplanes": "airplanes",
    "doughnut": "donut", "doughnuts": "donuts", "sceptic": "skeptic", "sceptical": "skeptical",
    "scepticism": "skepticism", "jewellery": "jewelry", "cosy": "cozy", "cosier": "cozier",
    "judgement": "judgment", "judgements": "judgments", "ageing": "aging", "maths": "math",
    "programme": "program", "programmes": "programs", "practise": "practice",
    "practised": "practiced", "practises": "practices", "practising": "practicing",
    "cheque": "check", "cheques": "checks", "kerb": "curb", "sulphur": "sulfur",
    "licence": "license", "licences": "licenses", "defence": "defense", "defences": "defenses",
    "offence": "offense", "offences": "offenses", "pretence": "pretense",
    "catalogue": "catalog", "catalogues": "catalogs", "catalogued": "cataloged",
    "analogue": "analog", "dialogue": "dialog", "dialogues": "dialogs",
    "manoeuvre": "maneuver", "manoeuvres": "maneuvers", "manoeuvred": "maneuvered",
    "speciality": "specialty", "specialities": "specialties", "artefact": "artifact",
    "artefacts": "artifacts", "annexe": "annex", "chilli": "chili", "chillies": "chilies",
    "smoulder": "smolder", "smouldering": "smoldering", "titbit": "tidbit",
    "whilst": "while", "amongst": "among", "learnt": "learned", "spelt": "spelled",
    "dreamt": "dreamed", "spoilt": "spoiled", "burnt": "burned", "enrol": "enroll",
    "enrols": "enrolls", "enrolment": "enrollment", "fulfil": "fulfill", "fulfils": "fulfills",
    "fulfilment": "fulfillment", "instalment": "installment", "instalments": "installments",
    "instil": "instill", "distil": "distill", "skilful": "skillful", "wilful": "willful",
    "woollen": "woolen", "jewellers": "jewelers", "jeweller": "jeweler",
}
# colour, favourite, neighbourhood, behavioural, dishonour: "-our" words, with what precedes
_OUR = re.compile(
    r"^((?:dis|un|mis)?(?:colo|flavo|labo|neighbo|behavio|humo|hono|favo|harbo|rumo|vapo|savo"
    r"|savio|endeavo|armo|odo|parlo|splendo|vigo|tumo|clamo|valo|cando|ardo|fervo|rigo|arbo"
    r"|demeano))ur"
)
# organise, realisation, apologising, moisturiser: the "-ise" verbs that are "-ize" verbs too
_ISE = re.compile(
    r"^(organ|real|recogn|apolog|summar|priorit|custom|optim|minim|maxim|special|emphas|critic"
    r"|categor|memor|final|visual|personal|social|util|standard|author|normal|familiar|sympath"
    r"|character|central|modern|mobil|stabil|steril|moistur|energ|hospital|local|general"
    r"|initial|serial|synchron|harmon|civil|colon|capital|legal|penal|public|hypothes|theor"
    r"|agon|patron|scrutin|jeopard|terror|vapor|fertil|tantal|item|idol|immun|sanit|neutral"
    r"|equal|vandal|victim|symbol|fantas|popular|marginal|monet|incentiv|digit|weapon|strateg"
    r"|global|rational|commercial|industrial|internal|crystall|caramel|polar|sensit|desensit"
    r"|trivial|traumat|dramat|satir|mesmer|pressur|random|token|glamor|alphabet|urban|western"
    r"|motor|computer|miniatur|evangel|human|ideal|revolution|euthan|stigmat|amort"
    r"|accessor|sermon|southern|winter|vocal|verbal|galvan|canon|oxid"
    r"|fossil|metabol|hydrol|ostrac|scandal|demon|vulcan|subsid|plagiar|privat)"
    r"is(e|es|ed|ing|er|ers|ation|ations|able)$"
)
_YSE = re.compile(r"^(anal|paral|catal|dial|electrol)ys(e|es|ed|ing|er|ers)$")
# centre, theatres, kilometre, fibre; centred is centered
_TRE = re.compile(
    r"^(cent|theat|kilomet|centimet|millimet|met|lit|fib|spect|somb|calib|sab|lust|meag)re(s|d)?$"
)
# travelled, modelling, counsellor, marvellous: one l in American English
_LL = re.compile(
    r"^(travel|cancel|model|label|level|fuel|counsel|marvel|signal|total|quarrel|dial|channel"
    r"|tunnel|equal|panel|shovel|snorkel|rival|duel|yodel|pedal|grovel|swivel|enamel|funnel"
    r"|revel|bevel|chisel|marshal|pencil|initial|spiral|stencil|towel|barrel)l"
    r"(ed|ing|er|ers|or|ors|ous)$"
)
# paediatrician, anaesthetic, haemorrhage, oestrogen, foetus, diarrhoea
_DIPHTHONG = re.compile(
    r"^(?:paed|orthopaed|encyclopaed|anaem|anaes|haem|leukaem|gynaec|caesar|palaeo|archaeo"
    r"|oesoph|oestr|foet|diarrhoe|amoeb|oedem)"
)


@functools.lru_cache(maxsize=65536)
def american(word: str) -> str:
    """The American spelling of a lowercase word (the word itself when it has no other)."""
    if word in _WORDS:
        return _WORDS[word]
    if "our" in word:
        word = _OUR.sub(r"\1r", word)
    if "is" in word:
        word = _ISE.sub(r"\1iz\2", word)
    if "ys" in word:
        word = _YSE.sub(r"\1yz\2", word)
    if word.endswith(("re", "res", "red")):
        m = _TRE.match(word)
        if m:
            return m[1] + {None: "er", "s": "ers", "d": "ered"}[m[2]]
    if "ll" in word:
        word = _LL.sub(r"\1\2", word)
    m = _DIPHTHONG.match(word)
    if m:
        head = m[0]
        word = head.replace("ae", "e", 1).replace("oe", "e", 1) + word[len(head) :]
    return word
