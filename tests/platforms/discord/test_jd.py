"""/jd through discord.py: a job description attached as a file or typed as the text option, read and
answered privately (ephemeral in a server), its focus buttons routed back, an oversized file refused
without downloading it."""

from __future__ import annotations

import pytest

from bot.kernel.bank import Bank
from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness
from tests.platforms.discord.fake_discord import FakeDiscord
from tests.platforms.discord.test_commands import EPHEMERAL, deferred, followups
from tests.unit.test_jd_flows import EN_JD, jd_bank


@pytest.fixture
def bank() -> Bank:
    return jd_bank()


def file_option(fake: FakeDiscord, data: bytes, size: int | None = None) -> dict[str, object]:
    fake.cdn["jd.txt"] = data
    att = p.attachment(556, fake.cdn_url("jd.txt"), "jd.txt", size or len(data), "text/plain")
    return {"file": (11, "556"), "resolved": {"attachments": {"556": att}}}


async def test_an_attached_job_description_is_read_privately_and_its_focus_chosen(
    bot: Harness, fake: FakeDiscord
) -> None:
    requests = await bot.interact(p.command("jd", **file_option(fake, EN_JD.encode())))  # type: ignore[arg-type]
    assert deferred(requests)
    (reading,) = followups(requests)
    assert reading.flags == EPHEMERAL and reading.content.startswith("Senior ML Engineer, Distributed Training")
    assert "- Parallelism: not practised yet" in reading.content and "Kubernetes" in reading.content
    uid = await bot.user_id(1)
    (jd,) = await bot.service.deps.store.list_jds(uid)
    assert reading.custom_ids() == [f"drill:cr:jd:on:{jd.id}:{d}" for d in (7, 14, 30)]
    pressed = followups(await bot.interact(p.button(f"drill:cr:jd:on:{jd.id}:30", p.message_from(reading.json))))
    assert any("Focus set on" in s.content for s in pressed)
    now = bot.service.deps.clock.now()
    active = await bot.service.deps.store.active_jd(uid, now)
    assert active is not None and active.id == jd.id


async def test_the_text_option_takes_a_job_description_or_a_command(bot: Harness) -> None:
    (reading,) = followups(await bot.interact(p.command("jd", text="Our team trains with FSDP and BF16 on H100s")))
    assert "- Parallelism" in reading.content and "- Mixed precision" in reading.content
    (listing,) = followups(await bot.interact(p.command("jd", text="list")))
    assert "1. Our team trains with FSDP and BF16 on H100s" in listing.content
    (asked,) = followups(await bot.interact(p.command("jd")))
    assert "Paste a job description" in asked.content and asked.custom_ids() == ["drill:cr:jd:cancel"]


async def test_an_oversized_file_is_refused_without_downloading_it(bot: Harness, fake: FakeDiscord) -> None:
    option = file_option(fake, b"FSDP", size=3_000_000)
    requests = await bot.interact(p.command("jd", **option))  # type: ignore[arg-type]
    assert any("3.0 MB; I take files up to 2 MB" in s.content for s in followups(requests))
    assert not [r for r in requests if r.path.startswith("/cdn/")]
    assert await bot.service.deps.store.list_jds(await bot.user_id(1)) == []
