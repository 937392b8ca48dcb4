"""The levers of issue 17's seventeenth round, as docs/benchmarks.md shows them."""

from __future__ import annotations

LINES = [
    "Seventeenth round (issue 17): a fact's time beside its statement. A fact said with a",
    "relative date had it resolved inside the sentence (\"Caroline went to a LGBTQ support",
    "group on 7 May 2023 and it was powerful.\"); now the statement leaves it out and the fact",
    "keeps what it resolves to in a field of its own, `when` (\"7 May 2023\", \"the week before",
    "8 May 2023\"), as Graphiti keeps an edge's `valid_at` beside its fact. Every place a person",
    "or an agent reads a fact shows the two together (\"... powerful (7 May 2023).\"), and the",
    "fact is embedded and indexed that way; a date the sentence needs (\"since last year\",",
    "\"Last year was hard\") stays resolved in place. Facts from",
    "`python bench/locomo_facts.py --dates split|resolved|as-said [--shown]` (samples 0-4),",
    "retrieval from `python bench/locomo.py --no-write` on the code of the row (this machine):",
    "",
    "| lever | facts 0-4: count, R/P@0.75 | ev@1000 0-4 / 5-9 | hit@5 / hit@10 0-4 "
    "| open-domain sess@10 0-4 / 5-9 (raw hybrid 0.737 / 0.718) | kept |",
    "|---|---|---|---|---|---|",
    "| before (main at 2a826c3): dates resolved in the sentence (`--dates resolved`) "
    "| 1356, 0.628 / 0.555 | 0.873 / 0.856 | 0.828 / 0.880 | 0.729 / 0.728 | - |",
    "| relative dates left as said (\"yesterday\"; `--dates as-said`), not a rule: a fact read "
    "a year later would say the wrong day | 1355, 0.655 / 0.582 | - | - | - | no |",
    "| the time out of the statement, into `when`; vectors and BM25 of the statement alone "
    "| 1355, 0.655 / 0.584 | 0.872 / 0.856 | 0.824 / 0.878 | 0.729 / 0.743 | no |",
    "| the same, vectors and BM25 of the statement with its time (`indexing.fact_text`) "
    "| 1356, 0.655 / 0.584 | 0.872 / 0.856 | 0.829 / 0.883 | 0.752 / 0.721 | yes |",
    "| that row scored on the text shown, statement and time (`--shown`) "
    "| 1356, 0.637 / 0.563 | | | | - |",
    "",
    "Held out (samples 5-9, not tuned on), facts R/P@0.75 0.618 / 0.572 -> 0.636 / 0.590; all",
    "ten 0.623 / 0.564 -> 0.645 / 0.587, short of 0.65 / 0.60. LoCoMo's observations carry no",
    "dates (a session's date is beside them), so a date inside the sentence cost a fact its",
    "match. Fewer facts buy precision only with recall, as the sixth round's salience cuts",
    "showed, and no class of fact (an \"it\" object, a sentence opening on \"It\", one with an",
    "emoji or a filler word) matches rarely enough to drop. Embedded without its time,",
    "a fact ranked by its words alone: the first five hits lost a little (hit@5 0.828 ->",
    "0.824) and open-domain evidence fell (0.642 -> 0.631 on 0-4); embedded as shown,",
    "retrieval is where it was, and open-domain session recall at ten is above raw hybrid",
    "search on samples 0-4 too (0.752 against 0.737; it was 0.729). One event told on two",
    "days still folds into one fact at ingest (their cosine is 0.98 with the time, above the",
    "0.92 of `dedup_threshold`), as it did with the date inside. The user/assistant haystack",
    "(`python bench/assistant_haystack.py`, before and after on this machine): samples 0-4",
    "sess@5 / @10 0.875 / 0.928 -> 0.875 / 0.929, held out 0.884 / 0.934 -> 0.884 / 0.931 (one",
    "temporal question of 69 falls from ten sessions); with every user turn said inside",
    "requests (`--requests`) 0.831 / 0.917 -> 0.831 / 0.918 and 0.877 / 0.917 -> 0.877 / 0.916;",
    "the preference questions (`python bench/haystack_preferences.py`) keep 0.543 / 0.750 and",
    "0.455 / 0.727.",
]
