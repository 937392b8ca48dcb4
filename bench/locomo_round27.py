"""Issue 17's twenty-seventh round on LoCoMo, as docs/benchmarks.md shows it."""

from __future__ import annotations

LINES = [
    "Twenty-seventh round (issue 17). Where the answer words missed within 1,000 words",
    "are, on samples 0-4: of the 0.168 of answer recall lost, 0.041 is words that the",
    "evidence turns hold (multi-hop 0.020, single-hop 0.015); the rest is not worded in",
    "them. Of the missed multi-hop and single-hop evidence turns that no hit shows, 45",
    "have a fact that ranks below the first 30 hits and 24 have none. A third hit cut",
    "from a long episode (`python bench/locomo_answer_levers.py -p spans=3`) gave 0-4",
    "ev@1000 0.868 -> 0.874, ans@1000 0.832 -> 0.833, hit@5 0.826 -> 0.830, but",
    "multi-hop answer recall 0.673 -> 0.658, open-domain ev@1000 0.642 -> 0.636 and the",
    "user/assistant haystack's session recall@5 0.888 -> 0.884: not kept (further spans",
    "at a floor of 0.7 instead of 0.5, or a floor of 0.3 or 0.7 with two spans, move",
    "nothing by more than 0.005). Offline facts: a gerund with its own verb is the",
    "subject (\"Going on beach sunsets is one of my favorites\" was \"The user is going",
    "on beach sunsets is ...\"), connectives left hanging when the clause to the listener",
    "goes are dropped (\"The user loves football, but, of course.\"), and a name the",
    "speaker glosses as theirs is a fact of its own (\"Biscuit (our border terrier)\" ->",
    "\"The user's border terrier is called Biscuit.\"). LoCoMo facts 1321 -> 1322 on 0-4,",
    "R/P@0.75 0.664 / 0.613, retrieval unchanged. Advice on what to cook, eat or order",
    "(\"What pudding should I make?\") is a kind whose members are what people cannot eat",
    "(`search/kinds_named.py`: \"Derek is coeliac\" is found): LoCoMo unchanged on both",
    "splits; on every food question, not only advice, it lost an assistant-recall question",
    "on the haystack (\"you mentioned a dessert you'd baked\") and moved LoCoMo 0-4 ans@1000",
    "0.832 -> 0.831. Advice on where to go (\"Any ideas for a weekend getaway?\") is one",
    "too, its members what limits travel (\"i get horribly motion sick\"): LoCoMo",
    "unchanged, the haystack's session recall@10 0.936 -> 0.935 (an open-domain",
    "question); and so are advice on exercise, its members injuries (\"a herniated disc",
    "at L5-S1\"), and on what to watch, read or listen to, its members genres (the",
    "haystack's preference questions on 0-4 0.795 -> 0.811): LoCoMo unchanged by either.",
    "Answer recall at 1,000 words stays below the issue's 0.85.",
]
