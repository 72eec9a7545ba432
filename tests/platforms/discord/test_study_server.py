"""A study server end to end: /setup, the daily post with its Answer button, the modal, the private
grade, the leaderboard, and buttons that still work after the bot restarts."""

from __future__ import annotations

from typing import Any

from bot.features.study_server.study_server import daily_post
from bot.kernel.ports import Delivery
from bot.platforms.discord.views import submitted_answer
from tests.fakes import FakeClock, FakeGrader, FakeRubricWriter
from tests.platforms.discord import payloads as p
from tests.platforms.discord.conftest import Harness, Start
from tests.platforms.discord.fake_discord import FakeDiscord, Recorded

DAILY_CHANNEL = 720
EPHEMERAL = 64


def followups(requests: list[Recorded]) -> list[Recorded]:
    return [r for r in requests if "/webhooks/" in r.path]


async def setup(bot: Harness, manager: bool = True, **options: Any) -> list[Recorded]:
    option, resolved = p.channel_option(DAILY_CHANNEL)
    permissions = p.MEMBER_PERMISSIONS | (p.MANAGE_GUILD if manager else 0)
    cmd = p.command("setup", user_id=1, permissions=permissions, resolved=resolved, channel=option, **options)
    return await bot.interact(cmd)


async def test_setup_is_refused_to_a_member_without_manage_server(bot: Harness) -> None:
    requests = await setup(bot, manager=False, time="20:00", timezone="Asia/Shanghai")
    (reply,) = followups(requests)
    assert "Manage Server" in reply.content and reply.flags == EPHEMERAL
    assert await bot.service.deps.store.get_guild("700") is None


async def test_setup_by_a_manager_saves_the_channel_time_and_timezone(bot: Harness) -> None:
    requests = await setup(bot, time="20:00", timezone="Asia/Shanghai", language="zh")
    (reply,) = followups(requests)
    assert f"<#{DAILY_CHANNEL}>" in reply.content and "20:00 (Asia/Shanghai)" in reply.content
    guild = await bot.service.deps.store.get_guild("700")
    assert guild is not None and (guild.channel_id, guild.daily_time, guild.timezone, guild.language) == (
        str(DAILY_CHANNEL),
        "20:00",
        "Asia/Shanghai",
        "zh",
    )


async def post_daily_question(bot: Harness, fake: FakeDiscord) -> Recorded:
    """What the scheduler does at the server's time: build the post, send it to the channel."""
    guild = await bot.service.deps.store.get_guild("700")
    assert guild is not None
    post = daily_post(guild, bot.service.deps.clock.now(), bot.service.deps.bank)
    assert post is not None
    assert await bot.runtime.notifier.post_channel(guild.channel_id, [post]) is Delivery.DELIVERED
    return fake.to(f"/channels/{DAILY_CHANNEL}/messages")[-1]


def as_message(sent: Recorded, channel_id: int = DAILY_CHANNEL) -> dict[str, Any]:
    """The posted message as Discord includes it in a button press."""
    return p.message_from(sent.json, channel_id)


async def press_answer_and_submit(bot: Harness, posted: Recorded, text: str, user_id: int) -> list[Recorded]:
    (answer_id,) = posted.custom_ids()
    requests = await bot.interact(p.button(answer_id, as_message(posted), user_id=user_id))
    (callback,) = requests
    assert callback.json["type"] == 9  # a modal, not a message
    return await bot.interact(p.modal_submit(callback.json["data"], [text], user_id=user_id))


