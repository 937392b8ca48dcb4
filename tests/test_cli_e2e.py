"""The CLI end to end on sample_chats/, in a temporary data dir, offline."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import cli, ingest_sample_chats
from store_check import child_environ

SAMPLE_CHATS = Path(__file__).resolve().parent.parent / "sample_chats"


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir with sample_chats/ ingested once (shared by the read-only tests)."""
    data = tmp_path_factory.mktemp("shared") / "data"
    summary = ingest_sample_chats(data)
    assert summary["conversations"] >= 4
    return data


def _clean_env() -> dict[str, str]:
    return child_environ()


def test_search_hiking_returns_fact_and_episode_per_contract(ingested: Path) -> None:
    code, out, _ = cli("--data-dir", str(ingested), "search", "hiking", "--json")
    assert code == 0
    hits = json.loads(out)
    kinds = {h["kind"] for h in hits}
    assert kinds == {"episode", "fact"}
    for h in hits:
        assert {
            "kind",
            "id",
            "score",
            "content",
            "timestamp",
            "conversation_id",
            "message_ids",
            "episode_ids",
        } <= set(h)
        assert h["message_ids"], h
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    fact = next(h for h in hits if h["kind"] == "fact")
    episode = next(h for h in hits if h["kind"] == "episode")
    assert "hik" in fact["content"].lower()
    assert "title" in episode and "hik" in (episode["title"] + episode["content"]).lower()


def test_search_stdin_jsonl_prints_one_line_per_query(ingested: Path) -> None:
    code, out, _ = cli(
        "--data-dir",
        str(ingested),
        "search",
        "--stdin",
        "--jsonl",
        "-k",
        "3",
        stdin="hiking\n\npeanuts\n",
    )
    assert code == 0
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x["query"] for x in lines] == ["hiking", "peanuts"]
    assert all(1 <= len(x["hits"]) <= 3 for x in lines)


def test_search_filters_kind_and_time(ingested: Path) -> None:
    _, out, _ = cli("--data-dir", str(ingested), "search", "hiking", "--kind", "fact", "--json")
    assert {h["kind"] for h in json.loads(out)} == {"fact"}
    _, out, _ = cli(
        "--data-dir", str(ingested), "search", "hiking", "--since", "2100-01-01", "--json"
    )
    assert json.loads(out) == []


def test_listings_print_records_as_json(ingested: Path) -> None:
    _, out, _ = cli("--data-dir", str(ingested), "facts", "list", "--json")
    facts = json.loads(out)
    assert facts and all(
        f["category"] in {"user_profile", "experience", "knowledge", "other"} for f in facts
    )
    _, out, _ = cli("--data-dir", str(ingested), "episodes", "list", "--json")
    episodes = json.loads(out)
    assert episodes and all(e["messages"] and e["title"] for e in episodes)
    code, out, _ = cli("--data-dir", str(ingested), "episodes", "show", episodes[0]["id"], "--json")
    assert code == 0 and json.loads(out)["id"] == episodes[0]["id"]


def test_reingest_adds_nothing(ingested: Path) -> None:
    code, out, _ = cli("--data-dir", str(ingested), "ingest", str(SAMPLE_CHATS), "--json")
    summary = json.loads(out)
    assert code == 0 and summary["episodes"] == 0 and summary["facts"] == 0


def test_delete_fact_removes_it_from_both_search_paths_and_reindex_is_stable(
    tmp_path: Path,
) -> None:
    data = str(tmp_path / "d")
    assert cli("--data-dir", data, "ingest", str(SAMPLE_CHATS))[0] == 0
    _, out, _ = cli("--data-dir", data, "search", "hiking", "--json")
    before = json.loads(out)
    _, out, _ = cli("--data-dir", data, "reindex")
    _, out, _ = cli("--data-dir", data, "search", "hiking", "--json")
    after = json.loads(out)
    assert [(h["id"], h["score"]) for h in after] == [(h["id"], h["score"]) for h in before]

    fact_id = next(h["id"] for h in before if h["kind"] == "fact")
    deleting = ["--data-dir", data, "facts", "delete", fact_id, "--yes"]
    assert _heavy_imports(deleting) == "numpy"  # not chromadb: Chroma forgets it at its next write
    _, out, _ = cli("--data-dir", data, "search", "hiking", "--json", "-k", "50")
    assert fact_id not in {h["id"] for h in json.loads(out)}

    from nemori_cli.memory import Memory

    mem = Memory.open(data_dir=data)
    assert fact_id not in mem.parts.vectors().record_ids("fact")
    lexical = mem.parts.lexical("fact").query("hiking Alps September", 100)
    assert fact_id not in {i for i, _ in lexical}
    assert fact_id not in {f.id for f in mem.facts()}
    assert cli("--data-dir", data, "doctor", "--repair")[0] == 0  # carries out waiting deletes
    chroma = Memory.open(data_dir=data).parts.vectors().chroma  # type: ignore[attr-defined]
    assert fact_id not in chroma.record_ids("fact")


