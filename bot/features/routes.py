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
from bot.kernel.inject import Bound, HandlerTable, routes_to
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


async def _answer(text: str, user: User, session: Session, answers: drill.Answers) -> list[Reply]:
    return await drill.submit_answer(c.SubmitAnswer(user.id, text), answers, user, session)


async def _mock_turn(text: str, user: User, session: InMock, turns: mock_turn.Turns) -> list[Reply]:
    return await mock_turn.submit(c.SubmitAnswer(user.id, text), turns, user, session)


async def _onboarding(text: str, user: User, session: Onboarding, dispatch: Dispatch) -> list[Reply]:
    return await onboarding.onboarding_text(text, dispatch, user, session)


async def _grading(text: str, user: User, session: Grading, regrading: regrade.Regrading) -> list[Reply]:
    """Graded now if the process grading it stopped (a replica that died); else the user is told to wait."""
    interrupted = await regrade.interrupted_grading(regrading, user, session.card_id)
    return interrupted or [Reply(t(user.language, "already_grading"))]


async def _flow(text: str, user: User, session: InFlow, forms: flows.Forms) -> list[Reply]:
    return await flows.flow_text(text, forms, user, session)


@routes_to(career_tools=career_router.TABLE)
async def _career(text: str, user: User, session: InCareer, users: UsersPort, career_tools: Toolbox) -> list[Reply]:
    return await career_router.text(text, user, session, users, career_tools)


async def _picking(text: str, user: User, session: PickingReview, bank: Bank, dispatch: Dispatch) -> list[Reply]:
    """ "2": the second question offered; other text is told what waits."""
    choice = int(text.strip()) - 1 if is_number(text.strip()) else -1
    if 0 <= choice < len(session.candidates):
        return await dispatch(c.PickReview(user.id, choice), user, session)
    return interviews.still_picking(bank, user, session)


async def _forget(text: str, user: User, session: ConfirmingForget, dispatch: Dispatch) -> list[Reply]:
    confirmed = is_yes(text, DELETE)  # "yes", "y", "确认", "好" ...; anything else keeps the data
    return await dispatch(c.ConfirmForget(user.id, confirmed), user, session)


TEXT_IN = HandlerTable(
    {
        "answer": _answer,
        "mock": _mock_turn,
        "onboarding": _onboarding,
        "grading": _grading,
        "flow": _flow,
        "career": _career,
        "picking": _picking,
        "forget": _forget,
    },
    per_call=("text", "user", "session"),
)
"""What typed text means in each state that takes it, each naming what it uses (so a text builds only its own
state's group of ports)."""
_STATES: tuple[tuple[type[Session], str], ...] = (
    (InMock, "mock"),
    (Onboarding, "onboarding"),
    (Grading, "grading"),
    (InFlow, "flow"),
    (InCareer, "career"),
    (PickingReview, "picking"),
    (ConfirmingForget, "forget"),
)


def text_state(session: Session) -> str | None:
    """Which of `TEXT_IN` takes typed text in this state: an open question first; None when no state takes it."""
    if open_card_id(session) is not None:
        return "answer"
    return next((name for kind, name in _STATES if isinstance(session, kind)), None)


@routes_to(states=TEXT_IN)
async def free_text(cmd: c.FreeText, user: User, session: Session, states: Mapping[str, Bound]) -> list[Reply] | None:
    """What typed text means in the user's state; None when no state takes it."""
    name = text_state(session)
    if name is None:
        return None
    replies: list[Reply] = await states[name](text=cmd.text, user=user, session=session)
    return replies


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
