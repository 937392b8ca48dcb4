"""Serve one user's memory to MCP clients (agents, editors) over stdio.

Only the protocol may reach stdout: the SDK points file descriptor 1 at stderr while it
serves, Memory reports no progress here, and the SDK's own logging goes to stderr.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Annotated, Any, Literal

import orjson
from pydantic import BaseModel, Field

from nemori_cli import __version__
from nemori_cli.daterange import parse_range
from nemori_cli.errors import NemoriError, UsageError
from nemori_cli.memory import Memory
from nemori_cli.models import CATEGORIES
from nemori_cli.ops.run_summary import IngestSummary

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer
    from mcp_types import CallToolResult

INSTRUCTIONS = (
    "Long-term memory of one person, built from their chat history: episodes (titled, dated "
    "stretches of conversation with their messages) and facts (lasting statements about the "
    "person, each traced to the messages it came from). Search before answering questions "
    "about the person's life, preferences or past; add notes and conversations worth keeping, "
    "and correct a fact the person says is wrong."
)


class ChatMessage(BaseModel):
    """One message of the nemori JSON import format."""

    role: str = Field(description="user, assistant, system, tool, or a speaker's role")
    content: str | list[Any] = Field(description="The text, or a list of text parts")
    name: str | None = Field(default=None, description="Speaker name")
    timestamp: str | float | None = Field(default=None, description="ISO 8601 or epoch seconds")
    id: str | None = Field(default=None, description="Message id, kept verbatim")


class MemoryTools:
    """The tool bodies: each one call into Memory for the server's user, one at a time."""

    def __init__(self, memory: Memory, user: str | None = None) -> None:
        self.memory = memory
        self.user = memory.user_id(user)
        # The SDK runs sync tools in worker threads; Memory is not meant to be shared by threads.
        self._lock = threading.Lock()

    def search_memory(
        self,
        query: Annotated[str, Field(description="What to look for, in plain words")],
        k: Annotated[int, Field(ge=1, le=100, description="How many hits")] = 10,
        kind: Literal["all", "episode", "fact"] = "all",
        since: Annotated[
            str | None, Field(description="From this date on: 2024-10-17, 2024-06, 'last March'")
        ] = None,
        until: Annotated[
            str | None, Field(description="Up to this date, all of it included")
        ] = None,
    ) -> list[dict[str, Any]]:
        """Return the best hits for a query, as the search contract has them."""
        dates = parse_range(since or None, until or None, prefix="")
        with self._lock:
            hits = self.memory.search(
                query, k=k, kind=kind, since=dates.since, until=dates.until, user=self.user
            )
        return [h.to_dict() for h in hits]

    def ask_memory(
        self,
        question: Annotated[str, Field(description="The question, in plain words")],
        budget: Annotated[
            int, Field(ge=1, le=20000, description="Words of memories the model reads")
        ] = 1500,
        kind: Literal["all", "episode", "fact"] = "all",
        since: Annotated[str | None, Field(description="Only from this date on")] = None,
        until: Annotated[str | None, Field(description="Only up to this date, included")] = None,
    ) -> dict[str, Any]:
        """Answer a question from memory with citations, as `nemori ask --json` does."""
        dates = parse_range(since or None, until or None, prefix="")
        with self._lock:
            result = self.memory.ask(
                question,
                budget=budget,
                kind=kind,
                since=dates.since,
                until=dates.until,
                user=self.user,
            )
        return result.to_dict()

    def list_facts(
        self,
        category: Literal["user_profile", "experience", "knowledge", "other"] | None = None,
        limit: Annotated[int, Field(ge=1, le=1000, description="How many, newest")] = 50,
    ) -> list[dict[str, Any]]:
        """Return the newest current facts (optionally of one category)."""
        with self._lock:
            facts = self.memory.facts(user=self.user, category=category, include_superseded=False)
        return [f.to_dict() for f in facts[-limit:]]

    def show_episode(
        self, id: Annotated[str, Field(description="Episode id, as search returns it")]
    ) -> dict[str, Any]:
        """Return one episode with its messages."""
        with self._lock:
            return self.memory.episode(id, user=self.user).to_dict()

    def add_conversation(
        self,
        messages: list[ChatMessage] | None = None,
        # Plain str (not str | None): the SDK JSON-decodes string arguments of any other type.
        text: Annotated[str, Field(description="nemori JSON, instead of messages")] = "",
        title: Annotated[str, Field(description="Conversation title")] = "",
    ) -> dict[str, Any]:
        """Ingest a conversation given as messages or as nemori JSON text."""
        if (messages is None) == (not text):
            raise UsageError("give either messages or text (nemori JSON), not both or neither")
        with self._lock:
            if messages is not None:
                dicts = [m.model_dump(exclude_none=True) for m in messages]
                summary = self.memory.add_messages(dicts, user=self.user, title=title or None)
            else:
                summary = self.memory.add_document(text, user=self.user, format="nemori")
        return _added(summary)

    def add_note(
        self,
        text: Annotated[str, Field(description="The note, in the person's words")],
        category: Literal["user_profile", "experience", "knowledge", "other"] | None = None,
    ) -> dict[str, Any]:
        """Store the note as an episode dated now and as a fact (category guessed if not given)."""
        with self._lock:
            return _added(self.memory.add_note(text, user=self.user, category=category))

    def correct_fact(
        self,
        id: Annotated[str, Field(description="Fact id, as search_memory or list_facts give it")],
        content: Annotated[
            str, Field(description="The fact as it should read; empty keeps the wording")
        ] = "",
        category: Literal["user_profile", "experience", "knowledge", "other"] | None = None,
    ) -> dict[str, Any]:
        """Correct a fact's wording or category; return the fact as stored now."""
        with self._lock:
            fact = self.memory.correct_fact(id, content or None, category=category, user=self.user)
        return fact.to_dict()


