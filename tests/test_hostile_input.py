"""Hostile and malformed input: a clean import or a clear NemoriError, never another exception."""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import pytest
from cli_runner import cli
from conftest import SAMPLE_CHATS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nemori_cli.config import validate_user_id
from nemori_cli.errors import NemoriError, UsageError
from nemori_cli.importers import FORMATS, open_source
from nemori_cli.models import Conversation

EXAMPLES = settings(
    max_examples=int(os.environ.get("NEMORI_HYPOTHESIS_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
NASTY_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",))
    | st.sampled_from(["\x00", "\x1b", "\u202e", "\ufeff", "\r", "\n", '"', "\\", "😀", "\u0301"]),
    max_size=40,
)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | NASTY_TEXT
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(NASTY_TEXT, inner, max_size=4),
    max_leaves=20,
)
KEYS = [
    "role",
    "content",
    "name",
    "timestamp",
    "id",
    "messages",
    "conversations",
    "title",
    "mapping",
    "message",
    "author",
    "parts",
    "chat_messages",
    "sender",
    "text",
    "create_time",
    "created_at",
    "history",
    "chat",
    "is_user",
    "mes",
    "send_date",
    "uuid",
    "children",
    "parent",
    # Takeout, AI Studio, Grok, DeepSeek, LibreChat, chatbot-ui
    "header",
    "time",
    "safeHtmlItem",
    "html",
    "products",
    "chunkedPrompt",
    "chunks",
    "isThought",
    "responses",
    "response",
    "conversation",
    "parent_response_id",
    "_id",
    "$date",
    "$numberLong",
    "fragments",
    "type",
    "inserted_at",
    "conversationId",
    "messageId",
    "parentMessageId",
    "isCreatedByUser",
    "prompt",
    "model",
]
# Documents shaped like the real formats, with any value of any type in any slot.
SHAPED = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=6)
    ),
    max_leaves=30,
)
SAMPLES = sorted(p for p in SAMPLE_CHATS.iterdir() if p.is_file())
EXTENSIONS = [".json", ".jsonl", ".md", ".txt"]


def _read(path: Path, fmt: str | None = None) -> list[Conversation]:
    """Import a file; only NemoriError may escape, and what comes out must be well-formed."""
    try:
        convs = list(open_source(str(path), format=fmt).conversations())
    except NemoriError as exc:
        message = str(exc)
        assert message and "\n" not in message.strip()
        return []
    for conv in convs:
        assert isinstance(conv, Conversation) and isinstance(conv.id, str) and conv.messages
        for m in conv.messages:
            assert isinstance(m.id, str) and isinstance(m.content, str) and m.content.strip()
            assert isinstance(m.role, str)
    return convs


def _dumps(value: object) -> bytes:
    # the stdlib writes what orjson refuses: huge integers, NaN and Infinity
    return json.dumps(value, ensure_ascii=False).encode()


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@EXAMPLES
@given(
    doc=SHAPED | JSON_VALUES, ext=st.sampled_from(EXTENSIONS), fmt=st.sampled_from([None, *FORMATS])
)
def test_any_json_document_imports_cleanly_or_fails_clearly(tmp_path, doc, ext, fmt) -> None:
    _read(_write(tmp_path, f"doc{ext}", _dumps(doc)), fmt)


@EXAMPLES
@given(lines=st.lists(SHAPED, min_size=1, max_size=5), fmt=st.sampled_from([None, "nemori"]))
def test_any_jsonl_imports_cleanly_or_fails_clearly(tmp_path, lines, fmt) -> None:
    data = b"\n".join(_dumps(x) for x in lines)
    _read(_write(tmp_path, "doc.jsonl", data), fmt)


@EXAMPLES
@given(
    sample=st.sampled_from(SAMPLES),
    cut=st.floats(0, 1),
    fmt=st.sampled_from([None, *FORMATS]),
)
def test_truncated_real_files_import_cleanly_or_fail_clearly(tmp_path, sample, cut, fmt) -> None:
    data = sample.read_bytes()
    _read(_write(tmp_path, sample.name, data[: int(len(data) * cut)]), fmt)


