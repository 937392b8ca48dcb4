"""Multi-part downloads (Claude): a manifest-*.json that names the zip files of one export."""

from __future__ import annotations

import contextlib
import os
import posixpath
import re
from typing import Any
from urllib.parse import urlsplit

import orjson

from nemori_cli.errors import ImportFormatError

_NAME = re.compile(r"^manifest.*\.json$", re.IGNORECASE)
_MAX_SIZE = 4 * 1024 * 1024  # a list of file names; anything larger is not a manifest


def listed_zips(path: str) -> list[str] | None:
    """Return the zip files a manifest names, beside it; None when the file is not a manifest.

    The manifest's layout is not documented, so every string in it that names a .zip file (a
    bare name, a relative path or a download URL) counts. A listed zip that is missing is an
    error: importing the rest would silently leave part of the export out.
    """
    if not _NAME.match(os.path.basename(path)):
        return None
    try:
        if os.path.getsize(path) > _MAX_SIZE:
            return None
        with open(path, "rb") as fh:
            doc = orjson.loads(fh.read())
    except (OSError, orjson.JSONDecodeError):
        return None
    names = list(dict.fromkeys(_zip_names(doc)))
    if not names:
        return None
    folder = os.path.dirname(path)
    zips = [os.path.join(folder, name) for name in names]
    missing = [os.path.basename(z) for z in zips if not os.path.isfile(z)]
    if missing:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise ImportFormatError(
            f"{path}: lists {missing[0]}{more}, which is not beside it; download every part of "
            "the export into one folder, or import the zip files themselves"
        )
    return zips


def _zip_names(value: Any, depth: int = 0) -> list[str]:
    if depth > 50:
        return []
    if isinstance(value, str):
        with contextlib.suppress(ValueError):  # not a URL: a name or a path
            value = urlsplit(value).path
        name = posixpath.basename(value.replace("\\", "/").rstrip("/"))
        return [name] if name.lower().endswith(".zip") and name != ".zip" else []
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [n for v in value for n in _zip_names(v, depth + 1)]
    return []
