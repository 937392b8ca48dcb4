"""Issue 17's twelfth round (offline facts' wording), as docs/benchmarks.md shows it."""

from __future__ import annotations

LINES = [
    "Twelfth round (issue 17): offline facts that read as prose. Each lever alone on main's",
    "rules (7059855) unless said, measured on samples 0-4 by",
    "`python bench/locomo_facts.py --samples 0,1,2,3,4`, and for retrieval by",
    "`python bench/locomo.py --samples 0,1,2,3,4 --no-write` (main's row from the same",
    "command on main). Target was recall 0.65 at precision 0.60 (cosine 0.75); it is not",
    "reached.",
    "",
    "| lever | R / P @0.75 | facts | ev@1000 | multi-hop / open-domain | hit@5 / hit@10 | kept |",
    "|---|---|---|---|---|---|---|",
    "| before (main) | 0.616 / 0.551 | 1355 | 0.873 | 0.676 / 0.653 | 0.821 / 0.876 | - |",
    "| chat shorthand in plain words (\"fam\" -> \"family\", \"gonna\" -> \"going to\","
    " \"pic\" -> \"picture\"; \"lol\", \"tbh\", \"btw\" dropped)"
    " | 0.619 / 0.556 | 1354 | - | - | - | yes |",
    "| a filler opening a fact dropped (\"Actually,\", \"Woah,\"; \"So\" opening a kept clause)"
    " | 0.616 / 0.551 | 1354 | - | - | - | yes |",
    "| a filler \"just\" after the subject dropped (\"I just took\" -> \"I took\")"
    " | 0.616 / 0.549 | 1355 | - | - | - | no |",
    "| no wrong subject restored (\"Gonna be a great night\" gets no \"I'm\"; \"Made me think\""
    " -> \"It made me think\") | 0.616 / 0.553 | 1352 | - | - | - | yes |",
    "| all four | 0.619 / 0.554 | 1351 | 0.871 | 0.672 / 0.653 | 0.822 / 0.875 | no |",
    "| shorthand, fillers, subject (kept) | 0.619 / 0.556 | 1350 | 0.872 | 0.676 / 0.653"
    " | 0.821 / 0.876 | yes |",
    "| shorthand, fillers, \"just\" + \"Recently,\", \"Lately,\", \"Now,\" dropped"
    " | 0.620 / 0.555 | 1352 | - | - | - | no |",
    "",
    "Kept: chat shorthand is said in plain words (a table in `nemori_cli/pipeline/slang.py`,",
    "lower case or capitalised only, so \"RN\" stays a nurse; \"favourite\" measured the same",
    "as \"favorite\"), a filler opening a sentence goes with the other interjections, a",
    "clause kept after the part said to the listener no longer opens on \"So\"/\"And\"/\"But\",",
    "and a sentence whose subject chat left out gets none when it cannot be the speaker:",
    "\"Gonna be a great night\" was \"Caroline is gonna be a great night\" (now no fact),",
    "\"Really made me think about ...\" was \"Melanie made Melanie think ...\" (now \"It ...\",",
    "which ranks below the cut). Not kept: \"just\" says \"recently\" and cost precision;",
    "\"Recently,\" and \"Lately,\" say when, which a reader keeps. Not measured: the name said",
    "for every pronoun (\"for Melanie's family - they motivate Melanie\"): no rule found that",
    "reads the same without a gendered or ambiguous pronoun. Sessions recall@5 on samples 0-4",
    "0.867 -> 0.872. Held out (5-9, once, `python bench/locomo_facts.py --samples 5,6,7,8,9`):",
    "0.617 / 0.570 (1410 facts) -> 0.618 / 0.571 (1409). Assistant chats",
    "(`python bench/assistant_facts.py`): precision 1.000, recall 0.926 (held out 1.000 /",
    "0.818), unchanged. The gain is in reading, not in the target: the wording the gold facts",
    "differ by is mostly what a one-line summary leaves out, not slang.",
]
