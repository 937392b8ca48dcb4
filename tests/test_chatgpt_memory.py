"""What ChatGPT kept in its memory about the user comes in with the export, as their facts."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from cli_runner import cli

from nemori_cli.importers import open_source
from nemori_cli.importers.memory_names import stated_name
from nemori_cli.models import Conversation

DAY = 86_400.0
START = datetime(2024, 3, 1, tzinfo=UTC).timestamp()


def node(key: str, parent: str | None, role: str, content: dict[str, Any], when: float | None,
         recipient: str = "all") -> dict[str, Any]:
    return {"id": key, "parent": parent, "children": [], "message": {
        "id": key, "author": {"role": role, "name": "bio" if role == "tool" else None},
        "create_time": when, "content": content, "recipient": recipient, "weight": 1.0,
        "metadata": {}}}


def chat(n: int, *, memory_list: str | None = None, writes: tuple[str, ...] = ()) -> dict:
    """Conversation n (begun n days after START): a question and answer, the memory list it
    was given and the memories it wrote."""
    began = START + n * DAY
    nodes = []
    if memory_list is not None:
        nodes.append(node("ctx", None, "assistant", {
            "content_type": "model_editable_context", "model_set_context": memory_list}, None))
    nodes.append(node("u", None, "user", {"content_type": "text",
                                          "parts": [f"Question {n}?"]}, began + 1))
    for i, text in enumerate(writes):
        nodes.append(node(f"bio-{i}", None, "assistant", {"content_type": "text",
                                                          "parts": [text]}, began + 2, "bio"))
        nodes.append(node(f"ok-{i}", None, "tool", {"content_type": "text",
                                                    "parts": ["Model set context updated."]},
                          began + 3))
    nodes.append(node("a", None, "assistant", {"content_type": "text",
                                               "parts": [f"Answer {n}."]}, began + 4))
    for before, after in zip(nodes, nodes[1:], strict=False):  # one line, root to leaf
        after["parent"], before["children"] = before["id"], [after["id"]]
    return {"title": f"Chat {n}", "create_time": began, "update_time": began + 5,
            "conversation_id": f"c-{n}", "current_node": "a",
            "mapping": {n["id"]: n for n in nodes}}


def memory_of(tmp_path: Path, chats: list[dict]) -> Conversation | None:
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(chats), encoding="utf-8")
    convs = [c for c in open_source(str(path)).conversations() if c.title == "ChatGPT memory"]
    assert len(convs) <= 1
    return convs[0] if convs else None


def items(conv: Conversation | None) -> list[str]:
    assert conv is not None
    return [m.content.removeprefix("About me:\n- ") for m in conv.messages]


def test_memory_writes_are_one_conversation_of_the_users_dated_when_written(
        tmp_path: Path) -> None:
    conv = memory_of(tmp_path, [chat(0, writes=("User is vegetarian.",)),
                                chat(3, writes=("Lives in Lisbon.\nHas a dog named Bolt.",))])
    assert items(conv) == ["User is vegetarian.", "Lives in Lisbon.", "Has a dog named Bolt."]
    assert conv is not None and {m.role for m in conv.messages} == {"user"}
    assert [m.timestamp.date().isoformat() for m in conv.messages if m.timestamp] == [
        "2024-03-01", "2024-03-04", "2024-03-04"]
    assert "Model set context" not in " ".join(items(conv))  # the tool's reply is no memory


def test_the_newest_memory_list_says_what_chatgpt_still_remembered(tmp_path: Path) -> None:
    conv = memory_of(tmp_path, [
        chat(0, writes=("Lives in Berlin.", "Works at Siemens.")),
        chat(5, memory_list="1. [2024-03-01]. Works at Siemens.\n2. Has two kids."),
        chat(9, writes=("Forget that the user works at Siemens.", "ignore", "Started at Spotify.")),
    ])
    # Berlin was deleted before the list; a request to forget (or the tool's "ignore") is not
    # a memory; a write after the newest list stands; a list item is dated by its own date,
    # else by the list's chat
    assert items(conv) == ["Works at Siemens.", "Has two kids.", "Started at Spotify."]
    assert [m.timestamp.date().isoformat() for m in conv.messages if m.timestamp] == [
        "2024-03-01", "2024-03-06", "2024-03-10"]


def test_a_memory_kept_in_many_chats_is_one_message(tmp_path: Path) -> None:
    listing = "1. [2024-02-10]. User is vegetarian."
    conv = memory_of(tmp_path, [chat(n, memory_list=listing) for n in range(4)])
    assert items(conv) == ["User is vegetarian."]


def test_an_export_with_no_memory_gives_no_memory_conversation(tmp_path: Path) -> None:
    assert memory_of(tmp_path, [chat(0), chat(1, memory_list="")]) is None


def test_ingesting_the_export_makes_the_memories_the_users_facts(tmp_path: Path) -> None:
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps([chat(0, writes=("The user's sister lives in Lyon.",
                                                  "User is training for the Berlin marathon."))]))
    data = str(tmp_path / "data")
    assert cli("--data-dir", data, "ingest", str(export), "--json")[0] == 0
    facts = {f["content"] for f in json.loads(cli("--data-dir", data, "facts", "list",
                                                   "--json")[1])}
    assert "The user's sister lives in Lyon." in facts
    assert "The user is training for the Berlin marathon." in facts
    # a later export holds the same memories and one more: only the new one comes in
    later = tmp_path / "later.json"
    later.write_text(json.dumps([chat(0, writes=("The user's sister lives in Lyon.",
                                                 "User is training for the Berlin marathon.")),
                                 chat(7, writes=("User has a cat named Miso.",))]))
    again = json.loads(cli("--data-dir", data, "ingest", str(later), "--json")[1])
    assert (again["conversations"], again["memories"], again["messages"]) == (2, 1, 3)
    said = cli("--data-dir", data, "ingest", str(later))[1]  # nothing new: the file's hash
    assert "saved memory" not in said
    latest = tmp_path / "latest.json"
    latest.write_text(json.dumps([chat(9, writes=("User plays the cello.",))]))
    said = cli("--data-dir", data, "ingest", str(latest))[1]
    assert "2 new conversations (1 of them saved memory)" in said
    facts_now = json.loads(cli("--data-dir", data, "facts", "list", "--json")[1])
    assert sorted(f["content"] for f in facts_now if f["content"] not in facts) == [
        "The user has a cat named Miso."]


def test_a_memory_that_opens_on_the_users_stated_name_is_theirs(tmp_path: Path) -> None:
    conv = memory_of(tmp_path, [chat(0, writes=("User's name is Sam.", "Sam is a nurse in Leeds.",
                                                "Priya is Sam's manager."))])
    assert items(conv) == ["User's name is Sam.", "User is a nurse in Leeds.",
                           "Priya is User's manager."]


@pytest.mark.parametrize(
    ("notes", "name"),
    [
        (["User's name is Sam."], "Sam"),
        (["Prefers to be called Jo.", "Jo lives in Leeds."], "Jo"),
        (["The user's preferred name is Kit."], "Kit"),
        (["Priya is the user's manager.", "User is a nurse."], None),  # someone else's name
        (["Prefers to be called by their first name."], None),
    ],
)
def test_the_users_name_is_the_one_a_memory_states(notes: list[str], name: str | None) -> None:
    assert stated_name(notes) == name
