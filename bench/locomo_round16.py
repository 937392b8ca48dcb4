"""The levers of issue 17's sixteenth round, as docs/benchmarks.md shows them."""

from __future__ import annotations

LINES = [
    "Sixteenth round (issue 17): facts from casual typing. A user who types \"im vegetarian\",",
    "\"I'm a nurse.\" or \"My daughter is 5.\" got no fact at all (too few words), a lower-case",
    "sentence after a full stop stayed glued to the one before, and a request (\"I'm looking",
    "for ...\") could take both of a message's two places from what the user said of",
    "themself. Each row from `python bench/locomo.py --no-write --samples 0,1,2,3,4` on the",
    "code of the row, on one machine (an AMD EPYC without VNNI, so the local model runs its",
    "7-bit graph and the figures differ from earlier rounds' by a few thousandths):",
    "",
    "| lever | ev@1000 / sess@5 / hit@5 / hit@10 | multi-hop ev@1000 | facts: count, R/P@0.75 "
    "| kept |",
    "|---|---|---|---|---|",
    "| before (main at 9b9a9d1) | 0.873 / 0.877 / 0.830 / 0.882 | 0.681 | 1352, 0.619 / 0.556 "
    "| - |",
    "| all four: short personal statements (`facts.short_but_personal`), typed apostrophes "
    "(`slang.with_apostrophes`), a lower-case sentence start after . ! ? or …, a photo "
    "caption's \"]\" ends a sentence | 0.871 / 0.873 / 0.829 / 0.879 | 0.679 "
    "| 1363, 0.629 / 0.553 | no |",
    "| all four, less the short statements | 0.871 / 0.874 / 0.832 / 0.880 | 0.681 "
    "| 1359, 0.620 / 0.554 | - |",
    "| all four, less the lower-case start | 0.873 / 0.877 / 0.828 / 0.880 | 0.679 "
    "| 1356, 0.628 / 0.555 | - |",
    "| all four, less the apostrophes, or less the \"]\" | the same as all four | | | - |",
    "| all four, a lower-case start not after an ellipsis (\"stuff... but the worst\") "
    "| 0.873 / 0.877 / 0.828 / 0.880 | 0.679 | 1356, 0.628 / 0.555 | yes |",
    "",
    "LoCoMo's people type with capitals and apostrophes, so two of the four never fire there;",
    "the short statements are the recall (+0.009 at the same precision). Split after an",
    "ellipsis, six of LoCoMo's turns lost the clause that held their fact (\"... but the worst",
    "was self-doubt\"). Held out, once (samples 5-9 of `python bench/locomo.py`, the code",
    "before and after): ev@1000 0.855 -> 0.856, sess@5 0.867 -> 0.866, hit@10 0.879 -> 0.876,",
    "facts 1407 -> 1415 at R/P@0.75 0.618 / 0.571 -> 0.618 / 0.572.",
    "The labelled assistant turns (`python bench/assistant_facts.py`): held out recall",
    "0.818 -> 0.909 at precision 1.000 (\"I'm vegetarian.\" is a fact now), the tuning set",
    "unchanged (0.926). The haystack with every user turn said inside requests",
    "(`python bench/assistant_haystack.py --requests`, the code before and after): samples",
    "0-4 ev@1000 0.757 -> 0.755, sess@5 0.832 -> 0.831, sess@10 0.915 -> 0.917; held out",
    "0.773 -> 0.770, 0.877 both, 0.920 -> 0.917 (raw hybrid 0.512 / 0.694 and 0.447 / 0.723).",
    "Its turns are LoCoMo's, typed with care; the facts it gains are not what its questions ask.",
    "On the earlier machine the same variant gave 0.776 / 0.843 on 0-4: the graph, not the code.",
]
