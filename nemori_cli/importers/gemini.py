"""Google Takeout, Gemini Apps activity (MyActivity.json): prompts and replies, grouped by time."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from nemori_cli.importers import gemini_workspace
from nemori_cli.importers.base import Sink, Turn, dicts, first_str, items
from nemori_cli.importers.htmltext import html_to_text
from nemori_cli.importers.payload import JsonDoc, object_records
from nemori_cli.importers.timeparse import try_time
from nemori_cli.models import Conversation, to_iso

NAME = "gemini"
DESCRIPTION = "Google Takeout: Gemini Apps activity (MyActivity.json or .html), Workspace chats"
INPUT = "json"

# Takeout has no conversation ids: prompts less than this far apart are one conversation.
GAP = timedelta(minutes=30)
_PROMPTED = re.compile(r"^\s*Prompted[\s\u00a0]+", re.I)
# Localized exports write "<verb>&nbsp;<prompt>": a short first word ending in a no-break space.
_LOCAL_VERB = re.compile(r"^[^\s\u00a0]{1,30}\u00a0")
_GEMINI = ("gemini", "bard")


@dataclass(frozen=True)
class Activity:
    """One Takeout activity record: when, which product, what was asked and answered."""

    time: datetime | None
    product: str
    prompt: str
    reply: str
    prompted: bool  # the record is a prompt (not feedback, a draft choice, ...)
    gemini: bool  # the record is Gemini's, not another Google product's


def matches(doc: JsonDoc) -> bool:
    """Recognise Takeout activity records ({header, title, time}) or a Gemini in Workspace
    conversation file."""
    return gemini_workspace.matches(doc) or doc.kind != "lines" and any(
        isinstance(r, dict) and {"header", "title", "time"} <= r.keys() for r in doc.head
    )


def read(doc: JsonDoc, sink: Sink) -> Iterator[Conversation]:
    """Yield the Gemini prompts and replies as conversations; other products are passed over."""
    if gemini_workspace.matches(doc):
        return gemini_workspace.read(doc, sink)
    return conversations((_activity(r) for r in object_records(doc, sink, "activity")), sink)


def is_gemini(*products: str) -> bool:
    """Tell whether a record's product names are Gemini (or Bard, its former name)."""
    return any(word in p.lower() for p in products for word in _GEMINI)


def prompt_text(title: str) -> tuple[str, bool]:
    """Strip the "Prompted" verb from an activity title; say whether it was a prompt."""
    if _PROMPTED.match(title):
        return _PROMPTED.sub("", title, count=1), True
    if _LOCAL_VERB.match(title):
        return _LOCAL_VERB.sub("", title, count=1), True
    return title, False


def _activity(record: dict[str, Any]) -> Activity:
    header = first_str(record, "header") or ""
    products = [p for p in items(record.get("products")) if isinstance(p, str)]
    title = record.get("title")
    prompt, prompted = prompt_text(title if isinstance(title, str) else "")
    replies = (html_to_text(i["html"]) for i in dicts(items(record.get("safeHtmlItem")))
               if isinstance(i.get("html"), str))
    return Activity(
        time=try_time(record.get("time")),
        product=header or (products[0] if products else ""),
        prompt=prompt,
        reply=join_replies(replies),
        prompted=prompted,
        gemini=is_gemini(header, *products),
    )


def join_replies(replies: Iterable[str]) -> str:
    """Join a record's reply items (regenerated drafts, or parts), each distinct one once."""
    return "\n\n".join(dict.fromkeys(r for r in replies if r.strip()))


def conversations(activities: Iterable[Activity], sink: Sink) -> Iterator[Conversation]:
    """Group Gemini activity into conversations at gaps of more than GAP; oldest first."""
    gemini: list[Activity] = []
    others: dict[str, int] = {}
    undated = 0
    for act in activities:
        if not act.gemini:
            others[act.product or "unnamed"] = others.get(act.product or "unnamed", 0) + 1
        elif act.time is None:
            undated += 1
        elif act.prompted or act.reply.strip():
            gemini.append(act)
    if undated:
        sink.skip(None, f"{undated} Gemini record(s) without a readable time")
    if not gemini:
        sink.skip(None, _nothing(others))
        return
    gemini.sort(key=lambda a: a.time)  # type: ignore[arg-type, return-value]  # all dated
    group: list[Activity] = []
    for act in gemini:
        if group and act.time - group[-1].time > GAP:  # type: ignore[operator]
            if (conv := _conversation(group, sink)) is not None:
                yield conv
            group = []
        group.append(act)
    if (conv := _conversation(group, sink)) is not None:
        yield conv


def _nothing(others: dict[str, int]) -> str:
    if not others:
        return "no Gemini Apps activity in this file"
    names = ", ".join(sorted(others, key=lambda k: -others[k])[:4])
    count = sum(others.values())
    noun = "record" if count == 1 else "records"
    return f"no Gemini Apps activity, only {count} {noun} of other products: {names}"


def _conversation(group: list[Activity], sink: Sink) -> Conversation | None:
    """Build one conversation; ids come from record times (to the second), so they stay put.

    Seconds, because the HTML page shows no finer time: the JSON and the HTML of the same
    activity give the same ids.
    """
    conv_id = f"gemini-{_stamp(group[0].time)}"
    turns: list[Turn] = []
    for act in group:
        key = f"gemini-{_stamp(act.time)}"
        turns.append(Turn("user", act.prompt, None, act.time, f"{key}:prompt"))
        turns.append(Turn("assistant", act.reply, None, act.time, f"{key}:reply"))
    meta = {"format": NAME, "grouped_by": f"gaps over {int(GAP.total_seconds() // 60)} minutes"}
    return sink.build(conv_id, turns, created_at=group[0].time, metadata=meta)


def _stamp(when: datetime | None) -> str:
    return to_iso(when.replace(microsecond=0)) or "undated" if when else "undated"