async def test_the_daily_question_is_answered_in_a_modal_and_graded_privately(bot: Harness, fake: FakeDiscord) -> None:
    await setup(bot, time="20:00", timezone="UTC")
    posted = await post_daily_question(bot, fake)
    assert "Question of the day" in posted.content and posted.flags == 0
    (answer_id,) = posted.custom_ids()
    assert answer_id.startswith("drill:answer:")
    requests = await bot.interact(p.button(answer_id, as_message(posted), user_id=2, locale="zh-CN"))
    modal = requests[0].json["data"]
    assert modal["title"] == "你的回答"  # the member's language (a new member: their client's locale)
    text_input = str(modal["components"])
    assert "'max_length': 4000" in text_input and "'style': 2" in text_input  # a paragraph of up to 4,000
    requests = await bot.interact(p.modal_submit(modal, ["先看数据，再看每层的梯度范数。"], user_id=2))
    assert requests[0].json == {"type": 5, "data": {"flags": EPHEMERAL}}
    (grade,) = followups(requests)
    assert "得分：70/100" in grade.content and grade.flags == EPHEMERAL
    (attempt,) = await bot.service.deps.store.list_attempts(await bot.user_id(2))
    assert attempt.source == "discord:guild:700:daily"  # the question of the day: it counts on the board
    assert attempt.question_id == answer_id.removeprefix("drill:answer:")


async def test_an_empty_modal_answer_gets_a_clear_reply(bot: Harness, fake: FakeDiscord) -> None:
    await setup(bot, time="20:00", timezone="UTC")
    posted = await post_daily_question(bot, fake)
    requests = await press_answer_and_submit(bot, posted, "   ", user_id=2)
    assert "Your answer is empty" in followups(requests)[0].content
    assert await bot.service.deps.store.list_attempts(await bot.user_id(2)) == []


async def test_the_leaderboard_shows_this_servers_members_only(
    bot: Harness, fake: FakeDiscord, grader: FakeGrader, clock: FakeClock
) -> None:
    await setup(bot, time="20:00", timezone="UTC")
    posted = await post_daily_question(bot, fake)
    grader.score = 90
    await press_answer_and_submit(bot, posted, "A strong answer.", user_id=2)
    grader.score = 50
    await press_answer_and_submit(bot, posted, "A weaker answer.", user_id=3)
    # Member 4 answers only in another server, member 5 only in DMs.
    await bot.interact(p.command("drill", user_id=4, guild_id=999))
    await bot.interact(p.command("answer", user_id=4, guild_id=999, text="Elsewhere."))
    await bot.interact(p.command("drill", user_id=5, guild_id=None))
    await bot.interact(p.command("answer", user_id=5, guild_id=None, text="In DMs."))
    requests = await bot.interact(p.command("leaderboard", user_id=3))
    assert requests[0].json == {"type": 5}  # public: it is the server's board
    (board,) = followups(requests)
    week = board.content.split("\n\n")[0]
    assert week.index("<@2>: 90 points") < week.index("<@3>: 50 points")
    assert "<@4>" not in board.content and "<@5>" not in board.content
    assert board.json["allowed_mentions"] == {"parse": []}  # names show, nobody is pinged
    other = followups(await bot.interact(p.command("leaderboard", user_id=4, guild_id=999)))[0]
    assert "<@2>" not in other.content  # and a question of one's own deck answered there scores nothing
    assert other.content.count("No graded answers yet.") == 2


async def test_ten_answers_in_the_daily_form_count_once_and_a_personal_question_never(
    bot: Harness, fake: FakeDiscord, grader: FakeGrader
) -> None:
    """issue #16: the reference answer pasted into the daily form 10 times made 1,000 points, and /answer in a
    server on a question the member wrote with /review scored too."""
    await setup(bot, time="20:00", timezone="UTC")
    posted = await post_daily_question(bot, fake)
    grader.score = 100
    for _ in range(10):
        grades = followups(await press_answer_and_submit(bot, posted, "The reference answer, pasted.", user_id=2))
        assert "Score: 100/100" in grades[0].content
    bot.service.deps.rubric_writer = FakeRubricWriter()
    question = "How would you shard a 70B model's optimizer state on 64 GPUs?"
    await bot.interact(p.command("review", user_id=3, company="Acme", question=question))
    shown = followups(await bot.interact(p.command("drill", user_id=3)))[0]
    assert "70B" in shown.content  # the member's own question, due now
    graded = followups(await bot.interact(p.command("answer", user_id=3, text="ZeRO-1 over the DP ranks.")))[0]
    assert "Score: 100/100" in graded.content
    board = followups(await bot.interact(p.command("leaderboard", user_id=3)))[0].content
    week = board.split("\n\n")[0]
    assert "1. <@2>: 100 points (questions answered: 1)" in week and "<@3>" not in board