def test_delete_episode_deletes_facts_only_it_supports(tmp_path: Path) -> None:
    data = str(tmp_path / "d")
    cli("--data-dir", data, "ingest", str(SAMPLE_CHATS))
    from nemori_cli.memory import Memory

    mem = Memory.open(data_dir=data)
    facts = mem.facts()
    target = facts[0].source_episode_ids[0]
    only_there = {f.id for f in facts if set(f.source_episode_ids) == {target}}
    assert only_there
    code, _, err = cli("--data-dir", data, "episodes", "delete", target, "--yes")
    assert code == 0, err
    mem = Memory.open(data_dir=data)
    assert target not in {e.id for e in mem.episodes()}
    assert not only_there & {f.id for f in mem.facts()}
    assert target not in mem.parts.vectors().record_ids("episode")
    assert not only_there & mem.parts.vectors().record_ids("fact")


def test_delete_without_yes_and_without_terminal_refuses(ingested: Path) -> None:
    _, out, _ = cli("--data-dir", str(ingested), "facts", "list", "--json")
    fid = json.loads(out)[0]["id"]
    code, _, err = cli("--data-dir", str(ingested), "facts", "delete", fid)
    assert code == 2 and "--yes" in err


def test_bad_input_is_one_line_error_and_other_files_still_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    good = tmp_path / "good.json"
    good.write_text(
        json.dumps(
            [
                {
                    "role": "user",
                    "content": "I live in Porto and I love surfing.",
                    "timestamp": "2025-03-01T10:00:00Z",
                },
                {"role": "assistant", "content": "Porto has great waves!"},
            ]
        ),
        encoding="utf-8",
    )
    data = str(tmp_path / "d")
    code, out, err = cli(
        "--data-dir", data, "ingest", str(bad), str(tmp_path / "nope"), str(good), "--json"
    )
    assert code == 1
    assert "Traceback" not in err
    assert "bad.json" in err and "nope" in err
    summary = json.loads(out)
    assert summary["conversations"] == 1 and len(summary["failed"]) == 2


@pytest.mark.parametrize(
    "args",
    [["--bogus"], ["search", "-k", "x", "hiking"], ["facts", "show"], ["no-such-command"],
     ["search", "hiking", "extra", "--bogus"], ["episodes", "list", "-n", "0"],
     ["backfill", "--workers", "0"], ["ask", "--budget", "0", "x"]],
)
def test_bad_usage_is_one_error_and_exit_code_2(tmp_path: Path, args: list[str]) -> None:
    code, out, err = cli("--data-dir", str(tmp_path), *args)
    assert code == 2 and "Traceback" not in err and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: "), err


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["search", "-k", "0", "hiking"], "error: -k/--limit must be at least 1"),
        (["search", "--min-score", "2", "x"], "error: --min-score must be between 0 and 1"),
        (["ingest", "--workers", "0", "x"], "error: --workers must be at least 1"),
        (["search", "-k", "x", "hiking"], "error: -k/--limit must be a whole number, not 'x'"),
        (["facts", "show"], "error: missing argument 'fact_id' (see `nemori facts show --help`)"),
    ],
)
def test_a_bad_option_value_says_the_rule_it_breaks(
    tmp_path: Path, args: list[str], said: str
) -> None:
    code, _, err = cli("--data-dir", str(tmp_path), *args)
    assert code == 2 and err.strip() == said


def test_a_group_without_a_command_still_shows_its_help(tmp_path: Path) -> None:
    code, out, err = cli("--data-dir", str(tmp_path), "facts")
    assert "Usage: nemori facts" in out + err and "error:" not in err


