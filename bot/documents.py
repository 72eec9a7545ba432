"""The text of a file a user sends as a job description or interview notes: plain text or Markdown in
UTF-8 (or GB 18030, as Chinese Windows saves it), or a PDF's text layer read by pypdf. A scanned PDF has no
text layer: it is "empty", and the user is asked to paste the text.

A PDF is read page by page and reading stops once the text passes `max_chars` (the caller refuses it as too
long). A few kB of PDF can inflate to megabytes of content, and pypdf reads each page's content again even when
pages share one stream (issue #34: a 15 kB file cost minutes of CPU): a page whose content inflates past
`MAX_PAGE_CONTENT` bytes, or a file past `MAX_TOTAL_CONTENT` over its pages, is refused as unreadable before its
text is extracted, and no stream may inflate past `MAX_STREAM_BYTES`. The bot runs this in a worker process
under a deadline (`document` in bot/worker_tasks.py): whatever a file costs, the worker is stopped."""

from __future__ import annotations

import contextlib
import io
import logging

from bot.kernel.ports import DocumentError

log = logging.getLogger(__name__)

TEXT_SUFFIXES = (".txt", ".md", ".markdown", ".text")
MAX_PDF_PAGES = 30
MAX_CHARS = 20_000  # Limits.max_document_chars: text past it is refused, so reading stops there
MAX_PAGE_CONTENT = 256_000  # bytes of one page's inflated content (a dense page, glyph by glyph, is 50-150 kB)
MAX_TOTAL_CONTENT = 2_000_000  # ...and over all the pages read (about 1.5 s of pypdf on one core)
MAX_STREAM_BYTES = 8_000_000  # no one stream inflates past this (pypdf's own cap is 75 MB)


def read_document(data: bytes, filename: str, max_chars: int = MAX_CHARS) -> str:
    """The file's text, stripped; DocumentError("type" | "unreadable" | "empty") when there is none. A PDF's
    text stops after the page that passes `max_chars`."""
    name = filename.lower()
    if name.endswith(".pdf") or data[:5] == b"%PDF-":
        text = _pdf_text(data, max_chars)
    elif name.endswith(TEXT_SUFFIXES):
        text = _plain_text(data)
    else:
        raise DocumentError("type")
    text = text.replace("\x00", "").strip()
    if not text:
        raise DocumentError("empty")
    return text


def _plain_text(data: bytes) -> str:
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise DocumentError("unreadable")


def _pdf_text(data: bytes, max_chars: int) -> str:
    from pypdf.errors import PyPdfError

    try:
        with _stream_caps():
            return _pages_text(data, max_chars)
    except DocumentError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError, RecursionError) as exc:
        log.info("unreadable PDF (%d bytes): %s", len(data), type(exc).__name__)
        raise DocumentError("unreadable") from exc


def _stream_caps() -> contextlib.AbstractContextManager[object]:
    """pypdf's decompression caps lowered to MAX_STREAM_BYTES (pypdf 7's configuration; 6's module constants)."""
    try:
        from pypdf import apply_configuration  # type: ignore[attr-defined,unused-ignore]
    except ImportError:  # pragma: no cover - pypdf 6
        from pypdf import filters

        filters.ZLIB_MAX_OUTPUT_LENGTH = min(filters.ZLIB_MAX_OUTPUT_LENGTH, MAX_STREAM_BYTES)
        return contextlib.nullcontext()
    caps = ("zlib", "lzw", "run_length", "jbig2", "brotli", "array_based_stream")
    return apply_configuration(**{f"{name}_maximum_output_length": MAX_STREAM_BYTES for name in caps})  # type: ignore[no-any-return,unused-ignore]


def _pages_text(data: bytes, max_chars: int) -> str:
    from pypdf import PdfReader  # imported on use: most processes never read a PDF

    reader = PdfReader(io.BytesIO(data))
    if reader.is_encrypted:
        raise DocumentError("unreadable")
    texts: list[str] = []
    chars = inflated = 0
    for page in reader.pages[:MAX_PDF_PAGES]:
        contents = page.get_contents()
        size = len(contents.get_data()) if contents is not None else 0
        inflated += size
        if size > MAX_PAGE_CONTENT or inflated > MAX_TOTAL_CONTENT:
            log.info("PDF refused: %d bytes of page content (%d in all so far)", size, inflated)
            raise DocumentError("unreadable")
        texts.append(page.extract_text() or "")
        chars += len(texts[-1]) + 1
        if chars > max_chars:  # too long already: the caller refuses it, so the rest is not read
            break
    return "\n".join(texts)
