"""Issue 17's twenty-eighth round on LoCoMo, as docs/benchmarks.md shows it."""

from __future__ import annotations

LINES = [
    'Twenty-eighth round (issue 17, the forty-eighth stop). Offline facts: a weekday',
    'shortened as chats write it is resolved like the full name ("I just joined a new',
    'LGBTQ activist group last Tues" -> "... (the Tuesday before 20 July 2023)"; six such',
    "in LoCoMo), \"A lot's happened since we last chatted - I ...\" opens no fact (four in",
    "LoCoMo began \"A lot's happened -\"), \"Need to renew my passport\" gets its dropped \"I\"",
    "back, and \"mine\" opening a clause is \"the user's one\" (\"mine just retired\" was \"the",
    "user's just retired\"). Facts 1322 on 0-4 and 1440 -> 1441 held out, R/P@0.75",
    'unchanged; 0-4 ev@1000 0.868 -> 0.869, multi-hop 0.676 -> 0.682, ans@1000 0.832',
    '(held out 0.808, and 0.810 with "mine", measured last). Search: words of one family',
    'that the stemmer keeps apart (`search/word_families.py`: "allergies" and "allergic",',
    '"painter" and "paint", "Italy" and "Italian") are one word to the lexical queries,',
    'focus, relevance and the snippet: 0-4 ev@1000 0.869 -> 0.868, ans@1000 0.832 ->',
    '0.831, hit@5 0.826 -> 0.824, multi-hop 0.682 -> 0.678; held out ev@1000 0.866 ->',
    "0.867, ans@1000 0.808 either way; the haystack's session recall@5 on 0-4 0.891 ->",
    '0.894, the fourth hand-written set 0.930 -> 0.940, held-out users unchanged. Kept',
    'for the user/assistant chats it is made for (`nemori search allergies` found nothing',
    "lexical in \"I'm allergic to shellfish\"); on LoCoMo 0-4 it moves 13 questions'",
    'evidence ranks, most in a conversation about dance and dancers, up and down, and',
    'costs two answers a word each ("What is Joanna allergic to?" ranks a third evidence',
    'turn 26 -> 28). "photo" beside "photography" moved nothing and was left out as',
    'another word. Irregular plurals as families ("child" and "children", "grandchild"',
    'and "grandchildren", "woman" and "women", "tooth" and "teeth") were measured and not',
    'kept: LoCoMo unchanged on both splits, the third hand-written set 0.840 -> 0.820',
    '("How many grandchildren have I got?") and the haystack 0.894 -> 0.892; without',
    '"grandchild" the third set is unchanged and the haystack still 0.894 -> 0.892.',
]
