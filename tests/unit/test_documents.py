"""Files sent as job descriptions or interview notes: their text is read (UTF-8, GB 18030, a PDF's text
layer), and a file with no text (a wrong type, an image-only or broken PDF, binary junk) is a DocumentError
naming why, never a crash."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pytest

from bot.documents import read_document
from bot.kernel.ports import DocumentError


def pdf_with(text: str | None) -> bytes:
    """A real one-page PDF (matplotlib's PDF backend), with `text` in its text layer or no text at all."""
    fig = plt.figure(figsize=(4, 2))
    if text is not None:
        fig.text(0.05, 0.5, text)
    out = io.BytesIO()
    fig.savefig(out, format="pdf")
    plt.close(fig)
    return out.getvalue()


def test_plain_text_and_markdown_in_utf8_or_gb18030() -> None:
    zh = "岗位职责：负责大模型预训练与分布式训练（ZeRO、FSDP）"
    assert read_document(zh.encode("utf-8"), "jd.txt") == zh
    assert read_document(b"\xef\xbb\xbf" + b"# JD\nMixed precision", "JD.MD") == "# JD\nMixed precision"
    assert read_document(zh.encode("gb18030"), "jd.txt") == zh  # saved by Chinese Windows Notepad


def test_a_pdf_text_layer_is_read() -> None:
    text = read_document(pdf_with("Experience with FSDP and loss scaling"), "jd.pdf")
    assert "FSDP" in text and "loss scaling" in text


@pytest.mark.parametrize(
    ("data", "name", "reason"),
    [
        (b"\x89PNG\r\n\x1a\n....", "photo.png", "type"),
        (b"hello", "jd.docx", "type"),
        (b"   \n\t  ", "empty.txt", "empty"),
        (b"%PDF-1.4\n%garbage that is no PDF at all", "broken.pdf", "unreadable"),
        (b"\xff\xfe\x00\xd8\x00\xdc" * 3, "binary.txt", "unreadable"),
    ],
)
def test_a_file_without_text_says_why(data: bytes, name: str, reason: str) -> None:
    with pytest.raises(DocumentError) as err:
        read_document(data, name)
    assert err.value.reason == reason


def test_an_image_only_pdf_is_empty_not_unreadable() -> None:
    with pytest.raises(DocumentError) as err:
        read_document(pdf_with(None), "scan.pdf")
    assert err.value.reason == "empty"


def test_a_pdf_is_known_by_its_header_whatever_its_name() -> None:
    assert "FSDP" in read_document(pdf_with("FSDP"), "download")
