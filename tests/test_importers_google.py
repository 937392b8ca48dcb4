"""Google sources: Gemini Apps activity from Takeout (JSON and HTML), AI Studio prompt files."""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from nemori_cli.errors import ImportFormatError
from nemori_cli.importers import expand_paths, open_source, scan
from nemori_cli.importers.htmltext import html_to_text
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation

FIXTURES = Path(__file__).parent / "fixtures" / "importers"
GEMINI = FIXTURES / "gemini"
AI_STUDIO = FIXTURES / "aistudio" / "Sourdough coach"
SOURDOUGH = "gemini-2025-11-13T15:25:00Z"
LISBON = "gemini-2025-11-14T13:50:02Z"


def read(path: Path | str, **kwargs) -> tuple[str, dict[str, Conversation], list]:
    source = open_source(str(path), **kwargs)
    return source.format, {c.id: c for c in source.conversations()}, source.skipped


def texts(conv: Conversation) -> list[str]:
    return [m.content for m in conv.messages]


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


# --- Gemini Apps activity (Takeout) ------------------------------------------------------------


@pytest.fixture(scope="module")
def gemini_json() -> tuple[str, dict[str, Conversation], list]:
    return read(GEMINI / "MyActivity.json")


def test_gemini_groups_prompts_by_time_gaps_oldest_first(gemini_json) -> None:
    fmt, convs, skipped = gemini_json
    assert fmt == "gemini" and list(convs) == [SOURDOUGH, LISBON] and skipped == []
    sourdough = convs[SOURDOUGH]
    assert [m.role for m in sourdough.messages] == ["user", "assistant"] * 2
    assert sourdough.messages[0].content == (
        "My starter Clint is 5 days old and doubles in 6 hours. Is it ready to bake with?"
    )
    assert sourdough.created_at == utc(2025, 11, 13, 15, 25)
    assert sourdough.messages[2].timestamp == datetime(2025, 11, 13, 15, 50, 57, 320000, UTC)
    assert sourdough.metadata["grouped_by"] == "gaps over 30 minutes"


def test_gemini_reply_html_becomes_text_without_scripts_or_styles(gemini_json) -> None:
    lisbon = gemini_json[1][LISBON]
    packing = lisbon.messages[3].content
    assert packing.startswith("Lisbon in early March is mild but often rainy, so pack layers:\n\n")
    assert "- A light waterproof jacket\n- Comfortable shoes for the hills" in packing
    assert "trackRender" not in packing and "<" not in packing
    schedule = gemini_json[1][SOURDOUGH].messages[3].content
    assert "color:red" not in schedule
    # two reply items (a regenerated draft): both kept, each once
    assert schedule.startswith("Feed the starter at 8 pm")
    assert "Regenerated: mix at 7 am" in schedule


def test_gemini_keeps_only_prompts_and_never_other_products(gemini_json) -> None:
    everything = "\n".join(m.content for c in gemini_json[1].values() for m in c.messages)
    for absent in ("Searched for", "lisbon weather", "Watched", "Gave feedback", "preferred draft"):
        assert absent not in everything
    lisbon = gemini_json[1][LISBON]
    assert lisbon.messages[0].content == "I'm flying to Lisbon on March 3 with my sister Ana."
    assert lisbon.messages[-1].content == "thanks, that's all!"  # a prompt whose reply is missing
    assert lisbon.messages[-1].role == "user"


def test_gemini_html_page_gives_the_same_conversations_and_ids(gemini_json) -> None:
    fmt, convs, skipped = read(GEMINI / "MyActivity.html")
    assert fmt == "gemini" and skipped == []
    assert list(convs) == list(gemini_json[1])
    for conv_id, conv in convs.items():
        from_json = gemini_json[1][conv_id]
        assert [m.id for m in conv.messages] == [m.id for m in from_json.messages]
        assert texts(conv) == texts(from_json)
        # the page shows seconds in the account's zone (CST here, and a narrow no-break space)
        seconds = [m.timestamp and m.timestamp.replace(microsecond=0) for m in from_json.messages]
        assert [m.timestamp for m in conv.messages] == seconds


def test_a_takeout_file_without_gemini_imports_nothing_and_says_why(tmp_path: Path) -> None:
    source = open_source(str(GEMINI / "search-MyActivity.json"))
    assert source.format == "gemini"
    with pytest.raises(ImportFormatError) as err:
        list(source.conversations())
    assert str(err.value) == (
        f"{GEMINI / 'search-MyActivity.json'}: no conversations (no Gemini Apps activity, "
        "only 2 records of other products: Search)"
    )
    report = scan(open_source(str(GEMINI / "search-MyActivity.json")))
    assert report.conversations == 0 and "no Gemini Apps activity" in report.skipped[0].reason


