"""Real interviews: /interview logs one (with a reminder after it), /review logs a question asked."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.core import commands as c
from bot.core import srs
from bot.core.bank import MATCH_THRESHOLD
from bot.core.deps import Deps
from bot.core.i18n import t
from bot.core.models import InterviewLog, Question, Reminder, ReviewItem, Rubric, Text, User
from bot.core.replies import Button, Reply
from bot.core.timeutil import fmt_local, parse_when

TOPIC_GUESS_THRESHOLD = 0.2
POST_INTERVIEW_DELAY = timedelta(hours=2)


def _too_long(deps: Deps, user: User, *fields: str) -> Reply | None:
    for value in fields:
        if len(value) > deps.limits.max_answer_chars:
            return Reply(
                t(user.language, "answer_too_long", length=len(value), limit=deps.limits.max_answer_chars),
                kind="error",
            )
    return None


def read_when(deps: Deps, text: str, now: datetime, tz: str) -> datetime | None:
    """The core's own date formats first, then the injected natural-language reader ("明天下午两点")."""
    at = parse_when(text, now, tz)
    if at is None and deps.parse_when is not None:
        at = deps.parse_when(text, now, tz)
    return at


async def log_interview(cmd: c.LogInterview, deps: Deps, user: User) -> list[Reply]:
    lang, now = user.language, deps.clock.now()
    company = cmd.company.strip()[: deps.limits.max_field_chars]
    if not company or not cmd.when.strip():
        return [Reply(t(lang, "usage", usage=t(lang, "interview.usage")), kind="error")]
    at = read_when(deps, cmd.when, now, user.timezone)
    if at is None:
        return [Reply(t(lang, "interview.bad_date", value=cmd.when.strip()[:64]), kind="error")]
    log = await deps.store.add_interview(
        InterviewLog(
            id=0,
            user_id=user.id,
            company=company,
            role=cmd.role.strip()[: deps.limits.max_field_chars],
            at=at,
            created_at=now,
        )
    )
    if at > now:
        await deps.store.add_reminder(
            Reminder(
                id=0,
                user_id=user.id,
                kind="post_interview",
                due_at=at + POST_INTERVIEW_DELAY,
                payload={"interview_id": log.id, "company": company},
            )
        )
    after = t(lang, "interview.after_future" if at > now else "interview.after_past")
    when = fmt_local(at, user.timezone)
    return [Reply(t(lang, "interview.logged", company=company, role=log.role, when=when, after=after))]


async def log_review(cmd: c.LogReview, deps: Deps, user: User) -> list[Reply]:
    lang, now, store = user.language, deps.clock.now(), deps.store
    question_text = cmd.question.strip()
    if not question_text:
        return [Reply(t(lang, "review.no_question"), kind="error")]
    problem = _too_long(deps, user, question_text, cmd.answer)
    if problem is not None:
        return [problem]
    company = cmd.company.strip()[: deps.limits.max_field_chars] or "-"
    best, sim = deps.bank.match(question_text)
    if best is not None and sim >= MATCH_THRESHOLD:
        question, matched = best, True
    else:
        topic, subtopic = (
            (best.topic, best.subtopic) if best and sim >= TOPIC_GUESS_THRESHOLD else ("other", "interview")
        )
        written = await deps.rubric_writer.write(question_text, lang, user.level) if deps.rubric_writer else None
        personal = written or Question(
            id="pending",
            topic=topic,
            subtopic=subtopic,
            type="open",
            level=user.level,
            difficulty=3,
            prompt=Text.same(question_text),
            rubric=Rubric(),
            reference_answer=Text.same(""),
            personal=True,
        )
        question, matched = await store.add_personal_question(user.id, personal), False
    card = await store.card_for_question(user.id, question.id)
    if card is None:
        await store.create_card(user.id, question.id, srs.new_state(now), now, True, now)
    else:
        await store.save_card(card.model_copy(update={"due": now, "suspended": False, "personal": True}))
    await store.add_review_item(
        ReviewItem(
            id=0,
            user_id=user.id,
            company=company,
            question_text=question_text,
            answer_text=cmd.answer.strip(),
            question_id=question.id,
            matched_bank=matched,
            topic=question.topic,
            subtopic=question.subtopic,
            created_at=now,
        )
    )
    key = "review.matched" if matched else "review.generated" if question.generated_rubric else "review.personal"
    return [Reply(t(lang, key, company=company, qid=question.id), [[Button("/drill", "next")]])]