FIXTURES = Path(__file__).parent / "fixtures" / "importers"
JSON_FIXTURES = sorted(
    p for p in FIXTURES.rglob("*")
    if p.is_file() and p.stat().st_size < 200_000
    and (p.suffix in (".json", ".jsonl") or p.parent.name == "aistudio")
)
HTML_PAGE = FIXTURES / "gemini" / "MyActivity.html"


def _paths(node: object, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON document where a value sits."""
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(_paths(v, (*prefix, i)))
    return out


def _replace(node: object, path: tuple, value: object) -> object:
    if not path:
        return value
    node[path[0]] = _replace(node[path[0]], path[1:], value)  # type: ignore[index]
    return node


@EXAMPLES
@given(fixture=st.sampled_from(JSON_FIXTURES), data=st.data())
def test_real_exports_with_values_replaced_import_cleanly_or_fail_clearly(
    tmp_path, fixture, data
) -> None:
    raw = fixture.read_bytes()
    jsonl = fixture.suffix == ".jsonl"
    docs = [json.loads(x) for x in raw.splitlines() if x.strip()] if jsonl else [json.loads(raw)]
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(docs) - 1))
        path = data.draw(st.sampled_from(_paths(docs[i])))
        docs[i] = _replace(docs[i], path, data.draw(SHAPED | JSON_VALUES))
    body = b"\n".join(_dumps(d) for d in docs) if jsonl else _dumps(docs[0])
    fmt = data.draw(st.sampled_from([None, None, *FORMATS]))
    _read(_write(tmp_path, fixture.name, body), fmt)


@EXAMPLES
@given(
    cut=st.floats(0, 1),
    junk=st.sampled_from(["", "<", "</div>", "<div class=\"outer-cell\">", "<script>", "&#x",
                          "<!--", "<![CDATA[", "<br", "\x00", "<p>Prompted&nbsp;x<br>"]),
    at=st.floats(0, 1),
    fmt=st.sampled_from([None, "gemini"]),
)
def test_takeout_pages_cut_or_spliced_import_cleanly_or_fail_clearly(
    tmp_path, cut, junk, at, fmt
) -> None:
    page = HTML_PAGE.read_text()
    page = page[: int(len(page) * cut)]
    where = int(len(page) * at)
    _read(_write(tmp_path, "MyActivity.html", (page[:where] + junk + page[where:]).encode()), fmt)


@EXAMPLES
@given(data=st.binary(max_size=300), ext=st.sampled_from([*EXTENSIONS, ".zip"]))
def test_random_bytes_import_cleanly_or_fail_clearly(tmp_path, data, ext) -> None:
    _read(_write(tmp_path, f"blob{ext}", data))


@EXAMPLES
@given(
    sample=st.sampled_from(SAMPLES),
    at=st.floats(0, 1),
    junk=st.sampled_from(
        [b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\x00", b"\xf8\x88\x80\x80\x80", b"\xfe\xff"]
    ),
)
def test_invalid_utf8_is_a_clear_error(tmp_path, sample, at, junk) -> None:
    data = sample.read_bytes()
    cut = int(len(data) * at)
    _read(_write(tmp_path, sample.name, data[:cut] + junk + data[cut:]))


@pytest.mark.parametrize("depth", [100, 5_000, 200_000])
@pytest.mark.parametrize("fmt", [None, *FORMATS])
def test_deep_nesting_is_a_clear_error_or_an_import(tmp_path, depth, fmt) -> None:
    nested = b"[" * depth + b"]" * depth
    _read(_write(tmp_path, "deep.json", nested), fmt)
    wrapped = b'{"messages": ' + b"[" * depth + b"]" * depth + b"}"
    _read(_write(tmp_path, "deep2.json", wrapped), fmt)
    content = b'[{"role": "user", "content": ' + b"[" * depth + b"]" * depth + b"}]"
    _read(_write(tmp_path, "deep3.json", content), fmt)


def test_huge_strings_and_control_characters_import(tmp_path) -> None:
    huge = "word " * 400_000 + "\x00\x07\x1b[2J\u202e" + "😀" * 1000
    doc = [{"role": "user", "content": huge, "name": "\x00" * 100}, {"role": "x" * 10_000}]
    convs = _read(_write(tmp_path, "huge.json", json.dumps(doc).encode()))
    assert convs and len(convs[0].messages[0].content) > 1_000_000


def test_zip_with_hostile_members_fails_clearly_or_imports(tmp_path) -> None:
    path = tmp_path / "export.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("conversations.json", b"[{" * 1000)
        zf.writestr("../../escape.json", b"[]")
        zf.writestr("/abs.json", b'[{"role": "user", "content": "hi"}]')
    _read(path)
    assert not (tmp_path.parent / "escape.json").exists()




BAD_FILES = {
    "truncated.json": b'[{"role": "user", "content": "I like tea"}, {"role": "assis',
    "wrong-types.json": b'{"messages": [{"role": 5, "content": {"a": [1, 2]}}, 7, null]}',
    "invalid-utf8.json": b'[{"role": "user", "content": "caf\xe9"}]',
    "deep.json": b"[" * 100_000 + b"]" * 100_000,
    "nul.md": b"\x00\x00\x00 ## user\n\x00",
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_ingest_of_a_hostile_file_writes_nothing(tmp_path, data_dir, name) -> None:
    path = _write(tmp_path, name, BAD_FILES[name])
    code, out, err = cli("ingest", str(path), "--json")
    assert code == 1, (out, err)
    assert "Traceback" not in err and name in err
    assert not (data_dir / "users" / "me" / "episodes.jsonl").exists()


def test_ingest_with_a_good_and_a_hostile_file_keeps_the_store_consistent(tmp_path) -> None:
    good = _write(tmp_path, "good.json", (SAMPLE_CHATS / "food-preferences.json").read_bytes())
    bad = _write(tmp_path, "bad.json", BAD_FILES["truncated.json"])
    code, out, err = cli("ingest", str(good), str(bad), "--json")
    assert code == 1 and "bad.json" in err and "Traceback" not in err
    assert json.loads(out)["episodes"] > 0
    code, out, err = cli("doctor", "--json")
    assert code == 0, out


@pytest.mark.parametrize(
    "user", ["../x", "a/b", "/etc", "..", ".", "x\x00y", "", "a\\b", "~root", "x" * 200, "é"]
)
def test_user_ids_that_escape_the_data_dir_are_refused(tmp_path, data_dir, user) -> None:
    with pytest.raises(UsageError):
        validate_user_id(user)
    code, _, err = cli("--user", user, "search", "hiking")
    assert code == 2 and "invalid user id" in err
    sample = str(SAMPLE_CHATS / "food-preferences.json")
    code, _, err = cli("--user", user, "ingest", sample)
    assert code == 2 and "invalid user id" in err
    assert not data_dir.exists() or not any(data_dir.rglob("*.jsonl"))


QUERIES = [
    '"unclosed quote',
    "AND OR NOT ( ) [ ] { } * ? : ^ ~ + - && || !",
    "hiking' OR 1=1; --",
    '$where: {"$gt": 1}',
    "Zürich café naïve 東京 Москва مرحبا",
    "🏔️🥾😀 👨‍👩‍👧",
    "\x00\x1b[31m\u202e",
    "   ",
    "hiking " * 1500,
    "x" * 10_000,
]


@pytest.fixture(scope="module")
def ingested(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("store") / "data"
    code, _, err = cli(
        "--data-dir", str(data), "ingest", str(SAMPLE_CHATS / "alps-hiking-trip.json")
    )
    assert code == 0, err
    return data


@pytest.mark.parametrize("query", QUERIES)
def test_hostile_search_queries_work(ingested, query) -> None:
    code, out, err = cli("--data-dir", str(ingested), "search", query, "--json", "-k", "3")
    assert code == 0, err
    hits = json.loads(out)
    assert isinstance(hits, list) and len(hits) <= 3
