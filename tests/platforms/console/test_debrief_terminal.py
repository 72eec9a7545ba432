"""/debrief in the terminal: the notes pasted as a block between two lines of three double quotes, or sent
with `/file PATH`; the list printed with numbered buttons, and "log" typed to log it."""

from __future__ import annotations

import io
from pathlib import Path

from bot.documents import read_document
from bot.features.deps import Deps
from bot.kernel.service import Service
from bot.platforms.console.chat import run_console

NOTES = """Interviewer: How does ZeRO stage 3 partition optimizer states, gradients and parameters?
Me: Every rank keeps a shard of all three.
Interviewer: Your training loss suddenly becomes NaN. How do you debug it?
"""


async def chat(service: Service, script: str, tmp_path: Path) -> str:
    out = io.StringIO()
    await run_console(service, "local", io.StringIO(script), out, tmp_path / "exports")
    return out.getvalue()


async def test_a_pasted_block_is_listed_and_logged(service: Service, deps: Deps, tmp_path: Path) -> None:
    out = await chat(service, f'/debrief Acme\n"""\n{NOTES}"""\nlog\n', tmp_path)
    assert "Acme: I found 2 questions in your notes. Check the list:" in out
    assert "[#1] Drop 1  [#2] Drop 2  [#3] Log all  [#4] Cancel" in out  # typed text is awaited: buttons are #N
    assert "Logged 2 questions from Acme for review." in out
    uid = (await service.user_for("console", "local")).id
    assert [i.company for i in await deps.store.list_review_items(uid)] == ["Acme", "Acme"]


async def test_a_file_sent_with_the_file_command_is_the_notes(service: Service, deps: Deps, tmp_path: Path) -> None:
    deps.read_document = read_document
    notes = tmp_path / "notes.md"
    notes.write_text(NOTES, encoding="utf-8")
    out = await chat(service, f"/debrief Beta\n/file {notes}\n#2\n#2\n", tmp_path)  # drop 2, then Log all
    assert "Beta: I found 2 questions in your notes." in out
    assert "2. (dropped) Your training loss suddenly becomes NaN." in out
    assert "Logged 1 question from Beta for review." in out
    out = await chat(service, "/debrief Beta\n/file /no/such/file.txt\n", tmp_path)
    assert "No file I can read at /no/such/file.txt." in out
