"""The drill's pushes: the daily question at the user's time and the nudge when many cards are due. Each names what
it uses, as a handler does (bot/kernel/push_rules.py binds them)."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.features.drill import drill
from bot.kernel import actions
from bot.kernel.i18n import t, tn
from bot.kernel.models import User
from bot.kernel.ports import Clock
from bot.kernel.push_rules import daily_instant, register_push, with_late_note
from bot.kernel.replies import Button, Reply
from bot.kernel.session import Answering, ConfirmingForget, InFlow, Onboarding
from bot.kernel.store_ports import CardsPort, UsersPort

NUDGE_MIN_DUE = 5


async def daily_drill(user: User, users: UsersPort, deck: drill.Deck, clock: Clock) -> list[Reply] | None:
    """The daily push: the next due (or new) question, opened as the user's current question.

    Returns None when there is nothing to ask (no due card and today's new limit reached)."""
    session = await users.get_session(user.id)
    if isinstance(session, InFlow | Onboarding | ConfirmingForget):
        return None  # the user is in the middle of a conversation: do not interrupt it
    # yesterday's question still open is asked again
    picked = await drill.ask_again(deck.cards, deck.questions, session) or await drill.pick_next(
        deck, user, clock.now()
    )
    if picked is None:
        return None
    card, q, tag = picked
    await users.set_session(user.id, Answering(card_id=card.id))
    shown = drill.show_question(q, card, user, tag, await drill.asked_as(deck, user, q, tag))
    first = shown[0]
    head = Reply(t(user.language, "push.daily") + "\n\n" + first.text, first.buttons, kind="daily", ask_text=True)
    now = clock.now()
    return with_late_note([head, *shown[1:]], user, daily_instant(user, now), now)


async def review_nudge(user: User, last_answer: datetime | None, cards: CardsPort, clock: Clock) -> list[Reply] | None:
    """One short nudge when many cards are due and the user has not practised for a day."""
    now = clock.now()
    if last_answer is not None and last_answer > now - timedelta(days=1):
        return None
    due = await cards.count_due(user.id, now)
    if due < NUDGE_MIN_DUE:
        return None
    return [Reply(tn(user.language, "review_due_nudge", due), [[Button("/drill", actions.Next().encode())]])]


register_push("daily", daily_drill)
register_push("nudge", review_nudge)
