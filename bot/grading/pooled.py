"""The offline grader and /review's matcher behind the CPU worker pool (bot/workers.py): what the kernel calls stays
an async port (Grader, CpuWork), and the work runs in a worker process (or thread), never on the event loop."""

from __future__ import annotations

import logging
from typing import Any

from bot.kernel.bank import Bank
from bot.kernel.models import Grade, Lang, Level, Question
from bot.kernel.ports import DocumentError

log = logging.getLogger(__name__)

DOCUMENT_SECONDS = 10.0  # reading one sent file; past it the worker process is stopped


class PooledWork:
    """`CpuWork` (bot/kernel/ports.py) over a pool whose tasks are named in bot/worker_tasks.py. Sent files are
    read in `documents` (a process pool: a thread could not be stopped), by default the same pool."""

    def __init__(self, pool: Any, bank: Bank, documents: Any = None, document_seconds: float = DOCUMENT_SECONDS):
        self.pool = pool
        self.bank = bank
        self.documents = documents or pool
        self.document_seconds = document_seconds

    async def grade_offline(self, question: Question, answer: str, lang: Lang, level: Level) -> Grade:
        grade: Grade = await self.pool.run("grade", question, answer, lang, level)
        return grade

    async def candidates(self, text: str, limit: int) -> list[tuple[Question, float]]:
        found: list[tuple[str, float]] = await self.pool.run("candidates", text, limit)
        return [(q, score) for qid, score in found if (q := self.bank.get(qid)) is not None]

    async def read_document(self, data: bytes, filename: str, max_chars: int) -> str:
        try:
            ok, value = await self.documents.run("document", data, filename, max_chars, timeout=self.document_seconds)
        except Exception as exc:  # WorkerTimeout, WorkerFailed (bot/workers.py): the worker has been stopped
            log.warning("a sent file (%d bytes) was not read: %s", len(data), type(exc).__name__)
            raise DocumentError("unreadable") from None
        if not ok:
            raise DocumentError(str(value))
        return str(value)


class PooledGrader:
    """The offline estimate as a Grader whose work runs in the pool."""

    id = "offline"

    def __init__(self, work: PooledWork) -> None:
        self.work = work

    async def grade(self, question: Question, answer: str, lang: Lang, level: Level = "engineer") -> Grade:
        return await self.work.grade_offline(question, answer, lang, level)


def thread_tasks(grader: Any, bank: Bank) -> dict[str, Any]:
    """The pool's tasks over this process's own grader and bank (an injected bank, tests): for a ThreadPool."""

    def warm() -> None:
        grader.weights  # noqa: B018 - the bank's term weights
        if grader.embedder is not None:
            grader.embedder.warm()

    return {
        "grade": grader.grade_sync,
        "candidates": lambda text, limit: [(q.id, score) for q, score in bank.candidates(text, limit)],
        "warm": warm,
    }