async def test_buttons_still_work_after_a_restart(start_bot: Start, fake: FakeDiscord) -> None:
    first = await start_bot()
    await setup(first, time="20:00", timezone="UTC")
    posted = await post_daily_question(first, fake)
    await first.interact(p.command("drill", user_id=2))
    graded = followups(await first.interact(p.command("answer", user_id=2, text="Check the data first.")))[0]
    await first.close()

    second = await start_bot()  # a new process: nothing in memory but the registered button template
    ref = next(cid for cid in graded.custom_ids() if cid.startswith("drill:ref:"))
    message = p.message_from(graded.json)
    requests = await second.interact(p.button(ref, message, user_id=2))
    assert "Reference answer:" in followups(requests)[0].content
    requests = await second.interact(p.button(posted.custom_ids()[0], as_message(posted), user_id=3))
    assert requests[0].json["type"] == 9  # the daily Answer button still opens the modal


async def test_a_button_pressed_by_someone_else_does_not_act_for_them(bot: Harness) -> None:
    await bot.interact(p.command("drill", user_id=2))
    graded = followups(await bot.interact(p.command("answer", user_id=2, text="Check the data first.")))[0]
    attempt = next(cid for cid in graded.custom_ids() if cid.startswith("drill:dis:")).rsplit(":", 1)[1]
    rate = f"drill:rate:{attempt}:1"  # what the Disagree menu offers
    message = p.message_with_components([(rate, "Again")])
    requests = await bot.interact(p.button(rate, message, user_id=3))
    assert "could not find" in followups(requests)[0].content


async def test_an_answer_form_left_open_across_a_restart_is_still_graded(start_bot: Start, fake: FakeDiscord) -> None:
    first = await start_bot()
    await setup(first, time="20:00", timezone="UTC")
    posted = await post_daily_question(first, fake)
    (answer_id,) = posted.custom_ids()
    (callback,) = await first.interact(p.button(answer_id, as_message(posted), user_id=2))
    modal = callback.json["data"]
    assert modal["custom_id"] == "drill-modal:answer:" + answer_id.removeprefix("drill:answer:")
    await first.close()

    second = await start_bot()  # the member submits the form the old process opened
    requests = await second.interact(p.modal_submit(modal, ["Check the data first, then per-layer norms."], user_id=2))
    assert requests[0].json == {"type": 5, "data": {"flags": EPHEMERAL}}
    assert "Score: 70/100" in followups(requests)[0].content
    (attempt,) = await second.service.deps.store.list_attempts(await second.user_id(2))
    assert attempt.answer == "Check the data first, then per-layer norms."
    assert attempt.question_id == answer_id.removeprefix("drill:answer:")


async def test_a_modal_that_is_not_ours_is_left_alone(bot: Harness) -> None:
    modal = {"custom_id": "someone-else:form", "components": [{"type": 1, "components": [{"custom_id": "x"}]}]}
    assert await bot.interact(p.modal_submit(modal, ["hello"], user_id=2)) == []


def test_the_answer_is_read_from_rows_and_from_labels() -> None:
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": "answer", "value": "row text"}]}]
    labels = [{"type": 18, "component": {"type": 4, "custom_id": "answer", "value": "label text"}}]
    other = [{"type": 1, "components": [{"type": 4, "custom_id": "other", "value": "not it"}]}]
    assert (submitted_answer(rows), submitted_answer(labels), submitted_answer(other)) == (
        "row text",
        "label text",
        None,
    )
