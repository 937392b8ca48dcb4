"""`nemori doctor`: check every user's files and indexes, and (with repair) fix what is wrong."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nemori_cli.models import Episode, Fact
from nemori_cli.ops.doctor_files import (
    FILES,
    check_references,
    file_problems,
    read_file,
    reference_problems,
    repair_file,
)
from nemori_cli.ops.doctor_indexes import check_all, repair_drift
from nemori_cli.ops.doctor_torn import restore_lost
from nemori_cli.ops.heal import damaged_stores, move_aside_damaged
from nemori_cli.parts import Parts
from nemori_cli.store.broken import BROKEN, kept_aside
from nemori_cli.store.files import DIR_MODE, FILE_MODE
from nemori_cli.store.users import list_users


@dataclass
class UserReport:
    """What doctor found for one user (or "*" for the data dir as a whole)."""

    user: str
    problems: list[dict[str, str]] = field(default_factory=list)  # {"check", "detail"}
    repaired: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, check: str, details: list[str]) -> None:
        self.problems.extend({"check": check, "detail": d} for d in details)

    def to_dict(self) -> dict[str, Any]:
        return {
            "user": self.user,
            "ok": not self.problems,
            "problems": self.problems,
            "repaired": self.repaired,
            "notes": self.notes,
        }


def check_files(parts: Parts, user: str, report: UserReport, *, repair: bool) -> bool:
    """JSON validity and unique ids of each JSONL file; with repair, rewrite the bad ones.

    Return whether the files can be read as records (no bad lines left).
    """
    folder = parts.repo(user).folder
    readable = True
    for name in FILES:
        parsed = read_file(folder, name)
        found = file_problems(parsed)
        if found and repair:
            report.repaired.extend(repair_file(parsed, parts.settings.lock_timeout))
            report.repaired.extend(restore_lost(parsed, parts.settings.lock_timeout))
            parsed = read_file(folder, name)
            found = file_problems(parsed)
        readable = readable and not parsed.bad_lines
        report.add("files", found)
    return readable


def check_refs(parts: Parts, user: str, report: UserReport, *, repair: bool) -> None:
    """Facts whose source episodes (or superseding fact) are gone; with repair, fix them."""
    repo = parts.repo(user)
    refs = check_references(repo.episodes.all(), repo.facts.all())
    if refs.any and repair:
        with parts.writing(user) as w:
            w.facts.delete(refs.orphans)
            w.facts.upsert([*refs.trimmed, *refs.unsuperseded])
        report.repaired.append(
            f"deleted {len(refs.orphans)} orphan fact(s), dropped dangling references "
            f"from {len(refs.trimmed) + len(refs.unsuperseded)} fact(s)"
        )
        refs = check_references(repo.episodes.all(), repo.facts.all())
    report.add("references", reference_problems(refs))


def check_indexes(
    parts: Parts, user: str, report: UserReport, *, repair: bool, leftovers: list[Path]
) -> None:
    """Drift between the JSONL and each index; with repair, reindex what drifted."""
    repo = parts.repo(user)
    if leftovers:
        report.notes.append(
            "the indexes are marked for repair (an interrupted write, or damage a search found): "
            "`nemori doctor --repair` repairs them, and so does re-running an interrupted "
            "`nemori ingest` (which also imports the rest) or `nemori reindex`"
        )
    if repair:
        report.repaired.extend(move_aside_damaged(parts, user))
    else:
        damaged = damaged_stores(parts, user)
        report.add("indexes", [f"{p.relative_to(parts.data_dir)}: {why}" for p, why in damaged])
        if damaged:
            report.notes.append("the other index checks wait until the damaged ones are rebuilt")
            return
    # After a crash or a repair of the files, a record's text may have changed under its id.
    rebuild = bool(leftovers or report.repaired)
    drifts = check_all(parts, user)
    if repair and (rebuild or any(d.any for d in drifts)):
        tables: dict[str, dict[str, Episode] | dict[str, Fact]] = {
            "episode": repo.episodes.all(),
            "fact": repo.facts.all(),
        }
        with parts.writing(user):
            for d in drifts:
                report.repaired.extend(
                    repair_drift(parts, user, d, tables[d.kind], rebuild=rebuild)
                )
        drifts = check_all(parts, user)
    if repair:
        with parts.writing(user):
            parts.vectors(user).settle()
    if repair and any(d.any for d in drifts):
        parts.marker(user).abandon()  # not repaired: the next reader tries again
    elif repair:
        for path in leftovers:
            path.unlink(missing_ok=True)
    for d in drifts:
        report.add("indexes", d.problems())


def check_pending(parts: Parts, user: str, report: UserReport) -> None:
    """Note episodes whose facts are still to be extracted (not a fault: backfill does it)."""
    waiting = sum(
        1
        for e in parts.repo(user).episodes.all().values()
        if e.extraction.get("status") in ("pending", "failed")
    )
    if waiting:
        report.notes.append(f"{waiting} episode(s) wait for fact extraction: run `nemori backfill`")


def check_leftovers(parts: Parts, user: str, report: UserReport, *, repair: bool) -> None:
    """Temporary files and folders left by interrupted writes."""
    found = list(parts.repo(user).folder.glob("*.tmp"))
    bm25 = parts.data_dir / "bm25" / user
    if bm25.is_dir():
        for entry in bm25.iterdir():
            live = entry.with_name(entry.name.removesuffix(".old"))
            if ".tmp-" in entry.name or (entry.name.endswith(".old") and live.is_dir()):
                found.append(entry)
    if found and repair:
        for path in found:
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
        report.repaired.append(f"removed {len(found)} leftover temporary file(s)")
        return
    if found:
        report.add("leftovers", [f"{len(found)} leftover temporary file(s), e.g. {found[0]}"])


def check_stray_indexes(parts: Parts, report: UserReport, *, repair: bool) -> None:
    """Lexical indexes and flat vector copies of users that have no files any more."""
    known = set(list_users(parts.data_dir))
    stray = sorted(
        p
        for root in (parts.data_dir / "bm25", parts.data_dir / "flat")
        if root.is_dir()
        for p in root.iterdir()
        if p.is_dir() and p.name not in known and BROKEN not in p.name
    )
    if stray and repair:
        for path in stray:
            shutil.rmtree(path, ignore_errors=True)
        report.repaired.append(f"removed the indexes of {len(stray)} unknown user folder(s)")
    elif stray:
        report.add("indexes", [f"indexes of unknown user(s): {stray[0]}"])


def check_permissions(data_dir: Path, report: UserReport, *, repair: bool) -> None:
    """Everything under the data dir must be private to the owner (0700 folders, 0600 files)."""
    if not data_dir.exists():
        return
    loose: list[Path] = []
    for folder, _dirs, files in os.walk(data_dir):
        for path in [Path(folder), *(Path(folder) / f for f in files)]:
            with contextlib.suppress(FileNotFoundError):
                st = path.lstat()
                if not stat.S_ISLNK(st.st_mode) and st.st_mode & 0o077:
                    loose.append(path)
    if loose and repair:
        for path in loose:
            with contextlib.suppress(FileNotFoundError):
                os.chmod(path, DIR_MODE if path.is_dir() else FILE_MODE)
        report.repaired.append(f"made {len(loose)} file(s) and folder(s) private to the owner")
        return
    if loose:
        report.add(
            "permissions",
            [f"{len(loose)} file(s) or folder(s) readable by others, e.g. {loose[0]}"],
        )


def check_user(parts: Parts, user: str, *, repair: bool = False) -> UserReport:
    """Run every check on one user, repairing as it goes when asked."""
    report = UserReport(user)
    repo = parts.repo(user)
    # no ingest changes the files while we look; the indexes are marked dirty from the first
    # repair until the end
    with repo.files.lock, parts.changing(user):
        leftovers = parts.marker(user).leftovers()
        if parts.marker(user).active():
            report.notes.append("another nemori process is writing this user's store right now")
        readable = check_files(parts, user, report, repair=repair)
        check_leftovers(parts, user, report, repair=repair)
        if not readable:
            report.notes.append("references and indexes not checked until the files are fixed")
            return report
        check_refs(parts, user, report, repair=repair)
        check_indexes(parts, user, report, repair=repair, leftovers=leftovers)
        check_pending(parts, user, report)
    return report


def doctor(
    parts: Parts, *, repair: bool = False, users: Sequence[str] | None = None
) -> list[UserReport]:
    """Check (and with repair, fix) these users (all by default), then the data dir."""
    chosen = [parts.user_id(u) for u in users or ()] or list_users(parts.data_dir)
    reports = [check_user(parts, u, repair=repair) for u in chosen]
    overall = UserReport("*")
    check_stray_indexes(parts, overall, repair=repair)
    kept = kept_aside(parts.data_dir)
    if kept:
        overall.notes.append(
            f"{len(kept)} damaged index file(s) kept aside (e.g. {kept[0]}): "
            "delete them when you no longer need them"
        )
    check_permissions(parts.data_dir, overall, repair=repair)
    if overall.problems or overall.repaired or overall.notes:
        reports.append(overall)
    return reports
