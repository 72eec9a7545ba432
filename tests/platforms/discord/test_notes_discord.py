"""/notes through discord.py: "Save to notebook" pressed on a grade, the /notes slash command with and without
its question option (ephemeral in a server), a tag typed in DMs, and the Markdown export as a file."""

from __future__ import annotations

from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness
from tests.platforms.discord.test_commands import EPHEMERAL, deferred, followups


async def test_save_from_a_grade_then_notes_in_a_server_stays_private(bot: Harness) -> None:
    empty = followups(await bot.interact(p.command("notes")))
    assert "Your notebook is empty" in empty[0].content and empty[0].flags == EPHEMERAL
    await bot.interact(p.command("drill"))
    (grade,) = followups(
        await bot.interact(p.command("answer", text="First I check the data, then the gradient norm."))
    )
    uid = await bot.user_id(1)
    (attempt,) = await bot.service.deps.store.list_attempts(uid)
    assert f"drill:cr:notes:save:{attempt.id}" in grade.custom_ids()
    pressed = followups(await bot.interact(p.button(f"drill:cr:notes:save:{attempt.id}", p.message_from(grade.json))))
    assert any('Saved as version 1 of "Question pipe-q-000?" (70/100)' in s.content for s in pressed)
    (note,) = await bot.service.deps.store.list_notes(uid)
    requests = await bot.interact(p.command("notes", question="1"))
    assert deferred(requests)
    (page,) = followups(requests)
    assert "Your versions of: Question pipe-q-000?" in page.content and "v1 · " in page.content
    assert page.flags == EPHEMERAL and f"drill:cr:notes:open:{note.id}" in page.custom_ids()


async def test_tag_typed_in_direct_messages_and_export_as_a_file(bot: Harness) -> None:
    await bot.message(p.dm_message("/drill", user_id=3))
    await bot.message(p.dm_message("Gradient norms first, then the data.", user_id=3))
    uid = await bot.user_id(3)
    (attempt,) = await bot.service.deps.store.list_attempts(uid)
    await bot.service.handle_action(uid, f"cr:notes:save:{attempt.id}")
    (note,) = await bot.service.deps.store.list_notes(uid)
    await bot.service.handle_action(uid, f"cr:notes:tag:{note.id}")
    requests = await bot.message(p.dm_message("Moonshot", user_id=3))
    sent = [r for r in requests if r.path.endswith("/messages")]
    assert sent[0].content == "Version 1 is tagged for Moonshot AI."
    export = followups(await bot.interact(p.command("notes", user_id=3, guild_id=None, question="export")))
    files = [(name, blob) for s in export for name, blob in s.files.items()]
    assert len(files) == 1 and files[0][0].endswith(".md") and b"for Moonshot AI" in files[0][1]
