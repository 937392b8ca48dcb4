"""The BM25 lists search fuses: each kind's index asked, turns weighed by who wrote them, and
the episode list without the chats whose words are mostly an assistant's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from nemori_cli.errors import BrokenIndex
from nemori_cli.indexing import is_answer_turn, turn_episode
from nemori_cli.models import Episode, Kind
from nemori_cli.pipeline.facts import between_people
from nemori_cli.search.questions import recalls_answer

if TYPE_CHECKING:
    from nemori_cli.parts import Parts

# In the turn list, an assistant's turn counts half a person's: in a chat with an assistant,
# a user's one statement among long answers that repeat its words leads its episode (the
# user/assistant haystack, samples 0-4: session recall@5 0.851 -> 0.855, hit@5 0.832 -> 0.842;
# a chat between people has no assistant turns and is unchanged).
ANSWER_TURN_WEIGHT = 0.5


def lexical_hits(
    parts: Parts, kind: Kind | str, query: str, pool: int, user: str | None
) -> list[tuple[str, float]]:
    """BM25 candidates; none (and a note, and a mark for repair) when the index is damaged."""
    index = parts.turns(user) if kind == "turn" else parts.lexical(kind, user)  # type: ignore[arg-type]
    try:
        return index.query(query, pool)
    except BrokenIndex as exc:
        parts.found_broken(
            parts.user_id(user),
            f"the {kind} BM25 index is damaged ({exc.reason}): searching without it; "
            "`nemori doctor --repair` (or the next ingest) rebuilds it",
        )
        return []


def weighted_turns(turns: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """Turn hits reordered with an assistant's turns' BM25 scores weighted down."""
    scored = [(d, s * ANSWER_TURN_WEIGHT if is_answer_turn(d) else s) for d, s in turns]
    return sorted(scored, key=lambda t: -t[1])


def turn_episodes(turns: list[tuple[str, float]]) -> list[str]:
    """The episodes of turn hits, each once, in the order of its best (weighted) turn."""
    return list(dict.fromkeys(turn_episode(d) for d, _ in weighted_turns(turns)))


def lexical_episodes(
    found: Sequence[str], episodes: Mapping[str, Episode], query: str
) -> list[str]:
    """The episode BM25 list, less the chats with an assistant unless the question asks what
    it said.

    BM25 over such a whole episode scores mostly its answers' words ("pet passport" in a moving
    checklist, for "What pets have I had?"); the turn list, where an answer's turns weigh
    less, finds those episodes by what the user said in them.
    """
    if recalls_answer(query):
        return list(found)
    return [rid for rid in found if rid in episodes and between_people(episodes[rid].messages)]


def members_lists(
    parts: Parts, members: str | None, kinds: Sequence[Kind], pool: int, user: str | None
) -> dict[Kind, list[str]]:
    """Facts, and episodes by their turns (a person's weighing more), that name a member of
    a kind the question names (search/kinds_named.py)."""
    if not members:
        return {}
    found: dict[Kind, list[str]] = {}
    if "fact" in kinds:
        found["fact"] = [rid for rid, _ in lexical_hits(parts, "fact", members, pool, user)]
    if "episode" in kinds:
        found["episode"] = turn_episodes(lexical_hits(parts, "turn", members, pool, user))
    return found