def test_a_grown_takeout_adds_records_to_the_last_conversation_keeping_ids(
    tmp_path: Path, gemini_json
) -> None:
    records = json.loads((GEMINI / "MyActivity.json").read_text())
    older = tmp_path / "MyActivity.json"
    older.write_text(json.dumps(records[2:]))  # before the last two prompts
    before = read(older)[1]
    lisbon = [m.id for m in gemini_json[1][LISBON].messages]
    assert [m.id for m in before[LISBON].messages] == lisbon[:2]
    for conv_id, conv in before.items():
        grown = gemini_json[1][conv_id]
        assert [m.id for m in grown.messages][: len(conv.messages)] == [m.id for m in conv.messages]


def test_takeout_zip_reads_the_gemini_folder_once(tmp_path: Path, gemini_json) -> None:
    archive = tmp_path / "takeout-20251115T000000Z-001.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(GEMINI / "MyActivity.json", "Takeout/My Activity/Gemini Apps/MyActivity.json")
        zf.write(GEMINI / "MyActivity.html", "Takeout/My Activity/Gemini Apps/MyActivity.html")
        zf.write(GEMINI / "search-MyActivity.json", "Takeout/My Activity/Search/MyActivity.json")
        zf.writestr("Takeout/archive_browser.html", "<html>index</html>")
    fmt, convs, skipped = read(archive)
    assert fmt == "gemini" and list(convs) == list(gemini_json[1]) and skipped == []


WORKSPACE = GEMINI / "Gemini in Workspace" / "Conversation History" / "conversation_1775576272.txt"
OFFSITE = "gemini-workspace-2026-04-07T15:37:52.177503Z"


def test_gemini_in_workspace_conversation_file_is_read(tmp_path: Path) -> None:
    # Takeout's "Gemini in Workspace" (the Docs and Gmail side panel): JSON in a .txt file.
    fmt, convs, _ = read(WORKSPACE)
    conv = convs[OFFSITE]
    assert fmt == "gemini" and conv.title == "Summarise the offsite notes"
    assert [(m.id, m.role) for m in conv.messages] == [
        (f"{OFFSITE}:0", "user"), (f"{OFFSITE}:1", "assistant"),
        (f"{OFFSITE}:2", "user"), (f"{OFFSITE}:3", "assistant"),
    ]
    assert texts(conv)[1] == (
        "Here is a summary of the document:\n- Budget approved\n- Hiring two engineers\n"
        "- Launch in June"
    )
    assert conv.messages[3].timestamp == utc(2026, 4, 7, 15, 41, 3, 20000)


def test_takeout_zip_and_folder_read_gemini_in_workspace_beside_activity(
    tmp_path: Path, gemini_json
) -> None:
    member = "Takeout/Gemini in Workspace/Conversation History/conversation_1775576272.txt"
    archive = tmp_path / "takeout.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(GEMINI / "MyActivity.json", "Takeout/My Activity/Gemini Apps/MyActivity.json")
        zf.write(WORKSPACE, member)
    fmt, convs, _ = read(archive)
    assert fmt == "gemini" and list(convs) == [OFFSITE, *gemini_json[1]]
    folder = tmp_path / "Takeout"
    (folder / "Gemini in Workspace" / "Conversation History").mkdir(parents=True)
    shutil.copy(WORKSPACE, folder / member.removeprefix("Takeout/"))
    [path] = expand_paths([str(folder)])
    assert read(path)[0] == "gemini"


def test_a_folder_walk_finds_activity_pages_and_bare_ai_studio_files(tmp_path: Path) -> None:
    shutil.copy(GEMINI / "MyActivity.html", tmp_path / "MyActivity.html")
    shutil.copy(AI_STUDIO, tmp_path / "Sourdough coach")
    (tmp_path / "chat.html").write_text("<html><body>not activity</body></html>")
    (tmp_path / "notes").write_text("shopping list")
    names = [Path(p).name for p in expand_paths([str(tmp_path)])]
    assert names == ["MyActivity.html", "Sourdough coach"]


