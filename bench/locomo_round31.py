"""Issue 17's thirty-first round on LoCoMo, as docs/benchmarks.md shows it."""

from __future__ import annotations

LINES = [
    "Thirty-first round (issue 17, the fifty-first stop). Each change was measured against",
    "the code before it in one run of the quick benches (the four hand-written sets, the",
    "haystack on samples 0-4 with its preference, two-event and assistant-recall questions,",
    "`locomo.py --samples 0,1,2,3,4`, all `--no-write`). A day of the month said alone is",
    "read by the tense it is told in (\"I met back up with my teammates on the 15th\", said",
    "on 17 August 2023, is 15 August; `pipeline/tense.py` now holds the tense reading that",
    "\"on Friday\" already used), and a date that is what the sentence says stays in it (\"My",
    "interview was yesterday\" had become \"My interview was.\"): 0-4 ans@1000 0.831 -> 0.832",
    "(temporal 0.894 -> 0.898), hit@5 0.822 -> 0.824, session recall@5 0.874 -> 0.875;",
    "LoCoMo's facts unchanged (1322, R/P@0.75 0.664 / 0.613). Well-known city names typed",
    "in lower case get their capitals (\"i live in leeds now\" now tells a home), and a",
    "question for \"cities\" asks for them as a kind with well-known members",
    "(`search/kinds_named.py`): 0-4 ev@1000 0.869 -> 0.870, ans@1000 0.832 -> 0.833,",
    "multi-hop 0.682 -> 0.686; the haystack's 0-4 sess@5 / sess@10 0.894 / 0.934 -> 0.896 /",
    "0.935. One city asked for (\"Which Brazilian city is my mother in?\") is no kind: most",
    "are none of the well-known, and set D lost that question to the list (0.957 -> 0.937)",
    "until the kind was kept to the plural. A hit of the time a question asks about and",
    "nothing else reads at least 0.6 relevance (\"Where was I over Christmas 2024?\" found",
    "the flight first but said \"no strong match\"); relevance orders nothing. Tried and",
    "dropped on the same benches: a \"how much\" question favouring what names an amount",
    "(\"£52\", \"320 euros\"), as a \"when\" question favours what names a time (set B and C",
    "each one question down, one up; nothing else moved), and an episode's match counting",
    "the kind words its user's turns stand in for (\"aeroplanes\" for \"week away\":",
    "preference questions sess@5 0.811 -> 0.833, but set A 0.961 -> 0.956 and the haystack",
    "0.896 -> 0.892). The full run: ev@1000 0.869 -> 0.870 all ten (0-4 0.870, held out",
    "0.870), ans@1000 0.821 -> 0.822 (0.833 / 0.811), hit@5 / hit@10 0.832 / 0.881 -> 0.833",
    "/ 0.882. Answer recall at 1,000 words stays below the issue's 0.85 (0.822 all ten).",
]
