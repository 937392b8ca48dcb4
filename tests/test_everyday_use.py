"""Issue 16: the rough edges a new user met with real exports, each as the user would meet it."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_runner import cli, ingest_sample_chats

from nemori_cli.cli.app import GLOBAL_OPTIONS, app
from nemori_cli.daterange import parse_period, parse_range
from nemori_cli.errors import UsageError

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("everyday") / "data"
    ingest_sample_chats(data)
    return data


def search_json(store: Path, *args: str) -> list[dict]:
    code, out, err = cli("--data-dir", str(store), "search", *args, "--json")
    assert code == 0, err
    return json.loads(out)


# --- 1. dates ------------------------------------------------------------------------------


def test_until_a_day_includes_that_whole_day(store: Path) -> None:
    hits = search_json(store, "hut booking", "--since", "2025-06-14", "--until", "2025-06-14")
    assert hits and all(h["timestamp"].startswith("2025-06-14") for h in hits)


@pytest.mark.parametrize(
    ("typed", "start", "end"),
    [
        ("2024-10-17", "2024-10-17T00:00", "2024-10-17T23:59"),
        ("2024-06", "2024-06-01T00:00", "2024-06-30T23:59"),
        ("2024", "2024-01-01T00:00", "2024-12-31T23:59"),
        ("yesterday", "2026-11-30T00:00", "2026-11-30T23:59"),
        ("3 weeks ago", "2026-11-10T00:00", "2026-11-10T23:59"),
        ("last March", "2026-03-01T00:00", "2026-03-31T23:59"),
        ("March 2024", "2024-03-01T00:00", "2024-03-31T23:59"),
        ("2024-10-17T10:30", "2024-10-17T10:30", "2024-10-17T10:30"),
    ],
)
def test_dates_people_type_name_whole_periods(typed: str, start: str, end: str) -> None:
    period = parse_period(typed, NOW)
    assert period.start.isoformat()[:16] == start
    assert period.end.isoformat()[:16] == end


def test_a_bad_date_is_a_usage_error_with_examples() -> None:
    with pytest.raises(UsageError, match="is not a date"):
        parse_range("the day of the tentacle", None, NOW)
    with pytest.raises(UsageError, match="after"):
        parse_range("2025", "2024", NOW)


def test_listings_take_dates_and_the_resolved_range_is_shown(store: Path) -> None:
    code, out, err = cli(
        "--data-dir", str(store), "episodes", "list", "--since", "2025-06", "--until", "2025-06"
    )
    assert code == 0, err
    assert "dates: 2025-06-01 through 2025-06-30 (UTC)" in err
    assert "2025-06-14" in out and "2025-08" not in out
    code, out, _ = cli("--data-dir", str(store), "facts", "list", "--until", "2025-06-14",
                       "--json")
    assert code == 0 and json.loads(out)
    assert all(f["valid_from"] < "2025-06-15" for f in json.loads(out))
    code, _, err = cli("--data-dir", str(store), "search", "hiking", "--since", "2025")
    assert code == 0 and "dates: 2025-01-01 onwards (UTC)" in err


# --- 2. relevance --------------------------------------------------------------------------


def test_hits_carry_a_relevance_and_strong_ones_come_first(store: Path) -> None:
    hits = search_json(store, "hiking boots")
    assert all(0.0 <= h["relevance"] <= 1.0 for h in hits)
    assert hits[0]["relevance"] >= 0.5 and "boots" in hits[0]["content"]


def test_nothing_close_says_no_strong_match(store: Path) -> None:
    code, out, err = cli("--data-dir", str(store), "search", "quantum chromodynamics lattice")
    assert code == 0
    assert "no strong match" in err
    hits = search_json(store, "quantum chromodynamics lattice")
    assert max(h["relevance"] for h in hits) < 0.5


def test_min_score_drops_weak_hits(store: Path) -> None:
    hits = search_json(store, "hiking", "--min-score", "0.5")
    assert hits and all(h["relevance"] >= 0.5 for h in hits)
    assert search_json(store, "quantum chromodynamics lattice", "--min-score", "0.5") == []


# --- 4. hit identity and snippet -----------------------------------------------------------


def test_two_hits_from_one_episode_have_distinct_ids_and_snippets(tmp_path: Path) -> None:
    """A long episode focused twice gives two rows that say which part each is."""
    from nemori_cli.models import Episode, Message, SearchHit
    from nemori_cli.search.relevance import hit_identity, snippet

    msgs = tuple(Message(f"m{i}", "user", f"turn {i} about topic {i}") for i in range(12))
    ep = Episode(
        id="ep_1", user_id="u", conversation_id="c", title="T", content="x",
        timestamp=None, end_timestamp=None, message_ids=tuple(m.id for m in msgs),
        messages=msgs, created_at=NOW, extraction={},
    )
    a = SearchHit("episode", "ep_1", 1.0, "On Monday, User:\nUser: turn 2 about forests",
                  message_ids=("m1", "m2", "m3", "m4"))
    b = SearchHit("episode", "ep_1", 0.9, "On Monday, User:\nUser: turn 9 about sentience",
                  message_ids=("m8", "m9", "m10", "m11"))
    assert hit_identity(a, ep) == "ep_1:2-5"
    assert hit_identity(b, ep) == "ep_1:9-12"
    assert snippet("are forests sentient", a) == "User: turn 2 about forests"
    whole = SearchHit("episode", "ep_1", 1.0, "x", message_ids=ep.message_ids)
    assert hit_identity(whole, ep) == "ep_1"


def test_search_json_keeps_id_and_adds_hit_id_and_the_table_shows_a_snippet(store: Path) -> None:
    hits = search_json(store, "hiking boots")
    assert len({h["hit_id"] for h in hits}) == len(hits)
    assert all(h["hit_id"].split(":")[0] == h["id"] for h in hits)
    code, out, _ = cli("--data-dir", str(store), "search", "hiking boots")
    assert code == 0
    assert "| User: Totally unrelated: my hiking boots" in out


def test_episodes_show_of_a_hit_id_shows_that_span_and_refuses_a_bad_one(store: Path) -> None:
    hit = next(h for h in search_json(store, "knee surgery steep descents")
               if h["kind"] == "episode")
    episode = hit["id"]
    code, out, _ = cli("--data-dir", str(store), "episodes", "show", f"{episode}:2-2")
    assert code == 0 and "Source messages (2-2 of " in out
    assert out.count("\n--- ") == 1  # one message shown
    code, whole, _ = cli("--data-dir", str(store), "episodes", "show", episode)
    # offline, the narrative is the transcript: each message is printed once, not twice
    assert code == 0 and whole.count("knee surgery two years ago") == 1
    for bad in (f"{episode}:zz", f"{episode}:50-60"):
        code, _, err = cli("--data-dir", str(store), "episodes", "show", bad)
        assert code == 2 and err.count("\n") == 1 and err.startswith("error:")


# --- 5. ids of messages without ids ---------------------------------------------------------


def test_a_grown_message_list_adds_only_its_new_message(tmp_path: Path) -> None:
    chat = [
        {"role": "user", "content": [{"type": "text", "text": "I adopted a cat named Miso."}]},
        {"role": "assistant", "content": "Lovely name! How old is Miso?"},
    ]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(chat))
    data = str(tmp_path / "data")
    assert cli("--data-dir", data, "ingest", str(path), "--no-facts")[0] == 0
    code, out, _ = cli("--data-dir", data, "ingest", "--dry-run", str(path))
    assert code == 0 and "already imported" in out
    chat.append({"role": "user", "content": "She is two and loves boxes."})
    path.write_text(json.dumps(chat))
    code, out, _ = cli("--data-dir", data, "ingest", "--dry-run", str(path))
    assert code == 0 and "1 new message" in out
    code, out, _ = cli("--data-dir", data, "ingest", str(path), "--no-facts", "--json")
    assert code == 0 and json.loads(out)["messages"] == 1
    code, out, _ = cli("--data-dir", data, "episodes", "list", "--json")
    episodes = json.loads(out)
    assert len({e["conversation_id"] for e in episodes}) == 1
    assert sum(len(e["message_ids"]) for e in episodes) == 3


# --- 6. filters that match nothing ----------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [["search", "cat", "--category", "profile"], ["facts", "list", "--category", "user_profil"]],
)
def test_an_unknown_category_is_a_usage_error_listing_the_valid_ones(
    store: Path, args: list[str]
) -> None:
    code, out, err = cli("--data-dir", str(store), *args)
    assert code == 2 and out == ""
    assert "user_profile, experience, knowledge, other" in err


@pytest.mark.parametrize(
    "args", [["search", "cat"], ["facts", "list"], ["episodes", "list"], ["stats"]]
)
def test_an_unknown_user_is_an_error_naming_the_users(store: Path, args: list[str]) -> None:
    code, out, err = cli("--data-dir", str(store), *args, "--user", "trail")
    assert code == 1 and out == ""
    assert "no user 'trail'" in err and "users: me" in err


# --- 7. global options anywhere -------------------------------------------------------------


def test_every_global_option_is_known_to_the_argv_rewrite() -> None:
    import typer.main

    root = typer.main.get_command(app)
    names = {n for p in root.params for n in p.opts if p.name not in ("version",)}
    names -= {"--install-completion", "--show-completion", "--help", "-h"}
    assert names == set(GLOBAL_OPTIONS)


@pytest.mark.parametrize(
    "args",
    [
        ["search", "hiking", "--json"],
        ["facts", "list", "--json"],
        ["episodes", "list", "--json"],
        ["stats", "--json"],
        ["export", "--format", "json"],
        ["users", "list", "--json"],
        ["config", "show", "--json"],
        ["doctor", "--json"],
    ],
)
def test_global_options_work_after_the_command(store: Path, args: list[str]) -> None:
    before = cli("--data-dir", str(store), "--user", "me", *args)
    after = cli(*args, "--data-dir", str(store), "-u", "me")
    assert before[0] == after[0] == 0, (before[2], after[2])
    if args[0] not in ("export", "config", "doctor"):
        assert before[1] == after[1] or args[0] == "search"
    assert after[1].strip()


def test_options_after_a_double_dash_stay_arguments() -> None:
    from nemori_cli.cli.argv import hoist

    assert hoist(["search", "x", "--user=a", "--", "--user"], GLOBAL_OPTIONS) == [
        "--user=a", "search", "x", "--", "--user",
    ]


# --- 8. ingest output -----------------------------------------------------------------------


def test_ingest_summarises_skips_on_stderr(tmp_path: Path) -> None:
    convs = [{"id": f"e{i}", "messages": []} for i in range(84)]
    convs.append({"id": "ok", "messages": [{"role": "user", "content": "I like tea."}]})
    path = tmp_path / "many.json"
    path.write_text(json.dumps({"conversations": convs}))
    code, out, err = cli("--data-dir", str(tmp_path / "d"), "ingest", str(path), "--no-facts")
    assert code == 0
    assert "84 empty conversations skipped" in err and "skipped" not in out
    assert "e17" not in err
    code, _, err = cli("--data-dir", str(tmp_path / "d2"), "ingest", str(path), "--no-facts",
                       "--verbose")
    assert "e17" in err


def test_a_wrong_path_is_one_line_and_exit_1(tmp_path: Path) -> None:
    code, out, err = cli("--data-dir", str(tmp_path / "d"), "ingest", str(tmp_path / "nope"))
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1


def test_dry_run_names_a_conversation_without_an_id(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"conversations": [
        {"title": "x", "messages": []}, {"messages": [{"role": "user", "content": "hi"}]}]}))
    code, out, err = cli("--data-dir", str(tmp_path / "d"), "ingest", "--dry-run", str(path),
                         "--verbose")
    assert "None" not in out + err
    assert "a conversation without an id" in err


def test_piped_tables_are_plain_and_unwrapped(store: Path) -> None:
    code, out, _ = cli("--data-dir", str(store), "episodes", "list")
    assert code == 0
    assert not set("┏┃│━─└┘") & set(out)
    lines = out.splitlines()
    assert len(lines) == 3 + len(json.loads(cli("--data-dir", str(store), "episodes", "list",
                                                 "--json")[1]))


def test_terminal_tables_never_break_words(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console

    from nemori_cli.cli import render

    buf = io.StringIO()
    monkeypatch.setitem(render.CONSOLES, False, Console(file=buf, width=60, force_terminal=True,
                                                        color_system=None))
    monkeypatch.delenv("NO_COLOR", raising=False)
    render.table("t", ["id", "title"], [("ep_6ffaf8b42592c64c", "Planning a hut-to-hut hike "
                                          "in the Alps with my sister Anna from Lyon")])
    text = buf.getvalue()
    assert "ep_6ffaf8b42592c64c" in text
    words = {w.strip("│ ") for w in text.split()}
    assert "hut-to-hut" in words and "sister" in words


def test_no_color_keeps_the_terminal_layout_without_colours(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console

    from nemori_cli.cli import render

    monkeypatch.setenv("NO_COLOR", "1")
    buf = io.StringIO()
    monkeypatch.setitem(render.CONSOLES, False, Console(file=buf, width=80, force_terminal=True))
    render.table("t", ["id", "title"], [("ep_1", "Planning a hut-to-hut hike in the Alps")])
    text = buf.getvalue()
    assert "│" in text and "hut-to-hut" in text  # rich's table, wrapped to the terminal
    colours = re.findall(r"\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]", text)
    assert "\x1b[" in text and not colours  # bold stays (NO_COLOR is about colour only)


# --- 10-12. order, output, titles -----------------------------------------------------------


def test_claude_messages_follow_their_timestamps(tmp_path: Path) -> None:
    conv = {
        "uuid": "c1", "name": "", "created_at": "2024-05-01T03:28:00Z",
        "chat_messages": [
            {"uuid": "b", "sender": "human", "text": "Also, what about the budget for it?",
             "created_at": "2024-05-01T03:37:00Z"},
            {"uuid": "a", "sender": "human", "text": "Help me plan a garden with tomatoes.",
             "created_at": "2024-05-01T03:28:00Z"},
            {"uuid": "a2", "sender": "assistant", "text": "Sure: start with the soil.",
             "created_at": "2024-05-01T03:29:00Z"},
        ],
    }
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([conv]))
    data = str(tmp_path / "d")
    assert cli("--data-dir", data, "ingest", str(path), "--no-facts")[0] == 0
    [ep] = json.loads(cli("--data-dir", data, "episodes", "list", "--json")[1])
    assert ep["message_ids"] == ["a", "a2", "b"]
    assert ep["timestamp"].startswith("2024-05-01T03:28")
    assert "garden" in ep["title"].lower()


def test_human_output_has_no_reprs_and_counts_facts(store: Path) -> None:
    code, out, _ = cli("--data-dir", str(store), "episodes", "list")
    rows = [ln.split() for ln in out.splitlines()[3:]]
    assert all(r[-1].isdigit() for r in rows)  # the facts column counts facts
    ep_id, shown = rows[0][0], int(rows[0][3])  # the msgs column (after a two-word date)
    code, out, _ = cli("--data-dir", str(store), "episodes", "show", ep_id)
    assert code == 0
    assert "{'" not in out and "['" not in out
    assert f"Source messages ({shown} messages):" in out and out.count("--- user") == shown // 2
    fact = json.loads(cli("--data-dir", str(store), "facts", "list", "--json")[1])[0]
    code, out, _ = cli("--data-dir", str(store), "facts", "show", fact["id"])
    assert code == 0 and "['" not in out
    assert "From 1 message in" in out
    assert "I go hiking in the Alps every September" in out  # the source sentence itself


@pytest.mark.parametrize(
    "title", ["Conversation 2", "New chat", "Untitled", "Conversation 1. Web Search",
              "Assist user with summary"],
)
def test_generic_titles_give_way_to_the_content(title: str) -> None:
    from nemori_cli.models import Conversation, Message
    from nemori_cli.pipeline.episodes import build_episode

    msgs = (
        Message("1", "user", "I want to repot my lemon tree before the winter frost."),
        Message("2", "assistant", "Use a pot one size larger and a gritty citrus mix."),
    )
    ep = build_episode("u", Conversation("c", msgs, title=title), msgs)
    assert title not in ep.title and title not in ep.content
    assert "lemon tree" in ep.title.lower()


# --- 13. markdown export --------------------------------------------------------------------


def test_markdown_export_keeps_lines_and_closes_a_cut_fence() -> None:
    from nemori_cli.ops.export import markdown_lines

    text = "On Monday, User and Assistant talked.\nUser: a\nAssistant: code:\n```py\nx = 1 […]"
    md = markdown_lines(text)
    assert md.splitlines()[0].endswith("  ")  # a hard break: lines stay lines
    assert md.count("```") == 2 and md.rstrip().endswith("```")
    assert "\\`\\`\\`" in markdown_lines("User: see ```py x […]")


# --- 14. README -----------------------------------------------------------------------------


def test_readme_has_no_pseudo_pipelines_and_explains_until_and_scores() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert "| episodes" not in readme and "| users" not in readme
    assert "whole day" in readme and "relevance" in readme


def test_a_snippet_shows_the_line_with_the_query_s_rarer_word() -> None:
    """A word every hit holds ("you") does not pick the line a row shows."""
    import numpy as np

    from nemori_cli.models import SearchHit
    from nemori_cli.search.relevance import annotate

    lisbon = SearchHit("episode", "ep_1", 1.0, "On Monday, User and Assistant talked:\n"
                       "Assistant: Welcome! Here is what you need for the paperwork.\n"
                       "User: Any ideas for a weekend hike near Lisbon?")
    other = SearchHit("episode", "ep_2", 0.9, "On Friday, User and Assistant talked:\n"
                      "Assistant: Can you send the file again?")
    hits = annotate([lisbon, other], "can you suggest a weekend trip", np.zeros(4), {}, None)
    assert hits[0].snippet == "User: Any ideas for a weekend hike near Lisbon?"


# --- what ingest --dry-run and an empty run say ---------------------------------------------

JAN_THREAD = (Path(__file__).parent / "fixtures" / "importers" / "jan" / "threads"
              / "01JX4K9Q2M7T3V8B5N6C1D0E9F" / "thread.json")


@pytest.mark.parametrize("jan", [False, True])
def test_a_dry_run_fails_a_file_as_its_import_would(tmp_path: Path, jan: bool) -> None:
    plain = tmp_path / "plain.md"
    plain.write_text("Shopping\nUser: admin\nHost: db-1\n")  # no one answers: no turns
    args = [str(JAN_THREAD)] if jan else ["-f", "markdown", str(plain)]
    data = str(tmp_path / "d")
    real = cli("--data-dir", data, "ingest", *args)
    dry = cli("--data-dir", data, "ingest", "--dry-run", *args)
    assert real[0] == dry[0] == 1
    [said] = [ln for ln in real[2].splitlines() if ln.startswith("error:")]
    assert "no conversations" in said and said in dry[2].splitlines()
    assert "already imported" not in dry[1] + dry[2]
    code, out, _ = cli("--data-dir", data, "ingest", "--dry-run", *args, "--json")
    assert code == 1 and json.loads(out) == [{"path": args[-1], "error": said[len("error: "):]}]


def test_an_empty_folder_is_an_error_like_a_file_without_conversations(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / ".hidden.json").write_text("[]")
    data = str(tmp_path / "d")
    for dry in ([], ["--dry-run"]):
        code, out, err = cli("--data-dir", data, "ingest", str(folder), *dry)
        assert code == 1 and out == ""
        assert err == f"error: {folder}: no chat files found in the folder\n"


def test_backfill_with_nothing_to_do_says_so(tmp_path: Path) -> None:
    data = str(tmp_path / "d")
    code, out, _ = cli("--data-dir", data, "backfill")
    assert code == 0 and out == "nothing to backfill: every episode's facts are extracted\n"
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "I adopted a cat named Miso."}]))
    assert cli("--data-dir", data, "ingest", str(chat), "--no-facts")[0] == 0
    code, out, _ = cli("--data-dir", data, "backfill")
    assert code == 0 and "stored 0 episodes and 1 fact" in out
    code, out, _ = cli("--data-dir", data, "backfill", "--redo")
    assert out == "nothing to backfill: every episode's facts are extracted by offline\n"
