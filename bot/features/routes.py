"""What typed text means in each feature's state, and the hooks the service calls around a command: the features'
side of the kernel's routing (bot/kernel/routing.py). Importing this module registers it, and every feature's
commands with the registry (bot/kernel/registry.py: which feature handles each command) and pushes
(bot/kernel/push_rules.py); the composition root does."""

from __future__ import annotations

from collections.abc import Mapping

from bot.features.account import commands as account_commands
from bot.features.apps import commands as apps_commands
from bot.features.career import commands as career_commands
from bot.features.career import router as career_router
from bot.features.career.tool import Toolbox
from bot.features.debrief import commands as debrief_commands
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
from bot.kernel.bank import Bank
from bot.kernel.i18n import t
from bot.kernel.inject import routes_to
from bot.kernel.models import User
from bot.kernel.registry import REGISTRY
from bot.kernel.replies import Reply
from bot.kernel.routing import Dispatch, Handler
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
from bot.kernel.store_ports import UsersPort
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


async def greet(user: User, session: Session, dispatch: Dispatch) -> list[Reply]:
    """After /forget, whatever the user sent: /start's welcome and onboarding."""
    return await dispatch(c.StartUser(user.id), user, session)


@routes_to(career_tools=career_router.TABLE)
async def free_text(
    cmd: c.FreeText,
    user: User,
    session: Session,
    answers: drill.Answers,
    turns: mock_turn.Turns,
    regrading: regrade.Regrading,
    forms: flows.Forms,
    bank: Bank,
    dispatch: Dispatch,
    users: UsersPort,
    career_tools: Toolbox,
) -> list[Reply] | None:
    """What typed text means in the user's state; None when no state takes it."""
    if open_card_id(session) is not None:
        return await drill.submit_answer(c.SubmitAnswer(user.id, cmd.text), answers, user, session)
    if isinstance(session, InMock):
        return await mock_turn.submit(c.SubmitAnswer(user.id, cmd.text), turns, user, session)
    if isinstance(session, Onboarding):
        return await onboarding.onboarding_text(cmd.text, dispatch, user, session)
    if isinstance(session, Grading):  # graded now if the process grading it stopped (a replica that died)
        interrupted = await regrade.interrupted_grading(regrading, user, session.card_id)
        return interrupted or [Reply(t(user.language, "already_grading"))]
    if isinstance(session, InFlow):
        return await flows.flow_text(cmd.text, forms, user, session)
    if isinstance(session, InCareer):
        return await career_router.text(cmd.text, user, session, users, career_tools)
    if isinstance(session, PickingReview):  # "2": the second question offered; other text is told what waits
        choice = int(cmd.text.strip()) - 1 if is_number(cmd.text.strip()) else -1
        if 0 <= choice < len(session.candidates):
            return await dispatch(c.PickReview(user.id, choice), user, session)
        return interviews.still_picking(bank, user, session)
    if isinstance(session, ConfirmingForget):
        confirmed = is_yes(cmd.text, DELETE)  # "yes", "y", "确认", "好" ...; anything else keeps the data
        return await dispatch(c.ConfirmForget(user.id, confirmed), user, session)
    return None


HOOKS = routing.Hooks(
    greet=greet,
    flow_action=flows.flow_action,
    after_command=flows.after_command,
    waiting_rating=drill.waiting_rating,
    free_text=free_text,
)
"""The hooks the service calls around a command (bot/kernel/routing.py Hooks), each naming what it uses."""


class FeatureRoutes:
    """The handler tables are the registry's (each feature's `commands` module registers its own); the hooks the
    service calls around a command are `HOOKS`."""

    @property
    def jobs(self) -> Mapping[type[c.Job], routing.JobHandler]:
        return REGISTRY.jobs

    @property
    def handlers(self) -> Mapping[type[c.Command], Handler]:
        return REGISTRY.handlers

    @property
    def hooks(self) -> routing.Hooks:
        return HOOKS


ROUTES = FeatureRoutes()
routing.register(ROUTES)
PUSHES = (drill_pushes, review_pushes, stats_pushes)  # imported for what they register: the users' pushes
