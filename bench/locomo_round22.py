"""Issue 17's twenty-second round on LoCoMo, as docs/benchmarks.md shows it."""

from __future__ import annotations

LINES = [
    "Twenty-second round (issue 17), aimed at preference questions to an assistant (see the",
    "preference section of the haystack): an advice question now needs the asker in it (\"What",
    "should I ...\", \"Can you suggest ...\", \"Any ideas for my ...\"), so none of LoCoMo's",
    "questions is one (59 were, by their words alone: \"What advice did Caroline give ...\",",
    "\"What book did Tim recommend to John?\"), and the rule that ranks the user's",
    "profile facts for advice never runs here. Offline facts changed for everyone: a taste",
    "told of a thing, the speaker its owner (\"Blue's my fave\", \"a favorite of mine\",",
    "\"Nature's always been my haven\", \"special to me\") is a profile fact with 0.6 more",
    "salience, \"into\", \"all about\", \"fan of\" and \"my budget\" are profile words, \"Love",
    "experimenting with spices\" is \"I love ...\". On samples 0-4 that is 1,298 -> 1,312",
    "facts, R/P@0.75 0.660 / 0.616 -> 0.662 / 0.615, and ans@1000 0.830 -> 0.828 (ev@1000",
    "0.868 either way, hit@5 0.830 -> 0.828); without the 0.6 salience the LoCoMo figures",
    "stay as they were (ans@1000 0.830) but the preference questions lose what the facts",
    "brought (0-4 sess@10 0.818 -> 0.788, held out 0.848 -> 0.818), so it is kept. Later in",
    "the round a short phrase before the speaker keeps the opening's salience (\"As a kid,",
    "I hated broccoli\") and \"she\" after the speaker's one person in the same sentence is",
    "no unexplained pronoun (\"My daughter just started kindergarten and she's shy\"): 1,317",
    "facts on 0-4, R/P@0.75 0.662 / 0.614, hit@10 0.872 -> 0.874, sess@5 0.871 -> 0.875.",
    "Last, \"How many weeks passed between ...\", \"How many days ago ...\" are \"when\"",
    "questions (a turn or fact naming a time counts 0.2 more): six LoCoMo questions, one of",
    "them on 0-4, which is unchanged; held out ev@1000 0.860 -> 0.861, ans@1000 0.809 ->",
    "0.810. The tables above are this round's code.",
]