def test_a_query_of_several_words_needs_no_quotes(ingested: Path) -> None:
    data = ["--data-dir", str(ingested)]
    quoted = cli(*data, "search", "hiking boots", "-k", "3", "--json")
    assert quoted[0] == 0
    assert cli(*data, "search", "hiking", "boots", "-k", "3", "--json") == quoted
    assert cli(*data, "search", "-k", "3", "hiking", "--json", "boots") == quoted
    code, out, _ = cli(*data, "ask", "where", "do", "I", "hike", "--json")
    assert code == 0 and json.loads(out)["question"] == "where do I hike"
    code, _, err = cli(*data, "search", "--stdin", "hiking", "boots", stdin="x\n")
    assert code == 2 and "not both" in err


def test_stdin_prints_what_the_flags_say_a_table_by_default(ingested: Path) -> None:
    data = ["--data-dir", str(ingested)]
    code, out, _ = cli(*data, "search", "--stdin", "-k", "2", stdin="hiking\n\npeanuts\n")
    assert code == 0 and not out.startswith("{")
    assert "Results for 'hiking'" in out and "Results for 'peanuts'" in out
    code, out, _ = cli(*data, "search", "--stdin", "-k", "2", "--json", stdin="hiking\npeanuts\n")
    assert [row["query"] for row in json.loads(out)] == ["hiking", "peanuts"]
    code, out, _ = cli(*data, "ask", "--stdin", stdin="where do I hike\nwhat do I eat\n")
    assert code == 0 and not out.startswith("{")
    assert "where do I hike" in out and out.count("Best evidence") == 2
    code, out, _ = cli(*data, "ask", "--stdin", "--jsonl", stdin="where do I hike\n")
    assert json.loads(out)["question"] == "where do I hike"


def test_a_category_keeps_to_facts_in_the_cli_and_the_python_api(ingested: Path) -> None:
    from nemori_cli import Memory
    from nemori_cli.errors import UsageError

    data = ["--data-dir", str(ingested)]
    code, out, _ = cli(*data, "search", "peanuts", "--category", "user_profile", "--json")
    hits = json.loads(out)
    assert code == 0 and hits and {h["kind"] for h in hits} == {"fact"}
    code, _, err = cli(*data, "search", "peanuts", "--category", "user_profile",
                       "--kind", "episode")
    assert code == 2 and err.startswith("error: --category picks facts")
    memory = Memory.open(data_dir=ingested)
    hits = memory.search("peanuts", category="user_profile")
    assert hits and all(h.kind == "fact" and h.category == "user_profile" for h in hits)
    with pytest.raises(UsageError):
        memory.search("peanuts", kind="episode", category="user_profile")


def test_invalid_user_id_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = cli("--data-dir", str(tmp_path), "--user", "../evil", "facts", "list")
    assert code == 2 and "invalid user id" in err and "Traceback" not in err


def _heavy_imports(args: list[str]) -> str:
    """Run `nemori ARGS` in a fresh process; return the heavy libraries it imported."""
    probe = (
        "import sys\n"
        "from nemori_cli.cli.app import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit as exc:\n    assert not exc.code\n"
        "heavy = [m for m in ('litellm', 'chromadb', 'onnxruntime', 'bm25s', 'numpy', 'pydantic')"
        " if m in sys.modules]\n"
        "sys.stderr.write('HEAVY=' + ','.join(heavy))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe, *args],
        capture_output=True,
        text=True,
        env=_clean_env(),
        check=False,
    )
    assert "HEAVY=" in proc.stderr, (args, proc.stderr[-500:])
    return proc.stderr.rsplit("HEAVY=", 1)[1].strip()


def test_help_listing_and_search_do_not_import_heavy_libraries(ingested: Path) -> None:
    data = ["--data-dir", str(ingested)]
    assert _heavy_imports(["--help"]) == ""
    assert _heavy_imports([*data, "facts", "list"]) == ""
    # search embeds the query, and reads the flat copy of the vectors instead of Chroma
    assert _heavy_imports([*data, "search", "hiking"]) == "onnxruntime,numpy"


