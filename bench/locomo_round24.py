"""Issue 17's twenty-fourth round on LoCoMo, as docs/benchmarks.md shows it."""

from __future__ import annotations

LINES = [
    "Twenty-fourth round (issue 17). A question for a person's job, home, diet, hometown or",
    "age (\"What do I do for a living?\", \"Where does Andrew live?\", \"How old am I?\") is",
    "answered by the facts that tell it (`search/attributes.py`), the newest value first:",
    "such a question shares no word with \"The user started a new job as a data analyst\".",
    "No LoCoMo question of categories 1-4 asks that way but two of sample 7 (\"How old is",
    "Jolene?\", whose facts tell no age, and a cat's), so LoCoMo's figures do not move with",
    "it; the two hand-written user/assistant questions it came from are in the last section.",
    "Offline facts: \"there\" and \"this city\" are now the one place the message named before",
    "(\"Have you been to Italy? I had a blast there last month\" gave \"John had a blast",
    "there\", now \"John had a blast in Italy\"; \"It's one of my favorite cities\" after \"It's",
    "Seattle\" is \"Seattle is one of ...\"); two places or none leave them as said. Nine",
    "LoCoMo messages change: samples 0-4 R/P@0.75 0.663 / 0.613 -> 0.664 / 0.614, ans@1000",
    "0.828 -> 0.830 (multi-hop 0.659 -> 0.662, temporal 0.888 -> 0.895), hit@10 0.874 ->",
    "0.875, temporal ev@1000 0.965 -> 0.963; held out ans@1000 0.808 either way. Answer",
    "recall at 1,000 words stays below the issue's 0.85 (0.819 all ten).",
]
