"""Real interviews: /interview logs one (with a reminder after it), /review logs a question asked."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from bot.features.drill import drill
from bot.features.review.personal_questions import Rubrics, personal_question
from bot.kernel import actions, srs
from bot.kernel import commands as c
from bot.kernel.bank import Bank
from bot.kernel.i18n import t, tn
from bot.kernel.inject import group
from bot.kernel.limits import Limits
from bot.kernel.llm_budget import Budget
from bot.kernel.lookups import Dates, Matching
from bot.kernel.models import InterviewLog, Lang, Question, Reminder, ReviewItem, User
from bot.kernel.ports import Clock, RubricWriter
from bot.kernel.render import subtopic_name
from bot.kernel.replies import Button, Reply
from bot.kernel.session import Answering, Idle, InFlow, PickingReview
from bot.kernel.store_ports import CardsPort, InterviewsPort, RemindersPort, UsersPort
from bot.kernel.timeutil import fmt_local, start_of_local_day

POST_INTERVIEW_DELAY = timedelta(hours=2)
RUBRIC_CHARS = 80  # the bank question whose rubric grades a logged one, named in the reply
ASK_PAST = timedelta(days=7)  # an interview further back than this may be a typo (2020 for 2026): ask first
ASK_FUTURE = timedelta(days=365)  # ...and so may one further ahead


def date_doubt(at: datetime, now: datetime, user: User) -> str | None:
    """The question to ask before logging an interview at `at`, when that is far back or far ahead; else None."""
    when = fmt_local(at, user.timezone)
    if at < now - ASK_PAST:
        return t(user.language, "interview.check_past", when=when, days=tn(user.language, "count.day", (now - at).days))
    if at > now + ASK_FUTURE:
        return t(
            user.language, "interview.check_future", when=when, days=tn(user.language, "count.day", (at - now).days)
        )
    return None


@group
@dataclass(frozen=True)
class Filing:
    """What files a real interview question (/review, /debrief): the store's interviews, the bank and the matching
    against it, the rubric writer with the budget of LLM calls (a personal question's rubric), the clock."""

    interviews: InterviewsPort
    bank: Bank
    matching: Matching
    rubric_writer: RubricWriter | None
    budget: Budget
    clock: Clock


def _too_long(limits: Limits, user: User, *fields: str) -> Reply | None:
    for value in fields:
        if len(value) > limits.max_answer_chars:
            return Reply(
                t(user.language, "answer_too_long", length=len(value), limit=limits.max_answer_chars),
                kind="error",
            )
    return None


async def cap_reached(
    store: InterviewsPort, lim: Limits, user: User, kind: Literal["review", "interview"], now: datetime
) -> tuple[Literal["total", "day"], int] | None:
    """The caps on what one user logs (their /export must stay small enough to send): None while the user
    may log one more `kind` now, else which cap was reached and its limit; nothing is saved past one."""
    if kind == "review":
        count, total, per_day = store.count_review_items, lim.max_reviews, lim.max_reviews_per_day
    else:
        count, total, per_day = store.count_interviews, lim.max_interviews, lim.max_interviews_per_day
    if await count(user.id) >= total:
        return "total", total
    if await count(user.id, start_of_local_day(now, user.timezone)) >= per_day:
        return "day", per_day
    return None


async def over_cap(
    store: InterviewsPort, lim: Limits, user: User, kind: Literal["review", "interview"], now: datetime
) -> Reply | None:
    """None while the user may log one more `kind` now, else the reply saying which cap was reached."""
    reached = await cap_reached(store, lim, user, kind, now)
    return None if reached is None else _cap_reply(user.language, kind, *reached)


def _cap_reply(lang: Lang, kind: str, cap: str, limit: int) -> Reply:
    logged = tn(lang, "count.interview_question" if kind == "review" else "count.interview", limit)
    return Reply(t(lang, f"cap.{kind}_{cap}", logged=logged), kind="error")


async def log_interview(
    cmd: c.LogInterview,
    user: User,
    users: UsersPort,
    interviews: InterviewsPort,
    reminders: RemindersPort,
    dates: Dates,
    clock: Clock,
    limits: Limits,
) -> list[Reply]:
    lang, now = user.language, clock.now()
    company = cmd.company.strip()[: limits.max_field_chars]
    if not company or not cmd.when.strip():
        return [Reply(t(lang, "usage", usage=t(lang, "interview.usage")), kind="error")]
    at = dates.when(cmd.when, now, user.timezone)
    if at is None:
        return [Reply(t(lang, "interview.bad_date", value=cmd.when.strip()[:64]), kind="error")]
    capped = await over_cap(interviews, limits, user, "interview", now)
    if capped is not None:
        return [capped]
    role = cmd.role.strip()[: limits.max_field_chars]
    doubt = None if cmd.date_checked else date_doubt(at, now, user)
    if doubt is not None:  # kept as a /interview form at its Save step: Save logs it as it is
        data = {"company": company, "role": role, "when": fmt_local(at, user.timezone)}
        await users.set_session(user.id, InFlow(flow="interview", data=data, step="confirm"))
        summary = t(lang, "flow.interview.confirm", **{k: v or t(lang, "flow.none") for k, v in data.items()})
        buttons = [
            [
                Button(t(lang, "btn.save"), actions.Flow(step="ok").encode()),
                Button(t(lang, "btn.cancel"), actions.Flow(step="cancel").encode()),
            ]
        ]
        return [Reply(doubt + "\n" + summary, buttons)]
    log = await interviews.add_interview(
        InterviewLog(
            id=0,
            user_id=user.id,
            company=company,
            role=role,
            at=at,
            created_at=now,
        )
    )
    if at > now:
        await reminders.add_reminder(
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
    text = t(lang, "interview.logged", company=company, role=log.role, when=when, after=after)
    return [Reply(text, promise=at > now)]


async def log_review(
    cmd: c.LogReview, user: User, filing: Filing, answers: drill.Answers, limits: Limits
) -> list[Reply]:
    """Log a real interview question at once: as the bank's question when it is clearly the same, else
    as a personal question filed under the nearest bank subtopic; when a bank question may be the same,
    offer up to three to link it to instead (nothing waits on the answer)."""
    lang = user.language
    question_text = cmd.question.strip()
    if not question_text:
        return [Reply(t(lang, "review.no_question"), kind="error")]
    problem = _too_long(limits, user, question_text, cmd.answer) or await over_cap(
        filing.interviews, limits, user, "review", filing.clock.now()
    )
    if problem is not None:
        return [problem]
    company = cmd.company.strip()[: limits.max_field_chars] or "-"
    done = await file_review(filing, user, company, question_text, cmd.answer)
    item, question, offered = done.item, done.question, done.offered
    answer = cmd.answer.strip()
    if not offered:
        graded = await grade_recalled(answers, user, question, answer)
        return [_filed_reply(lang, company, question, done.matched, bool(graded)), *graded]
    await answers.users.set_session(
        user.id, PickingReview(item=item.id, personal=question.id, candidates=[q.id for q in offered])
    )
    listing = "\n".join(f"{i + 1}. {q.prompt.get(lang)}" for i, q in enumerate(offered))
    later = t(lang, "review.graded_after_pick") if answer else ""
    text = t(lang, "review.offered", company=company) + "\n" + t(lang, "review.pick", listing=listing) + later
    return [Reply(text, _offer_rows(offered, lang))]


async def grade_recalled(answers: drill.Answers, user: User, question: Question, answer: str) -> list[Reply]:
    """The answer the user recalls giving, graded as an answer to the card (stored first, graded, and the card
    scheduled from it, as in /drill); [] with no answer, or a question with nothing to grade against (a personal
    question without a rubric: the user rates it when it comes up)."""
    card = await answers.cards.card_for_question(user.id, question.id)
    if not answer or card is None:
        return []
    if not question.rubric.key_points and not question.reference_answer.get(user.language).strip():
        return []
    asked = Answering(card_id=card.id)
    await answers.users.set_session(user.id, asked)
    return await drill.submit_answer(c.SubmitAnswer(user.id, answer, source="review"), answers, user, asked)


def _offer_rows(offered: list[Question], lang: Lang) -> list[list[Button]]:
    rows = [
        [Button(f"{i + 1}. {_short(q.prompt.get(lang))}", actions.PickReview(choice=i).encode())]
        for i, q in enumerate(offered)
    ]
    rows.append([Button(t(lang, "review.pick_none"), actions.PickReview(choice=None).encode())])
    return rows


def still_picking(bank: Bank, user: User, state: PickingReview) -> list[Reply]:
    """Text typed while the bank questions offered after /review wait for a pick: what they wait for, and them."""
    lang = user.language
    offered = [q for q in (bank.get(qid) for qid in state.candidates) if q is not None]
    return [Reply(t(lang, "waits.review_pick"), _offer_rows(offered, lang))]


@dataclass(frozen=True)
class Filed:
    """A logged review: its entry, the question it was filed as, and the bank questions it may be instead."""

    item: ReviewItem
    question: Question
    matched: bool
    """Filed as the bank's question (the best candidate was sure); else as a personal question."""
    offered: list[Question]


async def file_review(
    filing: Filing, user: User, company: str, question_text: str, answer: str, chosen: Question | None = None
) -> Filed:
    """Match a real interview question to the bank and write it (no checks: the caller checks size and caps):
    as the bank question when the best candidate is sure (or is `chosen`, a bank question the user confirmed),
    else as a personal question, with the candidates close enough to offer (/review and /debrief)."""
    if chosen is not None:
        item, question = await _file_review(filing, user, company, question_text, answer, chosen, chosen)
        return Filed(item, question, True, [])
    candidates = await filing.matching.candidates(question_text, 3)
    unsure = filing.bank.bars()[1]
    best = candidates[0] if candidates else None
    if best is not None and filing.bank.is_sure(candidates, question_text):
        item, question = await _file_review(filing, user, company, question_text, answer, best[0], best[0])
        return Filed(item, question, True, [])
    nearest = best[0] if best else None
    item, question = await _file_review(filing, user, company, question_text, answer, None, nearest)
    return Filed(item, question, False, [q for q, sim in candidates if sim >= unsure])


async def pick_review(
    cmd: c.PickReview, user: User, answers: drill.Answers, interviews: InterviewsPort, bank: Bank
) -> list[Reply]:
    """ "It is this bank question": link the logged review to it (its card due now, the personal one suspended)."""
    users, cards, questions = answers.users, answers.cards, answers.questions
    lang, now = user.language, answers.clock.now()
    state = await users.get_session(user.id)
    if not isinstance(state, PickingReview):
        return [Reply(t(lang, "flow.expired"))]
    await users.set_session(user.id, Idle())
    ids = state.candidates
    items = {i.id: i for i in await interviews.list_review_items(user.id)}
    item = items.get(state.item)
    if cmd.choice is None:
        own = await questions.get(state.personal)
        graded = await grade_recalled(answers, user, own, item.answer_text) if own and item else []
        key = "review.kept_personal_graded" if graded else "review.kept_personal"
        return [Reply(t(lang, key), [] if graded else [[Button("/drill", actions.Next().encode())]]), *graded]
    chosen = bank.get(ids[cmd.choice]) if 0 <= cmd.choice < len(ids) else None
    if chosen is None or item is None:
        return [Reply(t(lang, "flow.expired"))]
    update = {"question_id": chosen.id, "matched_bank": True, "topic": chosen.topic, "subtopic": chosen.subtopic}
    if not await interviews.relink_review_item(item.model_copy(update=update)):
        return [Reply(t(lang, "flow.expired"))]
    await _due_now(cards, user, chosen.id, now)
    personal = await cards.card_for_question(user.id, state.personal)
    if personal is not None:
        await cards.save_card(personal.model_copy(update={"suspended": True}))
    graded = await grade_recalled(answers, user, chosen, item.answer_text)
    return [_filed_reply(lang, item.company, chosen, True, bool(graded)), *graded]


def _filed_reply(lang: Lang, company: str, question: Question, matched: bool, graded: bool = False) -> Reply:
    """What the question was filed as; with its recalled answer graded (the grade follows), the card is
    scheduled from it rather than due now."""
    key = "review.matched" if matched else "review.generated" if question.generated_rubric else "review.personal"
    subtopic = subtopic_name(question.subtopic, lang)
    text = t(lang, key, company=company, subtopic=subtopic, rubric=_short(question.prompt.get(lang), RUBRIC_CHARS))
    if graded:
        return Reply(text + " " + t(lang, "review.answer_graded"))
    return Reply(text + " " + t(lang, "review.due_now"), [[Button("/drill", actions.Next().encode())]])


async def _due_now(cards: CardsPort, user: User, question_id: str, now: datetime) -> None:
    card = await cards.card_for_question(user.id, question_id)
    if card is None:
        await cards.create_card(user.id, question_id, srs.new_state(now), now, True, now)
    else:
        await cards.save_card(card.model_copy(update={"due": now, "suspended": False, "personal": True}))


def _short(text: str, limit: int = 48) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


async def _file_review(
    filing: Filing,
    user: User,
    company: str,
    question_text: str,
    answer: str,
    matched: Question | None,
    nearest: Question | None,
) -> tuple[ReviewItem, Question]:
    """Write the review: the matched bank question's card, or a personal question under `nearest`'s subtopic
    (a written rubric keeps its own subtopic when it is one of the bank's)."""
    now = filing.clock.now()
    personal: Question | None = None
    if matched is None:
        topic, subtopic = (nearest.topic, nearest.subtopic) if nearest else ("other", "interview")
        rubrics = Rubrics(filing.rubric_writer, filing.budget, filing.bank)
        personal = await personal_question(
            question_text, topic, subtopic, rubrics, user, now, refile=nearest is not None
        )
    target = matched or personal
    assert target is not None
    item = ReviewItem(
        id=0,
        user_id=user.id,
        company=company,
        question_text=question_text,
        answer_text=answer.strip(),
        question_id=target.id,
        matched_bank=matched is not None,
        topic=target.topic,
        subtopic=target.subtopic,
        created_at=now,
    )
    # one transaction: a failure leaves no personal question or card without its review entry
    item, saved = await filing.interviews.log_review(item, personal, srs.new_state(now), now)
    question = matched or saved
    assert question is not None
    return item, question
