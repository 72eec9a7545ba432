"""What typed text means in each feature's state, and the hooks the service calls around a command: the features'
side of the kernel's routing (bot/kernel/routing.py). Importing this module registers it, and every feature's
commands with the registry (bot/kernel/registry.py: which feature handles each command) and pushes
(bot/kernel/push_rules.py); the composition root does."""

from __future__ import annotations

from collections.abc import Mapping

from bot.features.account import account
from bot.features.account import commands as account_commands
from bot.features.apps import commands as apps_commands
from bot.features.career import commands as career_commands
from bot.features.career import router as career_router
from bot.features.debrief import commands as debrief_commands
from bot.features.deps import Deps
from bot.features.drill import commands as drill_commands
from bot.features.drill import drill, regrade
from bot.features.drill import pushes as drill_pushes
from bot.features.jd import commands as jd_commands
from bot.features.mock import commands as mock_commands
from bot.features.mock import turn as mock_turn
from bot.features.notebook import commands as notebook_commands
from bot.features.onboarding import commands as onboarding_commands
from bot.features.onboarding import onboarding
from bot.features.review import commands as review_commands
from bot.features.review import flows, interviews
from bot.features.review import pushes as review_pushes
from bot.features.stats import pushes as stats_pushes
from bot.features.study_server import commands as study_server_commands
from bot.features.voice import commands as voice_commands
from bot.kernel import commands as c
from bot.kernel import routing
from bot.kernel.i18n import t
from bot.kernel.inject import build
from bot.kernel.models import User
from bot.kernel.registry import REGISTRY
from bot.kernel.replies import Reply
from bot.kernel.routing import Handler
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

FEATURE_COMMANDS = (
    account_commands,
    apps_commands,
    career_commands,
    debrief_commands,
    drill_commands,
    jd_commands,
    mock_commands,
    notebook_commands,
    onboarding_commands,
    review_commands,
    study_server_commands,
    voice_commands,
)
"""Each feature's commands: registered with the kernel's registry when imported (here)."""


class FeatureRoutes:
    """The handler tables are the registry's (each feature's `commands` module registers its own); the hooks the
    service calls around a command are here."""

    @property
    def jobs(self) -> Mapping[type[c.Job], routing.JobHandler]:
        return REGISTRY.jobs

    @property
    def handlers(self) -> Mapping[type[c.Command], Handler]:
        return REGISTRY.handlers

    async def greet(self, deps: Deps, user: User) -> list[Reply]:
        return await deps.call(onboarding.start, cmd=c.StartUser(user.id), user=user)

    async def flow_action(self, cmd: c.FlowAction, deps: Deps, user: User, before: Session) -> list[Reply]:
        return await flows.flow_action(cmd, deps, user, before)

    async def after_command(
        self, before: InFlow, replies: list[Reply], deps: Deps, user: User, restart: bool
    ) -> list[Reply]:
        return await flows.after_command(before, replies, deps, user, restart)

    async def waiting_rating(self, deps: Deps, user: User, attempt_id: int) -> Reply | None:
        return await drill.waiting_rating(deps.store, deps.questions, user, attempt_id)

    async def free_text(self, cmd: c.FreeText, deps: Deps, user: User, session: Session) -> list[Reply] | None:
        if open_card_id(session) is not None:
            answers = build(drill.Answers, deps.provided())
            return await drill.submit_answer(c.SubmitAnswer(user.id, cmd.text), answers, user, session)
        if isinstance(session, InMock):
            turns = build(mock_turn.Turns, deps.provided())
            return await mock_turn.submit(c.SubmitAnswer(user.id, cmd.text), turns, user, session)
        if isinstance(session, Onboarding):
            return await onboarding.onboarding_text(cmd.text, deps, user, session.step)
        if isinstance(session, Grading):  # graded now if the process grading it stopped (a replica that died)
            interrupted = await regrade.interrupted_grading(
                build(regrade.Regrading, deps.provided()), user, session.card_id
            )
            return interrupted or [Reply(t(user.language, "already_grading"))]
        if isinstance(session, InFlow):
            return await flows.flow_text(cmd.text, deps, user, session)
        if isinstance(session, InCareer):
            return await career_router.text(cmd.text, deps, user, session)
        if isinstance(session, PickingReview):  # "2": the second question offered; other text is told what waits
            choice = int(cmd.text.strip()) - 1 if is_number(cmd.text.strip()) else -1
            if 0 <= choice < len(session.candidates):
                return await deps.call(interviews.pick_review, cmd=c.PickReview(user.id, choice), user=user)
            return interviews.still_picking(deps.bank, user, session)
        if isinstance(session, ConfirmingForget):
            confirmed = is_yes(cmd.text, DELETE)  # "yes", "y", "确认", "好" ...; anything else keeps the data
            return await deps.call(
                account.confirm_forget, cmd=c.ConfirmForget(user.id, confirmed), user=user, session=session
            )
        return None


ROUTES = FeatureRoutes()
routing.register(ROUTES)
PUSHES = (drill_pushes, review_pushes, stats_pushes)  # imported for what they register: the users' pushes