def _added(summary: IngestSummary) -> dict[str, Any]:
    """What an add tool reports: the counts of what was stored, the ids of the facts stored or
    folded into, and what was skipped."""
    d = summary.to_dict()
    keys = ("conversations", "messages", "episodes", "facts", "merged", "superseded")
    out = {k: d[k] for k in keys}
    out["fact_ids"] = list(summary.fact_ids)
    out["skipped"] = [s["why"] for s in d["skipped"]]
    return out


def _as_result(data: Any) -> CallToolResult:
    """One JSON text block (the CLI's --json shape) plus the same data as structured content."""
    from mcp_types import CallToolResult, TextContent

    text = orjson.dumps(data).decode()
    structured = data if isinstance(data, dict) else {"result": data}
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=structured
    )


def _tool(method: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a tool body: JSON result, and a nemori error as the message the model reads."""
    from mcp.server.mcpserver.exceptions import ToolError

    @wraps(method)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return _as_result(method(*args, **kwargs))
        except NemoriError as exc:
            raise ToolError(str(exc)) from None

    return run


DESCRIPTIONS = {
    "search_memory": (
        "Search the memory (episodes and facts, hybrid vector + keyword ranking). Returns a JSON "
        "array of hits, best first: kind, id, score, content, title (episodes), category "
        "(facts), timestamp, conversation_id, message_ids, episode_ids, and relevance (0-1; "
        "below 0.5 is a weak match). kind narrows to 'episode' or 'fact'; since/until take a "
        "day, month or year (each included whole) or a phrase such as 'last March'."
    ),
    "ask_memory": (
        "Answer a question from the memory: the best memories within `budget` words are shown "
        "to the configured LLM, which answers only from them, citing them as [1], [2]. Returns "
        "{question, answer, answerable, citations: [{n, kind, id, message_ids}], "
        "invalid_citations, hits, model, usage}; memory n is hits[n-1]. answerable is false "
        "when the memories do not hold the answer; answer is null when no LLM is configured "
        "(hits are then the best evidence). Same filters as search_memory."
    ),
    "list_facts": (
        "List the newest current facts about the person (at most `limit`), oldest first, "
        f"optionally of one category ({', '.join(CATEGORIES)}), each with its provenance."
    ),
    "show_episode": ("Show one episode by id: title, narrative, time and the original messages."),
    "add_conversation": (
        "Remember a conversation: either `messages` (a list of {role, content, name?, "
        "timestamp?, id?}) or `text` holding nemori JSON (a message list, {messages: [...]}, "
        "or {conversations: [...]}). It is cut into episodes and facts are extracted. Messages "
        "already stored (same conversation and message ids) are skipped."
    ),
    "add_note": (
        "Remember a short note from the person (one message, dated now), e.g. a preference "
        "or a plan they stated. It is stored as an episode and as a fact (category given, or "
        f"guessed: {', '.join(CATEGORIES)}) traced to that episode."
    ),
    "correct_fact": (
        "Correct a fact the person says is wrong or out of date: `content` is the fact as it "
        "should read (a new fact with the old one's sources and time; the old one is kept as "
        "history, superseded by it, and no longer searched), and/or `category` moves it. "
        "Returns the fact as stored now, with its new id when the wording changed."
    ),
}


def build_server(memory: Memory, user: str | None = None) -> MCPServer:
    """Build the MCP server whose tools read and write the memory of one user."""
    from mcp.server.mcpserver import MCPServer

    tools = MemoryTools(memory, user)
    server: MCPServer = MCPServer(
        "nemori",
        title="nemori memory",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )
    # Libraries that set their own loggers to DEBUG (bm25s) would chatter on stderr.
    for handler in logging.getLogger().handlers:
        handler.setLevel(logging.WARNING)
    for name, description in DESCRIPTIONS.items():
        fn = _tool(getattr(tools, name))
        read_only = name in ("search_memory", "ask_memory", "list_facts", "show_episode")
        server.add_tool(
            fn,
            name=name,
            description=description + f" (user {tools.user!r})",
            annotations=_annotations(read_only),
            structured_output=False,
        )
    return server


def _annotations(read_only: bool) -> Any:
    from mcp_types import ToolAnnotations

    return ToolAnnotations(read_only_hint=read_only, destructive_hint=False, open_world_hint=False)


def serve(memory: Memory, user: str | None = None) -> None:
    """Serve the memory over stdio until the client closes the connection."""
    build_server(memory, user).run("stdio")
