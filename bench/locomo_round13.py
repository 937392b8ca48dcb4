"""The retrieval lever of issue 17's thirteenth round, as docs/benchmarks.md shows it."""

from __future__ import annotations

LINES = [
    "Thirteenth round (issue 17): a question naming a range (\"Where was John between August",
    "11 and August 15 2023?\", \"from March to May, 2023\") ranked only hits dated on its last",
    "day; it now ranks those dated from its first day to a week after its last, as a named",
    "month does (`pipeline/dates.py named_period`). `python bench/locomo.py --no-write`, the",
    "store of the eleventh round's code:",
    "",
    "| lever | ev@1000 0-4 / 5-9 | temporal sess@10 0-4 (raw hybrid 0.966) "
    "| temporal hit@10 0-4 | sess@10 all | kept |",
    "|---|---|---|---|---|---|",
    "| before | 0.873 / 0.858 | 0.965 | 0.942 | 0.924 | - |",
    "| a named range | 0.873 / 0.858 | 0.968 | 0.949 | 0.925 | yes |",
    "",
    "That was the last session-recall cell where nemori was below raw-turn search. Held out,",
    "nothing moved. The haystack's questions name no range, and its figures are the same.",
]
