"""The names memory gives the user's people and things by relation: "Anna" for "sister" in
"The user's sister Anna lives in Lyon", "Biscuit" for "dog" in "Biscuit is the user's dog"."""

from __future__ import annotations

import re

from nemori_cli.pipeline.rewrite import word_set

# capitalised words that open a clause after a relation word rather than name someone
_NOT_A_NAME = word_set("the a an and but or so in on at for to of with from by i it he she they "
                       "we you this that")
_OWN = r"(?:the user's|their|his|her|my|our)"


def names_of(relation: str, text: str) -> list[str]:
    """The names a text gives someone or something by its relation ("Anna" for "sister" in
    "The user's sister Anna", "Biscuit" for "dog" in "Biscuit is the user's dog", "Tofu" in
    "my cat, called Tofu")."""
    stem = relation[:-1] if relation.endswith("s") and not relation.endswith("ss") else relation
    said = rf"{re.escape(stem)}s?"
    found = []
    for m in re.finditer(
        rf"\b{said}(?:(?:'s)? names? (?:is|are|was) |,? (?:(?:who|which|that) )?(?:(?:is|are"
        rf"|was) )?(?:called|named) |,? )(?P<name>[A-Z][\w'-]+)"
        rf"|(?P<before>[A-Z][\w'-]+),? (?:is |was )?{_OWN} {said}\b",
        text,
    ):
        name = m["name"] or m["before"]
        if name.lower() not in _NOT_A_NAME:
            found.append(name)
    return found
