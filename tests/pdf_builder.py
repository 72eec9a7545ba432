"""PDFs built in the tests (and bench/hardening.py), byte by byte: no PDF writer library, so the file is exactly
what the test means it to be. `shared_stream_pdf` is the "one big Flate stream behind every page" file of issue
#34 (High 4): a few kB on the wire that inflates to megabytes of text operators, once for each page."""

from __future__ import annotations

import zlib


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF of the given objects (object i+1 is objects[i]; object 1 the catalog), with its xref table."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _stream(content: bytes, compress: bool) -> bytes:
    data = zlib.compress(content, 9) if compress else content
    head = b"<< /Length %d /Filter /FlateDecode >>" % len(data) if compress else b"<< /Length %d >>" % len(data)
    return head + b"\nstream\n" + data + b"\nendstream"


def text_pdf(pages: list[str]) -> bytes:
    """A plain PDF with one line of (ASCII) text per page, each page its own content stream."""
    n = len(pages)
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    kids = []
    for text in pages:
        escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("latin-1")
        objects.append(_stream(b"BT /F1 12 Tf 72 720 Td (" + escaped + b") Tj ET", compress=False))
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>"
            % (len(objects))
        )
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) + b"] /Count %d >>" % n
    return _pdf(objects)


def shared_stream_pdf(pages: int = 30, operators: int = 100_000, text: bytes = b"x") -> bytes:
    """`pages` pages whose /Contents are all the same Flate stream: `operators` text-showing operators
    (`(x) Tj`, about 35 bytes each: 100,000 of them inflate to 3.5 MB) that compress to a few kB."""
    line = b"BT /F1 12 Tf 72 720 Td (" + text + b") Tj ET\n"
    content = line * operators
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        _stream(content, compress=True),
    ]
    kids = []
    for _ in range(pages):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"
        )
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) + b"] /Count %d >>" % pages
    return _pdf(objects)
