"""Memory: the Python API that the CLI, the MCP server, scripts, tests and benchmarks use."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nemori_cli.config import Settings, load_settings
from nemori_cli.daterange import parse_today
from nemori_cli.models import Episode, Fact, SearchHit
from nemori_cli.parts import Parts
from nemori_cli.progress import Progress

if TYPE_CHECKING:  # each method imports its operation: a command loads only what it runs
    from nemori_cli.answer.ask import AskResult
    from nemori_cli.embed import Embedder
    from nemori_cli.ops.delete import Deleted
    from nemori_cli.ops.doctor import UserReport
    from nemori_cli.ops.dry_run import DryRunReport
    from nemori_cli.ops.records import Stats
    from nemori_cli.ops.reindex import Reindexed
    from nemori_cli.ops.run_summary import IngestSummary
    from nemori_cli.pipeline.base import Extractor


class Memory:
    """A person's memory: add chats, search them, and manage what is stored.

    Each method makes one call into an operation (nemori_cli/ops) or into search; what they
    share (settings, embedder, extractor, stores, indexes) is `parts`.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        progress: Progress | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
    ) -> None:
        self.parts = Parts(
            settings if settings is not None else load_settings({}),
            progress=progress,
            embedder=embedder,
            extractor=extractor,
        )

    @classmethod
    def open(
        cls,
        progress: Progress | None = None,
        *,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        **overrides: Any,
    ) -> Memory:
        """Build a Memory from defaults, config file, environment and these overrides."""
        return cls(
            load_settings(overrides), progress=progress, embedder=embedder, extractor=extractor
        )

    @property
    def settings(self) -> Settings:
        return self.parts.settings

    @property
    def progress(self) -> Progress:
        return self.parts.progress

    @progress.setter
    def progress(self, progress: Progress) -> None:
        self.parts.progress = progress

    @property
    def data_dir(self) -> Path:
        return self.parts.data_dir

    @property
    def embedder(self) -> Embedder:
        return self.parts.embedder

    @property
    def extractor(self) -> Extractor:
        return self.parts.extractor

    def user_id(self, user: str | None = None) -> str:
        """Return the validated user id (the settings' user when none is given)."""
        return self.parts.user_id(user)

    # --- adding ------------------------------------------------------------------------

    def add_messages(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        user: str | None = None,
        conversation_id: str | None = None,
        title: str | None = None,
    ) -> IngestSummary:
        """Add one conversation of message dicts ({role, content, timestamp?, name?, id?}).

        Runs the ingest pipeline (episodes, facts, indexes); messages added before add nothing.
        """
        from nemori_cli.ops.add import add_messages
        return add_messages(
            self.parts, messages, user=user, conversation_id=conversation_id, title=title
        )

    def add_document(
        self, data: str | bytes, *, user: str | None = None, format: str | None = None
    ) -> IngestSummary:
        """Add the conversations of a chat document held in memory (any format ingest reads)."""
        from nemori_cli.ops.add import add_document
        return add_document(self.parts, data, user=user, format=format)

    def add_note(
        self, text: str, *, user: str | None = None, category: str | None = None
    ) -> IngestSummary:
        """Remember a note from the user (dated now) as an episode and as a fact.

        category is one of user_profile, experience, knowledge, other (guessed when None).
        """
        from nemori_cli.ops.add import add_note
        return add_note(self.parts, text, user=user, category=category)

    def ingest(
        self,
        paths: str | Path | Sequence[str | Path],
        *,
        user: str | None = None,
        format: str | None = None,
        strict: bool = False,
        facts: bool = True,
    ) -> IngestSummary:
        """Import chat files, build episodes and (unless facts=False) facts, and index them."""
        from nemori_cli.ops.ingest import IngestRun
        return IngestRun(self.parts, self.user_id(user), facts=facts).run(
            _listed(paths), format=format, strict=strict
        )

    def dry_run(
        self,
        paths: str | Path | Sequence[str | Path],
        *,
        format: str | None = None,
        user: str | None = None,
    ) -> list[DryRunReport]:
        """Report what ingest would read from each file (and what is new), writing nothing."""
        done_files, known = self.parts.repo(user).ingested()
        from nemori_cli.ops.dry_run import scan_paths
        return scan_paths(_listed(paths), format=format, done_files=done_files, known=known)

    def backfill(self, *, user: str | None = None, redo: bool = False) -> IngestSummary:
        """Extract facts for episodes whose extraction is missing, failed or (redo) foreign."""
        from nemori_cli.ops.ingest import IngestRun
        return IngestRun(self.parts, self.user_id(user), facts=True).backfill(redo=redo)

    # --- reading -----------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        kind: str = "all",
        since: datetime | None = None,
        until: datetime | None = None,
        user: str | None = None,
        conversation_id: str | None = None,
        category: str | None = None,
        include_superseded: bool = False,
        today: date | datetime | str | None = None,
    ) -> list[SearchHit]:
        """Return the k best episodes and facts for a query, hybrid-ranked.

        `today` is the day the query is asked on (default: today), for "last week"; a string
        is read as `--today` reads it ("2023-05-30", "2023/05/30 (Tue) 23:40").
        """
        self.parts.prefetch_query(query, user)  # a cold model loads while search's modules do
        from nemori_cli.search.hybrid import search
        return search(
            self.parts,
            query,
            k=k,
            kind=kind,
            since=since,
            until=until,
            user=user,
            conversation_id=conversation_id,
            category=category,
            include_superseded=include_superseded,
            today=parse_today(today) if isinstance(today, str) else today,
        )

    def ask(
        self,
        question: str,
        *,
        budget: int | None = None,
        kind: str = "all",
        since: datetime | None = None,
        until: datetime | None = None,
        user: str | None = None,
        today: datetime | str | None = None,
    ) -> AskResult:
        """Answer a question from memory, citing the memories used (offline: the evidence).

        `today` is the date the question is asked on (default: now), for "how long ago"; a
        string is read as for search.
        """
        from nemori_cli.ops.ask import ask
        return ask(
            self.parts, question, budget=budget, kind=kind, since=since, until=until,
            user=user, today=parse_today(today) if isinstance(today, str) else today,
        )

    def episodes(self, *, user: str | None = None) -> list[Episode]:
        """Every episode of the user, oldest first."""
        from nemori_cli.ops import records
        return records.list_episodes(self.parts, user)

    def facts(
        self,
        *,
        user: str | None = None,
        category: str | None = None,
        include_superseded: bool = True,
    ) -> list[Fact]:
        """Every fact of the user (optionally one category), oldest first."""
        from nemori_cli.ops import records
        return records.list_facts(
            self.parts, user, category=category, include_superseded=include_superseded
        )

    def fact_listing(
        self,
        *,
        user: str | None = None,
        category: str | None = None,
        include_superseded: bool = True,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """What `facts` returns, as Fact.to_dict() rows, dated in the range, the newest `limit`.

        Reads only the fields it orders and filters on, then parses only the facts it returns:
        `nemori facts list` at 100k facts.
        """
        from nemori_cli.ops.fact_list import FactQuery, list_fact_dicts
        query = FactQuery(category, include_superseded, since, until, limit)
        return list_fact_dicts(self.parts, query, user)

    def episode(self, episode_id: str, *, user: str | None = None) -> Episode:
        """One episode by id (NotFound when there is none)."""
        from nemori_cli.ops import records
        return records.get_episode(self.parts, episode_id, user)

    def fact(self, fact_id: str, *, user: str | None = None) -> Fact:
        """One fact by id (NotFound when there is none)."""
        from nemori_cli.ops import records
        return records.get_fact(self.parts, fact_id, user)

    def replaced_facts(self, fact_id: str, *, user: str | None = None) -> list[Fact]:
        """The facts a fact superseded (a move, a correction), and theirs, newest first."""
        from nemori_cli.ops import records
        return records.replaced_facts(self.parts, fact_id, user)

    def users(self) -> list[str]:
        """The users that have a store in the data dir."""
        from nemori_cli.store.users import list_users
        return list_users(self.data_dir)

    def stats(self, user: str | None = None) -> Stats:
        """Counts and LLM spend for a user."""
        from nemori_cli.ops import records
        return records.stats(self.parts, user)

    def export(self, user: str | None = None, format: str = "jsonl") -> Iterator[str]:
        """The chunks of text of a user's export (jsonl, json or markdown)."""
        from nemori_cli.ops.export import export_user
        return export_user(self.parts, user, format)

    def correct_fact(
        self,
        fact_id: str,
        content: str | None = None,
        *,
        category: str | None = None,
        user: str | None = None,
    ) -> Fact:
        """Correct a fact's wording or category; new wording supersedes the old fact (history)."""
        from nemori_cli.ops.correct import correct_fact
        return correct_fact(self.parts, fact_id, content, category=category, user=user)

    # --- deleting and maintenance ------------------------------------------------------

    def delete_facts(self, ids: str | Sequence[str], *, user: str | None = None) -> list[str]:
        """Delete facts from the JSONL and both indexes; return the ids deleted."""
        from nemori_cli.ops import delete
        return delete.delete_facts(self.parts, _listed(ids), user)

    def delete_episodes(self, ids: str | Sequence[str], *, user: str | None = None) -> Deleted:
        """Delete episodes, and the facts that only they support, from all three stores."""
        from nemori_cli.ops import delete
        return delete.delete_episodes(self.parts, _listed(ids), user)

    def delete_user(self, user: str) -> None:
        """Delete everything stored for a user: JSONL files and both indexes."""
        from nemori_cli.ops import delete
        delete.delete_user(self.parts, user)

    def reindex(self, user: str | None = None) -> Reindexed:
        """Rebuild every index of a user from the JSONL files."""
        from nemori_cli.ops.reindex import reindex
        return reindex(self.parts, user)

    def doctor(
        self, *, repair: bool = False, users: Sequence[str] | None = None
    ) -> list[UserReport]:
        """Check each user's files and indexes (with repair, fix them); one report per user."""
        from nemori_cli.ops.doctor import doctor
        return doctor(self.parts, repair=repair, users=users)


def _listed(items: str | Path | Sequence[str | Path]) -> list[str]:
    """One path or id, or several, as a list of strings ("chats.json" is not its letters)."""
    if isinstance(items, (str, Path)):
        return [str(items)]
    return [str(item) for item in items]
