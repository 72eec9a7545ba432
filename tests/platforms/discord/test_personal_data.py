"""Personal data through discord.py on an SQLite file (issue #16): the caps on /review and /interview say
so privately, and an /export over the upload limit arrives as zips that each fit."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import zipfile

from tests.fakes import FakeClock
from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness
from tests.platforms.discord.fake_discord import Recorded

EPHEMERAL = 64


def followups(requests: list[Recorded]) -> list[Recorded]:
    return [r for r in requests if "/webhooks/" in r.path]


async def test_review_and_interview_caps_reply_privately_and_keep_nothing(bot: Harness) -> None:
    deps = bot.service.deps
    deps.limits = dataclasses.replace(deps.limits, max_reviews_per_day=2, max_interviews_per_day=1)
    for n in range(2):
        (ok,) = followups(await bot.interact(p.command("review", company="Acme", question=f"What is ZeRO-{n}?")))
        assert "Logged for Acme" in ok.content
    (refused,) = followups(await bot.interact(p.command("review", company="Acme", question="What is ZeRO-3?")))
    assert "2 interview questions today" in refused.content and refused.flags == EPHEMERAL
    (ok,) = followups(await bot.interact(p.command("interview", company="Acme", when="2026-12-03 14:00")))
    assert "Interview logged" in ok.content
    (refused,) = followups(await bot.interact(p.command("interview", company="Beta", when="2026-12-04 14:00")))
    assert "1 interview today" in refused.content and refused.flags == EPHEMERAL
    uid = await bot.user_id(1)
    assert len(await deps.store.list_review_items(uid)) == 2 and len(await deps.store.list_interviews(uid)) == 1


async def test_an_export_over_the_upload_limit_arrives_in_zips_that_each_fit(bot: Harness, clock: FakeClock) -> None:
    """issue #16: 3,000 /review entries made a 27 MB /export, over Discord's upload limit (here scaled down)."""
    deps = bot.service.deps
    rng = random.Random(16)
    deps.limits = dataclasses.replace(deps.limits, max_reviews_per_day=100)
    for n in range(40):
        answer = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(3000))  # barely compressible
        await bot.interact(p.command("review", company=f"Co{n}", question=f"Question number {n}?", answer=answer))
        clock.advance(seconds=5)  # within the per-user rate limit
    (whole, _answers) = followups(await bot.interact(p.command("export")))
    ((_, blob),) = whole.files.items()
    full = json.loads(blob)
    assert len(full["review_items"]) == 40
    limit = len(blob) // 5  # zip takes it to about a half: three parts or more
    deps.limits = dataclasses.replace(deps.limits, upload_limits={"discord": limit})
    *sent, answers = followups(await bot.interact(p.command("export")))
    assert len(sent) >= 3 and all(m.flags == EPHEMERAL for m in [*sent, answers])
    ((md_name, markdown),) = answers.files.items()  # no answers, so a short file: it fits as it is
    assert md_name.endswith(".md") and len(markdown) <= limit
    parts = []
    for message in sent:
        ((name, data),) = message.files.items()
        assert name.endswith(".zip") and len(data) <= limit
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            parts.append(json.loads(archive.read(archive.namelist()[0])))
    assert "zip files" in sent[0].content and f"part 2 of {len(sent)}" in sent[1].content
    assert [x for part in parts for x in part["review_items"]] == full["review_items"]
    assert [x for part in parts for x in part["personal_questions"]] == full["personal_questions"]