def test_ai_studio_prompts_named_with_a_dot_are_found_in_folders_and_zips(tmp_path: Path) -> None:
    # Drive names a prompt file after its title, which may hold a dot: "Gemini 2.5 notes".
    folder = tmp_path / "Drive" / "Google AI Studio"
    folder.mkdir(parents=True)
    shutil.copy(AI_STUDIO, folder / "Gemini 2.5 notes")
    (folder / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0")
    (folder / "budget v1.2").write_text("not a prompt")
    assert [Path(p).name for p in expand_paths([str(tmp_path)])] == ["Gemini 2.5 notes"]
    archive = tmp_path / "takeout.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.write(folder / "Gemini 2.5 notes", "Takeout/Drive/Google AI Studio/Gemini 2.5 notes")
        zipped.write(folder / "photo.jpg", "Takeout/Drive/Google AI Studio/photo.jpg")
    fmt, convs, _ = read(archive)
    assert fmt == "aistudio" and len(convs) == 1


def test_forcing_gemini_reads_html_and_refuses_other_text(tmp_path: Path) -> None:
    page = tmp_path / "activity.txt"
    shutil.copy(GEMINI / "MyActivity.html", page)
    assert read(page, format="takeout")[0] == "gemini"
    other = tmp_path / "other.md"
    other.write_text("## User\n\nhello\n")
    with pytest.raises(ImportFormatError, match="not Google Takeout activity"):
        open_source(str(other), format="gemini")


def test_takeout_page_time_with_a_zone_abbreviation() -> None:
    assert try_time("Nov 13, 2025, 9:50:57 AM CDT") == utc(2025, 11, 13, 14, 50, 57)
    assert try_time("Nov 13, 2025, 8:50:57 AM CST") == utc(2025, 11, 13, 14, 50, 57)


def test_html_to_text_keeps_paragraphs_lists_and_code() -> None:
    html = (
        "<h2>Plan</h2><p>Mix &amp; <em>rest</em>.</p><ul><li>one</li><li>two</li></ul>"
        "<pre><code>def f():\n    return 1</code></pre><script>x()</script><style>p{}</style>"
        "<table><tr><td>a</td><td>b</td></tr></table><p>end<br>line</p>"
    )
    assert html_to_text(html) == (
        "Plan\n\nMix & rest.\n\n- one\n- two\n\ndef f():\n    return 1\n\na b\n\nend\nline"
    )
    assert html_to_text("<p>unclosed <b>bold <script>never") == "unclosed bold"


# --- Google AI Studio ----------------------------------------------------------------------------


def test_ai_studio_keeps_user_and_model_chunks_but_not_thoughts(tmp_path: Path) -> None:
    os.utime(AI_STUDIO, (1_750_000_000, 1_750_000_000))
    fmt, convs, skipped = read(AI_STUDIO)
    [conv] = convs.values()
    assert fmt == "aistudio" and skipped == []
    assert conv.title == "Sourdough coach" and conv.metadata["model"] == "gemini-2.5-pro"
    assert texts(conv) == [
        "I keep a sourdough starter called Clint. What hydration should I use for my first loaf?",
        "Start at 70% hydration: it is easy to handle and still gives an open crumb.",
        "Here is my crumb. Is it too dense?",
        "A little dense. Let the bulk ferment run until the dough has grown by half.",
    ]
    everything = "\n".join(texts(conv))
    assert "Assessing" not in everything and "tight" not in everything
    assert "baking coach" not in everything  # the system instruction is not chat
    # no times in the file: the file's own time, and the metadata says so
    assert conv.created_at == datetime.fromtimestamp(1_750_000_000, UTC)
    assert conv.metadata["time"] == "file modification time"
    assert all(m.timestamp is None for m in conv.messages)


def test_ai_studio_prompt_that_grew_keeps_its_ids(tmp_path: Path) -> None:
    doc = json.loads(AI_STUDIO.read_text())
    older = tmp_path / "Sourdough coach"
    chunks = doc["chunkedPrompt"]["chunks"]
    doc["chunkedPrompt"]["chunks"] = chunks[:3]
    doc["chunkedPrompt"]["pendingInputs"] = [{"text": "Here is my crumb. Is it too dense?",
                                               "role": "user"}]
    older.write_text(json.dumps(doc))
    [before] = read(older)[1].values()
    assert before.messages[-1].content == "Here is my crumb. Is it too dense?"  # typed, unsent
    doc["chunkedPrompt"]["chunks"] = chunks[:3] + chunks[4:]  # sent (without the photo)
    doc["chunkedPrompt"]["pendingInputs"] = [{"text": "", "role": "user"}]
    older.write_text(json.dumps(doc))
    [after] = read(older)[1].values()
    assert after.id == before.id
    assert [m.id for m in after.messages][:3] == [m.id for m in before.messages]
    assert len(after.messages) == 4


def test_a_localized_takeout_page_is_read_too(tmp_path: Path) -> None:
    cell = (
        '<div class="outer-cell mdl-cell"><div class="mdl-grid">'
        '<div class="header-cell mdl-cell"><p class="mdl-typography--title">Gemini Apps<br></p>'
        '</div><div class="content-cell mdl-cell mdl-cell--6-col mdl-typography--body-1">'
        "Pokyn&nbsp;Kolik váží slon?<br>{when}<br><p>Asi šest tun.</p></div>"
        '<div class="content-cell mdl-cell mdl-typography--caption"><b>Služby:</b><br>'
        "&emsp;Gemini Apps<br></div></div></div>"
    )
    page = tmp_path / "MojeAktivita.html"
    body = cell.format(when="5. 12. 2025 10:00:00 SEČ")
    page.write_text(f"<html><body>{body}</body></html>")
    fmt, convs, skipped = read(page)
    [conv] = convs.values()
    assert fmt == "gemini" and skipped == []
    assert texts(conv) == ["Kolik váží slon?", "Asi šest tun."]
    assert conv.messages[0].timestamp == utc(2025, 12, 5, 10)  # day first; unknown zone: UTC
