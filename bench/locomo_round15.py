"""The levers of issue 17's fifteenth round, as docs/benchmarks.md shows them."""

from __future__ import annotations

LINES = [
    "Fifteenth round (issue 17): how much of an assistant's turn a hit shows. On the",
    "haystack a focused hit spent about 300 words on two assistant turns beside the user's",
    "one-line statement, so 1,000 words held three hits. Each row from",
    "`python bench/assistant_haystack.py --no-write` (its samples 0-4) and",
    "`python bench/haystack_preferences.py --no-write` (0-4) on the code of the row;",
    "LoCoMo (`python bench/locomo.py --no-write --samples 0,1,2,3,4`) has no assistant, and its",
    "figures are the same in every row but the last three.",
    "",
    "| lever | haystack 0-4 ev@1000 / sess@5 / sess@10 | multi-hop ev@1000 / sess@5 "
    "| preference questions ev@1000 / sess@5 / sess@10 | kept |",
    "|---|---|---|---|---|",
    "| before (main at e12c543): an assistant's turn shown up to 120 words (`OTHER_WORDS`) "
    "| 0.743 / 0.857 / 0.923 | 0.279 / 0.506 | 0.111 / 0.505 / 0.750 | - |",
    "| 60 words around the query's words, unless the question asks what the assistant said "
    "(`recalls_answer`) | 0.784 / 0.858 / 0.930 | 0.344 / 0.531 | - | no |",
    "| 40 words | 0.817 / 0.870 / 0.926 | 0.417 / 0.536 | 0.336 / 0.490 / 0.689 | no |",
    "| 25 words (`FocusParams.answer_words`) | 0.850 / 0.877 / 0.928 | 0.482 / 0.534 "
    "| 0.457 / 0.583 / 0.659 | yes |",
    "| 25 words shown, but ranked on the uncut hit (as before) | 0.853 / 0.857 / 0.923 "
    "| 0.522 / 0.506 | 0.487 / 0.505 / 0.750 | no |",
    "| kept, and any document but a user turn's similarity times 0.8 (`answer_sim`, 1 unless "
    "the question asks advice) | 0.863 / 0.887 / 0.928 | 0.513 / 0.595 | - "
    "| no: the haystack's answers are other conversations' turns |",
    "| kept, and the query words a hit holds counted in the user's turns only (a question "
    "about the user, in a chat with an assistant) | 0.860 / 0.886 / 0.935 | 0.541 / 0.599 "
    "| 0.510 / 0.576 / 0.720 | no: the same noise; held out, sess@10 0.931 -> 0.916 |",
    "| kept, and a person's turn cut to 40 / 60 words in a focused hit "
    "| LoCoMo ev@1000 0.874 / 0.874, ans@1000 0.826 -> 0.816 / 0.826 | - | - | no |",
    "| kept, and a focused hit of 3 / 2 turns instead of 4 | 0.826 / 0.873 / 0.929, "
    "0.797 / 0.874 / 0.928 | 0.503 / 0.555, 0.577 / 0.539 "
    "| LoCoMo ev@1000 0.874 -> 0.849 / 0.821, hit@5 0.825 -> 0.809 / 0.761 | no |",
    "",
    "The 25-word cut is ranked on what it shows, as the length penalty was meant to be:",
    "ranked on the uncut hit it leaves every session figure where it was. Ranked on the cut",
    "hit, five sessions hold 0.020 more of the evidence on samples 0-4, and held out (not",
    "tuned on) the multi-hop cell that was below raw hybrid search rises above it (sess@5",
    "0.544 -> 0.574 against 0.548). The preference questions move both ways: on 0-4 four",
    "fall out of ten sessions (ranks 4 -> 11, 9 -> 14, 9 -> 11, 10 -> 11) and one rises into",
    "five (12 -> 5); at five sessions they gain. The assistant-recall questions are",
    "unchanged: all 77 ask what the assistant said, and see its turns as before. The",
    "similarity weight of 0.8 gained",
    "on the haystack, whose assistant turns are other conversations' lines, the noise a real",
    "answer on the user's topic is not; it stays 1.",
]
