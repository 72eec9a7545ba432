"""The text of a file a user sends as a job description or interview notes: plain text or Markdown in
UTF-8 (or GB 18030, as Chinese Windows saves it), or a PDF's text layer read by pypdf. A scanned PDF has no
text layer: it is "empty", and the user is asked to paste the text."""

from __future__ import annotations

import io
import logging

from bot.kernel.ports import DocumentError

log = logging.getLogger(__name__)

TEXT_SUFFIXES = (".txt", ".md", ".markdown", ".text")
MAX_PDF_PAGES = 30


def read_document(data: bytes, filename: str) -> str:
    """The file's text, stripped; DocumentError("type" | "unreadable" | "empty") when there is none."""
    name = filename.lower()
    if name.endswith(".pdf") or data[:5] == b"%PDF-":
        text = _pdf_text(data)
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


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader  # imported on use: most processes never read a PDF
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise DocumentError("unreadable")
        pages = reader.pages[:MAX_PDF_PAGES]
        return "\n".join(page.extract_text() or "" for page in pages)
    except DocumentError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError, RecursionError) as exc:
        log.info("unreadable PDF (%d bytes): %s", len(data), type(exc).__name__)
        raise DocumentError("unreadable") from exc
