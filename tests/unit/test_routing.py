"""The kernel dispatches to the routes it is given (bot/kernel/routing.py); the features register theirs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import pytest

from bot.features.deps import Deps
from bot.features.routes import ROUTES
from bot.kernel import commands as c
from bot.kernel import routing
from bot.kernel.models import User
from bot.kernel.replies import Reply
from bot.kernel.routing import Handler
from bot.kernel.service import Service
from bot.kernel.session import Session
from tests.fakes import NO_HOOKS


class OneCommand:
    """Routes of one command (/help) and typed text echoed back: a hand-written fake."""

    def __init__(self) -> None:
        self.seen: list[str] = []

        async def help_(cmd: c.ShowHelp, user: User) -> list[Reply]:
            self.seen.append("help")
            return [Reply("only help here")]

        self._handlers: dict[type[c.Command], Handler] = {c.ShowHelp: help_}

    @property
    def jobs(self) -> Mapping[type[c.Job], routing.JobHandler]:
        return {}

    @property
    def handlers(self) -> Mapping[type[c.Command], Handler]:
        return self._handlers

    @property
    def hooks(self) -> routing.Hooks:
        async def greet(user: User, session: Session) -> list[Reply]:
            return [Reply("hello again")]

        async def free_text(cmd: c.FreeText, user: User, session: Session) -> list[Reply] | None:
            return [Reply(f"echo: {cmd.text}")] if cmd.text.startswith("echo") else None

        return replace(NO_HOOKS, greet=greet, free_text=free_text)


async def test_the_service_dispatches_to_the_routes_it_was_given(deps: Deps) -> None:
    routes = OneCommand()
    service = Service(deps, routes=routes)
    user = await service.user_for("test", "u1", "en")
    assert [r.text for r in await service.handle_text(user.id, "/help")] == ["only help here"]
    assert routes.seen == ["help"]
    assert [r.text for r in await service.handle_text(user.id, "echo this")] == ["echo: echo this"]
    # text no route takes gets the kernel's own answer, not a feature's
    assert "/drill" in (await service.handle_text(user.id, "something else"))[-1].text


async def test_a_service_without_routes_uses_the_registered_ones(deps: Deps) -> None:
    assert Service(deps).routes is ROUTES


def test_with_none_registered_the_error_says_what_to_import(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(routing, "_registered", None)
    with pytest.raises(LookupError, match=r"bot\.features\.routes"):
        routing.registered()
