"""The drill's pushes: the daily question at the user's time and the nudge when many cards are due."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.features.deps import Deps
from bot.features.drill import drill
from bot.kernel import actions
from bot.kernel.i18n import t, tn
from bot.kernel.inject import build
from bot.kernel.models import User
from bot.kernel.push_rules import daily_instant, register_push, with_late_note
from bot.kernel.replies import Button, Reply
from bot.kernel.session import Answering, ConfirmingForget, InFlow, Onboarding

NUDGE_MIN_DUE = 5


async def daily_drill(deps: Deps, user: User, _last_answer: datetime | None = None) -> list[Reply] | None:
    """The daily push: the next due (or new) question, opened as the user's current question.

    Returns None when there is nothing to ask (no due card and today's new limit reached)."""
    session = await deps.store.get_session(user.id)
    if isinstance(session, InFlow | Onboarding | ConfirmingForget):
        return None  # the user is in the middle of a conversation: do not interrupt it
    # yesterday's question still open is asked again
    deck = build(drill.Deck, deps.provided())
    picked = await drill.ask_again(deck.cards, deck.questions, session) or await drill.pick_next(
        deck, user, deps.clock.now()
    )
    if picked is None:
        return None
    card, q, tag = picked
    await deps.store.set_session(user.id, Answering(card_id=card.id))
    shown = drill.show_question(q, card, user, tag, await drill.asked_as(deck, user, q, tag))
    first = shown[0]
    head = Reply(t(user.language, "push.daily") + "\n\n" + first.text, first.buttons, kind="daily", ask_text=True)
    now = deps.clock.now()
    return with_late_note([head, *shown[1:]], user, daily_instant(user, now), now)


async def review_nudge(deps: Deps, user: User, last_answer: datetime | None) -> list[Reply] | None:
    """One short nudge when many cards are due and the user has not practised for a day."""
    now = deps.clock.now()
    if last_answer is not None and last_answer > now - timedelta(days=1):
        return None
    due = await deps.store.count_due(user.id, now)
    if due < NUDGE_MIN_DUE:
        return None
    return [Reply(tn(user.language, "review_due_nudge", due), [[Button("/drill", actions.Next().encode())]])]


register_push("daily", daily_drill)
register_push("nudge", review_nudge)
