"""/apps through discord.py: the slash command with its `action` text, ephemeral in a server, the board's PNG
as a file, its buttons (open an application, move it), and the step-by-step add in direct messages."""

from __future__ import annotations

from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness
from tests.platforms.discord.test_commands import EPHEMERAL, deferred, followups


async def test_the_board_by_slash_command_stays_private_with_its_png_and_buttons(bot: Harness) -> None:
    requests = await bot.interact(p.command("apps", action="add ByteDance | LLM infra"))
    assert deferred(requests)
    (added,) = followups(requests)
    assert "Added #1 ByteDance at Applied" in added.content and added.flags == EPHEMERAL
    uid = await bot.user_id(1)
    (app,) = await bot.service.deps.store.list_applications(uid)
    assert f"drill:cr:apps:mv:{app.id}:screen:0" in added.custom_ids()
    moved = followups(await bot.interact(p.button(f"drill:cr:apps:mv:{app.id}:screen:0", p.message_from(added.json))))
    assert "moved to Screen" in moved[0].content
    await bot.interact(p.command("apps", action="1 一面"))
    sent = followups(await bot.interact(p.command("apps")))
    assert all(s.flags == EPHEMERAL for s in sent)
    text = "\n".join(s.content for s in sent)
    assert "Technical (1)" in text and "#1 ByteDance · LLM infra · Technical round 1" in text
    pngs = [blob for s in sent for name, blob in s.files.items() if name.startswith("apps-")]
    assert len(pngs) == 1 and pngs[0][:8] == b"\x89PNG\r\n\x1a\n"
    board = next(s for s in sent if f"drill:cr:apps:show:{app.id}" in s.custom_ids())
    opened = followups(await bot.interact(p.button(f"drill:cr:apps:show:{app.id}", p.message_from(board.json))))
    assert "Stages: Applied" in opened[0].content and "→ Technical round 1" in opened[0].content


async def test_another_members_application_is_not_found(bot: Harness) -> None:
    (added,) = followups(await bot.interact(p.command("apps", action="add Kimi")))
    (app,) = await bot.service.deps.store.list_applications(await bot.user_id(1))
    (other,) = followups(await bot.interact(p.command("apps", user_id=2, action="1")))
    assert "No such application" in other.content
    button = p.button(f"drill:cr:apps:mv:{app.id}:screen:0", p.message_from(added.json), user_id=2)
    pressed = followups(await bot.interact(button))  # the owner's message, pressed by another member
    assert "No such application" in pressed[0].content
    kept = await bot.service.deps.store.get_application(app.id)
    assert kept is not None and kept.stage == "applied"


async def test_the_step_by_step_add_in_direct_messages(bot: Harness) -> None:
    (asked,) = followups(await bot.interact(p.command("apps", guild_id=None, user_id=3, action="add")))
    assert asked.content == "Which company?" and asked.flags == 0

    async def dm(text: str) -> str:
        requests = await bot.message(p.dm_message(text, user_id=3))
        return "\n".join(r.content for r in requests if r.path.endswith("/messages"))

    assert "The role at DeepSeek?" in await dm("深度求索")
    assert "Any notes" in await dm("Pretraining")
    assert "Added #1 DeepSeek at Applied" in await dm("skip")
    (app,) = await bot.service.deps.store.list_applications(await bot.user_id(3))
    assert (app.company, app.role) == ("深度求索", "Pretraining")
