"""Which feature handles each command, and what typed text means in each feature's state: the features' side of
the kernel's routing (bot/kernel/routing.py). Importing this module registers it, and the features' pushes
(bot/kernel/push_rules.py); the composition root does."""

from __future__ import annotations

from bot.features.account import account
from bot.features.career import router as career_router
from bot.features.drill import drill, regrade
from bot.features.drill import pushes as drill_pushes
from bot.features.mock import mock
from bot.features.onboarding import onboarding
from bot.features.review import company_merge, flows, interviews
from bot.features.review import pushes as review_pushes
from bot.features.stats import pushes as stats_pushes
from bot.features.study_server import study_server
from bot.features.voice import voice
from bot.kernel import commands as c
from bot.kernel import routing
from bot.kernel.deps import Deps
from bot.kernel.i18n import t
from bot.kernel.models import User
from bot.kernel.replies import Reply
from bot.kernel.routing import Handler, SessionHandler
from bot.kernel.session import (
    ConfirmingForget,
    Grading,
    InCareer,
    InFlow,
    InMock,
    Onboarding,
    PickingReview,
    Session,
    open_card_id,
)
from bot.kernel.yes_no import DELETE, is_number, is_yes

HANDLERS: dict[type[c.Command], Handler] = {
    c.StartUser: onboarding.start,
    c.ShowHelp: onboarding.show_help,
    c.ShowSettings: onboarding.show_settings,
    c.ChangeSetting: onboarding.change_setting,
    c.NextQuestion: drill.next_question,
    c.OverrideRating: drill.override_rating,
    c.StartFollowUp: drill.start_follow_up,
    c.TickPoint: drill.tick_point,
    c.Disagree: drill.disagree,
    c.SecondLook: drill.second_look,
    c.LogInterview: interviews.log_interview,
    c.LogReview: interviews.log_review,
    c.PickReview: interviews.pick_review,
    c.StartFlow: flows.start_flow,
    c.SetPaused: onboarding.set_paused,
    c.ShowStats: account.show_stats,
    c.ShowCompanies: company_merge.show_companies,
    c.MergeCompanies: company_merge.merge_companies,
    c.Forget: account.forget,
    c.ExportData: account.export_data,
    c.ShowPrivacy: account.privacy,
    c.SetupServer: study_server.setup_server,
    c.ShowLeaderboard: study_server.show_leaderboard,
    c.AnswerServerQuestion: study_server.answer_server_question,
    c.MockCommand: mock.mock_command,
    c.CareerCommand: career_router.command,
    c.CareerAction: career_router.action,
    c.UploadDocument: career_router.upload,
}

WITH_SESSION: dict[type[c.Command], SessionHandler] = {
    c.SubmitAnswer: mock.answer,  # the drill's, or the mock interview's while one runs
    c.SubmitVoice: voice.submit_voice,
    c.RevealReference: mock.reveal,  # the drill's; not during a mock interview
    c.SkipQuestion: mock.skip,  # the drill's, or passing on the mock's open question
    c.ConfirmForget: account.confirm_forget,
}


class FeatureRoutes:
    handlers = HANDLERS
    with_session = WITH_SESSION

    async def greet(self, deps: Deps, user: User) -> list[Reply]:
        return await onboarding.start(c.StartUser(user.id), deps, user)

    async def flow_action(self, cmd: c.FlowAction, deps: Deps, user: User, before: Session) -> list[Reply]:
        return await flows.flow_action(cmd, deps, user, before)

    async def after_command(
        self, before: InFlow, replies: list[Reply], deps: Deps, user: User, restart: bool
    ) -> list[Reply]:
        return await flows.after_command(before, replies, deps, user, restart)

    async def waiting_rating(self, deps: Deps, user: User, attempt_id: int) -> Reply | None:
        return await drill.waiting_rating(deps, user, attempt_id)

    async def free_text(self, cmd: c.FreeText, deps: Deps, user: User, session: Session) -> list[Reply] | None:
        if open_card_id(session) is not None:
            return await drill.submit_answer(c.SubmitAnswer(user.id, cmd.text), deps, user, session)
        if isinstance(session, InMock):
            return await mock.submit(c.SubmitAnswer(user.id, cmd.text), deps, user, session)
        if isinstance(session, Onboarding):
            return await onboarding.onboarding_text(cmd.text, deps, user, session.step)
        if isinstance(session, Grading):  # graded now if the process grading it stopped (a replica that died)
            interrupted = await regrade.interrupted_grading(deps, user, session.card_id)
            return interrupted or [Reply(t(user.language, "already_grading"))]
        if isinstance(session, InFlow):
            return await flows.flow_text(cmd.text, deps, user, session)
        if isinstance(session, InCareer):
            return await career_router.text(cmd.text, deps, user, session)
        if isinstance(session, PickingReview):  # "2": the second question offered; other text is told what waits
            choice = int(cmd.text.strip()) - 1 if is_number(cmd.text.strip()) else -1
            if 0 <= choice < len(session.candidates):
                return await interviews.pick_review(c.PickReview(user.id, choice), deps, user)
            return interviews.still_picking(deps, user, session)
        if isinstance(session, ConfirmingForget):
            confirmed = is_yes(cmd.text, DELETE)  # "yes", "y", "确认", "好" ...; anything else keeps the data
            return await account.confirm_forget(c.ConfirmForget(user.id, confirmed), deps, user, session)
        return None


ROUTES = FeatureRoutes()
routing.register(ROUTES)
PUSHES = (drill_pushes, review_pushes, stats_pushes)  # imported for what they register: the users' pushes
