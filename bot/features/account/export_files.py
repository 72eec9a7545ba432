"""/export as files a platform takes: the JSON as is (indented) when it fits the platform's upload limit,
else zipped, else split into zips that each fit, every one a complete JSON document holding part of the
records. Zipped JSON is compact (no indentation): json's C encoder is about ten times faster than its
indenting one, and a file that large is read with a tool, not by eye.

Packing runs in a worker thread (`asyncio.to_thread`): a large export takes seconds of CPU.
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from dataclasses import dataclass
from typing import Any

from bot.kernel.replies import Attachment

JSON_MIME, ZIP_MIME = "application/json", "application/zip"
LEVEL = 6  # deflate's default: level 1 is 2.7x faster but 25% larger, and fitting is the point
SAFETY = 0.9  # aim each part this far under the limit: compression varies from part to part
SAMPLE, SAMPLES = 256 * 1024, 4  # to estimate how well a large export compresses without zipping it all
MAX_TRIES = 8


@dataclass(frozen=True)
class Packed:
    files: list[Attachment]
    raw_bytes: int
    """The size of the whole export as one JSON file (compact, when it was zipped)."""


def dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8")


def compact(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _zip(name: str, blob: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=LEVEL) as archive:
        archive.writestr(name, blob)
    return out.getvalue()


def _ratio(blob: bytes) -> float:
    """Compressed size over raw size, from a few samples across `blob` (deflate looks back only 32 kB)."""
    step = max(len(blob) // SAMPLES, SAMPLE)
    chunks = [blob[i : i + SAMPLE] for i in range(0, len(blob), step)][:SAMPLES]
    return sum(len(zlib.compress(x, LEVEL)) for x in chunks) / sum(len(x) for x in chunks)


def pack(data: dict[str, Any], stem: str, limit: int | None, whole: tuple[str, ...] = ("identities",)) -> Packed:
    """`data`'s list-valued entries are the records that may be split, but those named in `whole`; the rest
    (the user, their identities) is repeated in every part, with `part` and `parts` saying which it is."""
    if limit is None:
        pretty = dumps(data)
        return Packed([Attachment(f"{stem}.json", pretty, JSON_MIME)], len(pretty))
    raw = compact(data)
    if len(raw) <= limit:  # indented, it may still be over
        pretty = dumps(data)
        if len(pretty) <= limit:
            return Packed([Attachment(f"{stem}.json", pretty, JSON_MIME)], len(pretty))
    zipped_bytes = len(raw) * _ratio(raw)
    if zipped_bytes <= limit / SAFETY:  # it may fit zipped: zip it to know
        zipped = _zip(f"{stem}.json", raw)
        if len(zipped) <= limit:
            return Packed([Attachment(f"{stem}.zip", zipped, ZIP_MIME)], len(raw))
        zipped_bytes = len(zipped)
    sections = [k for k, v in data.items() if isinstance(v, list) and k not in whole]
    return Packed(_split(data, sections, stem, limit, zipped_bytes / len(raw)), len(raw))


def _split(data: dict[str, Any], sections: list[str], stem: str, limit: int, ratio: float) -> list[Attachment]:
    head = {k: v for k, v in data.items() if k not in sections}
    records = [(k, r, len(compact(r)) + 1) for k in sections for r in data[k]]
    budget = limit * SAFETY / ratio  # JSON bytes per part
    for _ in range(MAX_TRIES):
        groups = _groups(records, budget)
        files = []
        for n, group in enumerate(groups, 1):
            part: dict[str, Any] = {**head, "part": n, "parts": len(groups)}
            part.update({k: [r for s, r, _ in group if s == k] for k in sections})
            name = f"{stem}-part{n}of{len(groups)}"
            files.append(Attachment(f"{name}.zip", _zip(f"{name}.json", compact(part)), ZIP_MIME))
        largest = max(len(f.data) for f in files)
        if largest <= limit or len(groups) == len(records):
            return files
        budget *= SAFETY * limit / largest
    return files


def _groups(records: list[tuple[str, Any, int]], budget: float) -> list[list[tuple[str, Any, int]]]:
    """Consecutive runs of records, each run's size within `budget` (a record larger than it is alone)."""
    groups: list[list[tuple[str, Any, int]]] = [[]]
    size = 0
    for record in records:
        if groups[-1] and size + record[2] > budget:
            groups.append([])
            size = 0
        groups[-1].append(record)
        size += record[2]
    return groups
