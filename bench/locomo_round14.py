"""The levers of issue 17's fourteenth round, as docs/benchmarks.md shows them."""

from __future__ import annotations

LINES = [
    "Fourteenth round (issue 17). Each row from `python bench/locomo.py --no-write --samples",
    "0,1,2,3,4` and `python bench/assistant_haystack.py --no-write` (its samples 0-4) on the",
    "code of the row; the question sets of the last two rows are",
    "`python bench/haystack_assistant_recall.py` and `python bench/haystack_preferences.py`.",
    "",
    "| lever | LoCoMo 0-4 ev@1000 / hit@5 / sess@5 | haystack 0-4 sess@5 / sess@10 "
    "| what else moved | kept |",
    "|---|---|---|---|---|",
    "| before (main at 3dd0f16) | 0.872 / 0.821 / 0.872 | 0.854 / 0.920 "
    "| haystack temporal sess@10 0.972 (raw hybrid 0.979) | - |",
    "| the episodes of any named time (day, range, month) as one more fused list "
    "| 0.873 / 0.824 / 0.875 | 0.851 / 0.917 "
    "| open-domain fell: LoCoMo ev@1000 0.653 -> 0.642, haystack sess@5 0.577 -> 0.537 "
    "(\"Which states might I be in during September, based on my plans?\") | no |",
    "| that list for a day or a few only (`NAMED_DAYS`), and a hit dated then weighs 0.4 "
    "(a month's 0.2) | 0.874 / 0.825 / 0.876 | 0.857 / 0.923 "
    "| haystack temporal sess@5 / @10 0.937 / 0.972 -> 0.951 / 0.986; no cell lower | yes |",
    "| ... and those episodes lead the head's fusion (their match decides); a time relative "
    "to today (\"yesterday\", \"last week\") read as a named one | 0.874 / 0.825 / 0.876 "
    "| 0.857 / 0.923 | identical (no benchmark question is relative to 2026); "
    "\"What movie did I watch yesterday?\" first at any k in tests/test_named_day_search.py "
    "(in the lead only by its fused rank, it was 2nd at k=5 and 8th at k=50) | yes |",
    "| the question's function words (you, what, did, my...) out of the BM25 query "
    "| 0.868 / 0.825 / 0.884 | 0.860 / 0.925 "
    "| LoCoMo open-domain ev@1000 0.653 -> 0.612; haystack multi-hop sess@5 0.506 -> 0.472; "
    "preference questions sess@5 0.505 -> 0.414 | no |",
    "| conversation diversity 0.05 / 0.1 (focus.py `diversity`) "
    "| 0.870 / 0.814 / 0.876, 0.868 / 0.808 / 0.876 | 0.857 / 0.923, 0.857 / 0.919 "
    "| haystack ev@1000 0.743 -> 0.739 / 0.733 | no |",
    "| offline facts: a credit to the listener (\"I took your recommendation and watched ...\") "
    "keeps what the user did | 0.874 / 0.825 / 0.876 | 0.857 / 0.923 "
    "| LoCoMo 0-4 facts 1350 -> 1351, R/P@0.75 0.619 / 0.556 unchanged; preference questions "
    "0-4 sess@10 0.780 -> 0.750 (one question, on the new store with the old search code too) "
    "| yes |",
    "| a question about what the assistant said (\"What did you recommend ...\", \"remind me\") "
    "is not an advice question (`recalls_answer`) | unchanged | unchanged "
    "| assistant-recall questions sess@5 / hit@5 0-4 0.868 / 0.711 -> 0.842 / 0.816, held out "
    "0.795 / 0.692 -> 0.872 / 0.718 | yes |",
    "",
    "The rule for assistant-recall questions was written before their question set was, and",
    "unflags all 30 of its advice-worded questions; on samples 0-4 it costs one question at",
    "five sessions (the user's own turn led there) and gains four at hit@5, held out it gains",
    "three at five sessions.",
]
