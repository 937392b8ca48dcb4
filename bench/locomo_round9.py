"""The retrieval lever of issue 17's ninth round, as docs/benchmarks.md shows it."""

from __future__ import annotations

LINES = [
    "Ninth round (issue 17): each person's turn as a vector of its own (the vector of its",
    "opening, which segmentation has already computed: no extra embedding), so that one",
    "statement of a user among long assistant answers is found as a raw-turn search finds it,",
    "and a long episode is focused on the turn itself rather than on its 4-turn window. Two",
    "full runs of `python bench/locomo.py --no-write` on the same code, stores ingested afresh:",
    "",
    "| lever | ev@1000 0-4 / 5-9 / all | multi-hop 0-4 | open-domain 0-4 | hit@5 / hit@10 all "
    "| sess@5 / sess@10 all | kept |",
    "|---|---|---|---|---|---|---|",
    "| without (main) | 0.856 / 0.838 / 0.847 | 0.628 | 0.606 | 0.822 / 0.877 "
    "| 0.866 / 0.923 | - |",
    "| a vector for each person's turn (a row more per turn: about 5,900 on LoCoMo) "
    "| 0.853 / 0.842 / 0.847 | 0.624 | 0.589 | 0.824 / 0.883 | 0.865 / 0.921 | no |",
    "",
    "It loses 0.003 on the tuning samples (and 0.017 on their open-domain questions), so it",
    "is not kept; every LoCoMo turn is a person's, so the shape it is meant for (a user's turn",
    "beside long assistant answers) is not what LoCoMo measures.",
]
