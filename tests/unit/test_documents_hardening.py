"""Issue #34 High 4: a 15 kB PDF whose 30 pages share one Flate stream (3.5 MB of text operators) cost minutes of
CPU. Now a PDF is read page by page and stops at the character limit, inflated content is capped per page and in
total, and the bot reads a sent file in a worker process under a deadline, whose slot is held until the worker has
ended. The PDFs are built in the test (tests/pdf_builder.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.documents import read_document
from bot.grading.pooled import PooledWork
from bot.kernel import commands as c
from bot.kernel.bank import Bank
from bot.kernel.ports import DocumentError
from bot.kernel.service import Service
from bot.workers import ProcessPool
from tests.app import build_test_app
from tests.fakes import FakeClock, FakeGrader, FakeStore
from tests.pdf_builder import shared_stream_pdf, text_pdf
from tests.redos import budget


def test_the_shared_stream_pdf_is_15_kb_and_refused_at_once() -> None:
    bomb = shared_stream_pdf(pages=30, operators=100_000)  # the file: 3.5 MB of operators per page
    assert len(bomb) < 20_000
    with budget(3.0), pytest.raises(DocumentError) as err:  # 256 s of CPU on the old code
        read_document(bomb, "jd.pdf")
    assert err.value.reason == "unreadable"


def test_one_page_over_the_per_page_cap_is_refused() -> None:
    with budget(3.0), pytest.raises(DocumentError):
        read_document(shared_stream_pdf(pages=1, operators=10_000), "jd.pdf")  # 350 kB on one page


def test_pages_under_the_per_page_cap_stop_at_the_total_cap() -> None:
    """175 kB of operators on a page is fine alone; 30 pages sharing that stream pass 2 MB in all at page 12."""
    assert read_document(shared_stream_pdf(pages=1, operators=5_000), "jd.pdf", max_chars=100_000)
    with budget(10.0), pytest.raises(DocumentError):
        read_document(shared_stream_pdf(pages=30, operators=5_000), "jd.pdf", max_chars=10**9)


def test_reading_stops_at_the_page_that_passes_the_character_limit() -> None:
    pages = [f"page{n} " + "x" * 990 for n in range(30)]
    text = read_document(text_pdf(pages), "notes.pdf", max_chars=2_500)
    assert "page2 " in text and "page3 " not in text  # three pages pass 2,500 characters: the rest is not read
    assert len(read_document(text_pdf(pages), "notes.pdf", max_chars=100_000)) > 29_000


@pytest.fixture
async def documents() -> AsyncIterator[ProcessPool]:
    pool = ProcessPool(size=1, timeout=60)
    yield pool
    await pool.close()


async def test_a_file_is_read_in_a_worker_process_and_its_reason_comes_back(documents: ProcessPool) -> None:
    work = PooledWork(documents, Bank([]))
    assert await work.read_document(text_pdf(["FSDP and ZeRO-3"]), "jd.pdf", 20_000) == "FSDP and ZeRO-3"
    with pytest.raises(DocumentError) as err:
        await work.read_document(b"\x89PNG...", "photo.png", 20_000)
    assert err.value.reason == "type"


async def test_a_file_past_its_deadline_stops_its_worker_before_the_slot_is_free(documents: ProcessPool) -> None:
    """Eleven pages of 175 kB each are read before the total cap (a second or more of pypdf); with a 0.3 s
    deadline the worker is killed, and joined, before the pool takes work again."""
    work = PooledWork(documents, Bank([]), document_seconds=0.3)
    await documents.run("echo", 0)
    (worker,) = documents._workers
    slow = shared_stream_pdf(pages=30, operators=5_000)
    with pytest.raises(DocumentError) as err:
        await work.read_document(slow, "jd.pdf", 10**9)
    assert err.value.reason == "unreadable"
    assert not worker.process.is_alive() and documents._workers == set()
    assert (await documents.run("echo", 1))[1] == 1  # a new worker took the slot


async def test_the_career_router_reads_a_sent_file_in_the_pool(documents: ProcessPool) -> None:
    store = FakeStore()
    deps = build_test_app(
        Bank([]), grader=FakeGrader(), store=store, clock=FakeClock(), cpu=PooledWork(documents, Bank([]))
    ).deps
    service = Service(deps)
    uid = (await service.user_for("test", "u1", "en")).id
    (reply,) = await service.handle(c.UploadDocument(uid, shared_stream_pdf(30, 100_000), "jd.pdf"))
    assert reply.kind == "error" and reply.text == "I could not read that file. Paste the text instead."
    assert documents._workers  # it went through the pool
