"""/apps through the service: adding (at once and step by step), moving stages with the history kept, notes,
the limits with their replies, another user's ids, both languages, and the board with its insights
computed from the logged interviews and /review questions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.features.apps import apps
from bot.features.deps import Deps
from bot.kernel.service import Service
from bot.kernel.session import Idle, InCareer
from tests.fakes import FakeStore
from tests.unit.test_service import new_user


async def say(service: Service, uid: int, text: str) -> str:
    return "\n".join(r.text for r in await service.handle_text(uid, text))


async def only_app(store: FakeStore, uid: int):  # type: ignore[no-untyped-def]
    (app,) = await store.list_applications(uid)
    return app


async def test_add_at_once_then_move_through_the_stages_with_history(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    assert "Added #1 ByteDance at Applied" in await say(service, uid, "/apps add 字节 | LLM infra | referred by Li")
    app = await only_app(store, uid)
    assert (app.company, app.role, app.number, app.stage) == ("字节", "LLM infra", 1, "applied")
    assert [n.text for n in app.note_log] == ["referred by Li"]
    (r,) = await service.handle_action(uid, f"cr:apps:mv:{app.id}:screen:0")
    assert "moved to Screen" in r.text and f"cr:apps:mv:{app.id}:technical:1" in r.actions()
    assert "moved to Technical round 1" in await say(service, uid, "/apps 1 stage technical")
    assert "moved to Technical round 2" in await say(service, uid, "/apps 1 二面")
    assert "It is at Technical round 2 already" in await say(service, uid, "/apps 1 technical 2")
    assert "closed: Offer" in await say(service, uid, "/apps #1 offer")
    app = await only_app(store, uid)
    assert [(c.stage, c.round) for c in app.history] == [
        ("applied", 0), ("screen", 0), ("technical", 1), ("technical", 2), ("offer", 0)]  # fmt: skip
    shown = await say(service, uid, "/apps 1")
    assert "Stages: Applied 2026-03-02 → Screen 2026-03-02 → Technical round 1" in shown


async def test_the_step_by_step_add_with_skip_and_cancel(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    (r,) = await service.handle_text(uid, "/apps add")
    assert r.text == "Which company?" and r.ask_text and r.actions() == ["cr:apps:cancel"]
    assert "Which company?" in await say(service, uid, "   ")  # empty: asked again
    (r,) = await service.handle_text(uid, "Moonshot")
    assert "role at Moonshot AI" in r.text and "cr:apps:skip" in r.actions()
    await service.handle_action(uid, "cr:apps:skip")
    state = await store.get_session(uid)
    assert isinstance(state, InCareer) and state.step == "notes" and state.data == {"company": "Moonshot", "role": ""}
    (r,) = await service.handle_text(uid, "met them at a meetup")
    assert "Added #1 Moonshot AI" in r.text and isinstance(await store.get_session(uid), Idle)
    assert [n.text for n in (await only_app(store, uid)).note_log] == ["met them at a meetup"]
    await service.handle_text(uid, "/apps add")
    (r,) = await service.handle_action(uid, "cr:apps:cancel")
    assert "nothing was saved" in r.text and len(await store.list_applications(uid)) == 1
    (r,) = await service.handle_action(uid, "cr:apps:skip")  # the flow is over
    assert "nothing was done" in r.text


async def test_chinese_replies_and_stage_words(service: Service, store: FakeStore) -> None:
    uid = await new_user(service, "zh")
    assert "已添加 #1 阿里巴巴，阶段：已投递" in await say(service, uid, "/apps add 阿里 | 预训练")
    assert "已推进到简历筛选" in await say(service, uid, "/apps 1 简历筛选")
    assert "已推进到第 1 轮技术面" in await say(service, uid, "/apps 1 一面")
    assert "已推进到HR 面" in await say(service, uid, "/apps 1 阶段 HR面")
    assert "已结束：已放弃" in await say(service, uid, "/apps 1 放弃")
    assert "看不懂阶段“升职”" in await say(service, uid, "/apps 1 升职")
    board = await say(service, uid, "/apps")
    assert board.startswith("投递看板：进行中 0 个，已结束 1 个") and "已结束：已放弃 1（#1 阿里巴巴）" in board


async def test_notes_are_dated_and_limited_in_size_and_number(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    await say(service, uid, "/apps add Baidu")
    assert "Note saved on Baidu (1 of 50)" in await say(service, uid, "/apps 1 note asked about ERNIE")
    long = "x" * (apps.MAX_NOTE_CHARS + 1)
    assert "2001 characters; a note holds up to 2000" in await say(service, uid, f"/apps 1 note {long}")
    app = await only_app(store, uid)
    (r,) = await service.handle_action(uid, f"cr:apps:note:{app.id}")
    assert r.ask_text
    assert "Note saved on Baidu (2 of 50)" in await say(service, uid, "typed after the button")
    full = app.model_copy(update={"note_log": app.note_log * apps.MAX_NOTES})
    await store.save_application(full)
    assert "the most notes it can hold (50)" in await say(service, uid, "/apps 1 note one more")
    assert len((await only_app(store, uid)).note_log) == apps.MAX_NOTES


async def test_at_most_200_applications_with_a_clear_reply(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    await say(service, uid, "/apps add Company 0")
    first = await only_app(store, uid)
    for i in range(1, apps.MAX_APPS - 1):
        await store.add_application(first.model_copy(update={"id": 0, "company": f"Company {i}", "number": i + 1}))
    assert "Added #200 Company 199" in await say(
        service, uid, "/apps add Company 199"
    )  # the last one there is room for
    assert await store.count_applications(uid) == apps.MAX_APPS
    assert "Your board is full (the limit is 200)" in await say(service, uid, "/apps add One More")
    assert "Your board is full" in await say(service, uid, "/apps add")  # the step-by-step flow does not start
    assert await store.count_applications(uid) == apps.MAX_APPS
    board = await service.handle_text(uid, "/apps")
    assert "… and 188 more" in board[0].text and len(board[0].text) < 4000


async def test_bad_input_gets_clear_replies(service: Service) -> None:
    uid = await new_user(service)
    assert "/apps add Company | role | notes" in await say(service, uid, "/apps add  | role only")
    assert "a company or role takes up to 200" in await say(service, uid, "/apps add " + "B" * 201)
    assert "No such application" in await say(service, uid, "/apps 7")
    assert "Usage" in await say(service, uid, "/apps dance") or "/apps insights" in await say(
        service, uid, "/apps dance"
    )
    await say(service, uid, "/apps add Acme")
    assert "from 1 to 90" in await say(service, uid, "/apps 1 remind 400")
    (r,) = await service.handle_action(uid, "cr:apps:show:notanumber")
    assert "No such application" in r.text
    app_id = (await service.deps.store.list_applications(uid))[0].id
    for forged in (f"mv:{app_id}:promoted:0", f"mv:{app_id}:technical:99999", f"zap:{app_id}", "show:" + "9" * 40):
        (r,) = await service.handle_action(uid, "cr:apps:" + forged)
        assert "No such application" in r.text, forged
    assert (await service.deps.store.list_applications(uid))[0].history[-1].stage == "applied"


async def test_another_users_application_is_not_found(service: Service, store: FakeStore) -> None:
    alice = await new_user(service)
    bob = (await service.user_for("test", "bob", "en")).id
    await say(service, alice, "/apps add ByteDance")
    theirs = await only_app(store, alice)
    for action in ("show", "mv", "note", "rem", "del", "delok"):
        suffix = ":offer:0" if action == "mv" else ""
        (r,) = await service.handle_action(bob, f"cr:apps:{action}:{theirs.id}{suffix}")
        assert "No such application" in r.text, action
    assert "No such application" in await say(service, bob, "/apps 1")  # bob's board has no #1
    assert (await only_app(store, alice)).stage == "applied" and await store.get_application(theirs.id) is not None
    await store.set_session(bob, InCareer(tool="apps", step="note", data={"id": str(theirs.id)}))
    assert "No such application" in await say(service, bob, "a note on alice's")
    assert (await only_app(store, alice)).note_log == []


async def test_delete_asks_first_and_keeps_the_logs(service: Service, store: FakeStore) -> None:
    uid = await new_user(service)
    await say(service, uid, "/apps add Tencent")
    await say(service, uid, "/review Tencent | How does ZeRO-3 partition the optimizer states?")
    app = await only_app(store, uid)
    (r,) = await service.handle_text(uid, "/apps 1 delete")
    assert "Delete the application at Tencent" in r.text and f"cr:apps:delok:{app.id}" in r.actions()
    (r,) = await service.handle_action(uid, f"cr:apps:delok:{app.id}")
    assert "Deleted" in r.text and await store.list_applications(uid) == []
    assert len(await store.list_review_items(uid)) == 1
    await say(service, uid, "/apps add Tencent")
    assert (await only_app(store, uid)).number == 1  # numbers start over on an empty board


async def test_the_board_shows_attached_logs_and_insights_without_any_llm(
    service: Service, deps: Deps, store: FakeStore
) -> None:
    uid = await new_user(service)
    await say(service, uid, "/apps add 字节跳动 | LLM infra")
    await say(service, uid, "/apps add Alibaba | pretraining")
    await say(service, uid, "/apps 1 一面")
    await say(service, uid, "/interview ByteDance | LLM infra | tomorrow 10:00")
    await say(service, uid, "/review 字节 | How does ZeRO-3 partition optimizer states, gradients and parameters?")
    (board,) = await service.handle_text(uid, "/apps")
    assert "#1 ByteDance · LLM infra · Technical round 1 · 0 days · 1 interview, 1 question" in board.text
    assert "Next round at #1 ByteDance" in board.text and board.image is None  # no renderer: text only
    assert [a for a in board.actions() if a.startswith("cr:apps:show:")] == [
        f"cr:apps:show:{a.id}" for a in await store.list_applications(uid)]  # fmt: skip
    (ins,) = await service.handle_text(uid, "/apps insights")
    assert "By stage:\n- Technical round 1:" in ins.text
    assert "For your next round at #1 ByteDance, prepare these" in ins.text
    assert "1. How does ZeRO stage 3 partition optimizer states" in ins.text  # its card is due: first
    assert "2. Question pipe-q-000?" in ins.text and "4." not in ins.text
    assert store.llm_calls == []


class BrokenChart:
    def render_board(self, data: object) -> bytes:
        raise RuntimeError("no backend")


@pytest.mark.parametrize("broken", [False, True])
async def test_the_board_png_when_a_renderer_is_there_and_text_when_it_fails(
    service: Service, deps: Deps, broken: bool
) -> None:
    from bot.charts import MatplotlibAppsChart

    service.deps = replace(deps, apps_charts=BrokenChart() if broken else MatplotlibAppsChart())
    uid = await new_user(service)
    await say(service, uid, "/apps add Baidu")
    (board,) = await service.handle_text(uid, "/apps")
    assert "Applied (1)" in board.text
    if broken:
        assert board.image is None
    else:
        assert board.image is not None and board.image.data[:8] == b"\x89PNG\r\n\x1a\n"