def test_a_run_builds_only_its_command_and_that_command_is_the_whole_apps() -> None:
    import typer.main

    from nemori_cli.cli.app import COMMANDS, GLOBAL_OPTIONS, app, build
    from nemori_cli.cli.argv import command_of, hoist

    whole = typer.main.get_command(app)
    assert set(whole.commands) == set(COMMANDS)  # type: ignore[attr-defined]
    for name in COMMANDS:
        alone = typer.main.get_command(build(name))
        assert name in alone.commands and len(alone.commands) < len(COMMANDS)  # type: ignore[attr-defined]
        params = [p.name for p in alone.commands[name].params]  # type: ignore[attr-defined]
        assert params == [p.name for p in whole.commands[name].params]  # type: ignore[attr-defined]
    args = hoist(["search", "cat", "--data-dir", "D", "-u", "me"], GLOBAL_OPTIONS)
    assert command_of(args, GLOBAL_OPTIONS) == "search"
    assert command_of(["--data-dir=D", "facts", "list"], GLOBAL_OPTIONS) == "facts"
    assert command_of(["--data-dir", "D", "--help"], GLOBAL_OPTIONS) is None


def test_help_reads_as_before_without_loading_markdown_or_tracebacks() -> None:
    """`nemori --help` defers rich's markdown and traceback modules, and prints the same help."""
    probe = (
        "import sys\n"
        "from nemori_cli.cli.launch import run\n"
        "try:\n    run(sys.argv[1:])\nexcept SystemExit as exc:\n    assert not exc.code\n"
        "loaded = [m for m in ('markdown_it', 'pygments') if m in sys.modules]\n"
        "sys.stderr.write('LOADED=' + ','.join(loaded))\n"
    )
    env = {**_clean_env(), "COLUMNS": "80", "NO_COLOR": "1"}
    deferred = subprocess.run(
        [sys.executable, "-c", probe, "--help"], capture_output=True, text=True, env=env
    )
    assert deferred.stderr.rsplit("LOADED=", 1)[1] == ""
    whole = subprocess.run(
        [sys.executable, "-m", "nemori_cli.cli.app", "--help"], capture_output=True, text=True,
        env=env,
    )
    assert deferred.stdout == whole.stdout and "Commands" in whole.stdout


def after_deferral(lines: str) -> str:
    """Run `lines` in a fresh process after defer_rich_extras(); return what it printed."""
    probe = "from nemori_cli.cli.deferred import defer_rich_extras\ndefer_rich_extras()\n" + lines
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=_clean_env()
    )
    assert done.returncode == 0, done.stderr[-800:]
    return done.stdout


def test_a_deferred_rich_module_is_the_real_one_once_used() -> None:
    """Code that uses rich.markdown or rich.traceback after the deferral gets the real thing."""
    printed = after_deferral(
        "import sys\n"
        "from rich.markdown import Markdown\n"
        "assert 'markdown_it' not in sys.modules\n"
        "from rich.console import Console\n"
        "console = Console(width=40, no_color=True)\n"
        "console.print(Markdown('# Title\\n\\n- *one* item'))\n"
        "import rich.traceback\n"
        "assert callable(rich.traceback.install)\n"
        "try:\n    1 / 0\nexcept ZeroDivisionError:\n    console.print_exception()\n"
    )
    assert "Title" in printed and "• one item" in printed and "ZeroDivisionError" in printed


def test_a_deferred_class_answers_for_the_real_one() -> None:
    """Its class methods and isinstance reach the real class (rich.logging uses both)."""
    printed = after_deferral(
        "import logging, sys\n"
        "from rich.traceback import Traceback\n"
        "assert 'pygments' not in sys.modules\n"
        "made = Traceback.from_exception(KeyError, KeyError('k'), None)\n"
        "assert isinstance(made, Traceback)\n"
        "from rich.console import Console\n"
        "from rich.logging import RichHandler\n"
        "log = logging.getLogger('t')\n"
        "wide = Console(width=120, no_color=True)\n"
        "log.addHandler(RichHandler(console=wide, rich_tracebacks=True))\n"
        "try:\n    {}['key']\nexcept KeyError:\n    log.exception('lookup failed')\n"
    )
    assert "lookup failed" in printed and "KeyError" in printed


def test_command_modules_give_typer_evaluated_annotations() -> None:
    """Typer evaluates string annotations at every start (40 ms of `nemori --help`)."""
    import __future__

    from nemori_cli.cli.app import COMMANDS

    for module in {*COMMANDS.values()}:
        assert getattr(module, "annotations", None) is not __future__.annotations, module
