"""Reading a pasted job description (/jd): the skills it asks for, read by the LLM (`jd_reader`) or
offline (bot/features/jd/match.py); the JD kept; questions the LLM wrote for it added to the user's deck; and
the reply: each matched subtopic with the user's mastery and due cards, the skills the bank does not cover,
and buttons choosing how many days the JD focuses the practice. What /jd uses is `Jobs`, the group its handlers
name (bot/features/career/tool.py)."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from bot.features.career.models import JobDescription
from bot.features.jd.match import JdMatch, matcher_for, read_offline, split_focus
from bot.features.jd.ports import JobsPort
from bot.features.review.personal_questions import Rubrics, personal_question
from bot.features.stats.chart_data import Mastery
from bot.features.stats.progress import mastery_by_subtopic, reviewed
from bot.kernel import srs
from bot.kernel.bank import Bank
from bot.kernel.i18n import listing, t, tn
from bot.kernel.inject import group
from bot.kernel.limits import Limits
from bot.kernel.llm_budget import Budget
from bot.kernel.lookups import Questions
from bot.kernel.models import Lang, User
from bot.kernel.ports import Clock, JdReader, RubricWriter
from bot.kernel.render import subtopic_name
from bot.kernel.replies import Button, Reply
from bot.kernel.store_ports import AttemptsPort, CardsPort, InterviewsPort, UsersPort

MAX_JDS = 20  # job descriptions one user keeps
MAX_QUESTIONS = 5  # questions the LLM may add to the deck per job description
FOCUS_DAYS = (7, 14, 30)  # the buttons after a reading
TITLE_CHARS = 60
SKILL_CHARS = 60  # one skill as the LLM wrote it, at most ...
MAX_SKILLS = 40  # ... and how many of them are kept
GENERATED_SOURCE = "generated:jd"
"""The source of a question written for a job description (with the JD's id after a colon)."""


@group
@dataclass(frozen=True)
class Jobs:
    """What /jd uses: the user's state, their job descriptions, cards, answers and personal questions (the questions
    written for a JD), the questions by id, the bank, the LLM reader and rubric writer with the budget of LLM calls,
    the clock and the limits."""

    users: UsersPort
    jds: JobsPort
    cards: CardsPort
    attempts: AttemptsPort
    interviews: InterviewsPort
    questions: Questions
    bank: Bank
    jd_reader: JdReader | None
    rubric_writer: RubricWriter | None
    budget: Budget
    clock: Clock
    limits: Limits


@dataclass
class Reading:
    """What was read from one job description, and how."""

    skills: list[str]
    subtopics: list[str]
    """The focus: the strongest 3 to 6 (match.split_focus)."""
    uncovered: list[str]
    questions: list[str] = field(default_factory=list)
    mentioned: list[str] = field(default_factory=list)
    """The other subtopics it names: listed, not focused on."""
    extractor: str = "offline"
    note: str | None = None
    """The i18n key saying why the LLM did not read it (failed, over a limit); None when it did, or none is set."""


def title_of(text: str, lang: Lang) -> str:
    """The first line with words, shortened: what the user sees in /jd list."""
    line = next((" ".join(x.split()) for x in text.splitlines() if x.strip()), "")
    line = line.strip("#*【】[] ") or t(lang, "jd.untitled")
    return line if len(line) <= TITLE_CHARS else line[: TITLE_CHARS - 1].rstrip() + "…"


async def read(text: str, jobs: Jobs, user: User) -> Reading:
    """The LLM's reading when there is a reader and the budget allows, else (or when it fails) the offline one."""
    now, lang = jobs.clock.now(), user.language
    offline = await asyncio.to_thread(read_offline, jobs.bank, text)  # a long text takes a tenth of a second or so
    focus, mentioned = split_focus(offline.subtopics, offline.scores)
    fallback = Reading(offline.skills, focus, offline.uncovered, mentioned=mentioned)
    if jobs.jd_reader is None:
        return fallback
    refused = await jobs.budget.refusal(user, now)
    if refused is not None:
        fallback.note = f"jd.{refused}"
        return fallback
    bank = jobs.bank.subtopics()
    reading = await jobs.jd_reader.read(text, lang, sorted(bank))
    await jobs.budget.spend(user.id, "jd", reading.tokens if reading else 0, now)
    if reading is None:
        fallback.note = "jd.llm_failed"
        return fallback
    skills = list(dict.fromkeys(" ".join(s.split())[:SKILL_CHARS] for s in reading.skills if s.strip()))[:MAX_SKILLS]
    focus, mentioned = split_focus([s for s in dict.fromkeys(reading.subtopics) if s in bank])
    return Reading(
        skills=skills,
        subtopics=focus,
        uncovered=_uncovered(skills, offline, jobs.bank),
        questions=[q.strip() for q in reading.questions if q.strip()][:MAX_QUESTIONS],
        extractor="llm",
        mentioned=mentioned,
    )


def _uncovered(skills: list[str], offline: JdMatch, bank: Bank) -> list[str]:
    """With the LLM's skills: those the offline reader finds no bank subtopic for (by their known name when
    it has one), after the known uncovered skills of the text itself."""
    matcher, found = matcher_for(bank), list(offline.uncovered)
    for skill in skills:
        alone = matcher.match(skill)
        if not alone.subtopics:
            found.extend(alone.uncovered or [skill])
    return list(dict.fromkeys(found))


async def keep(text: str, reading: Reading, jobs: Jobs, user: User) -> JobDescription:
    """Store the job description and add the questions written for it to the user's deck."""
    now = jobs.clock.now()
    jd = await jobs.jds.add_jd(
        JobDescription(
            user_id=user.id,
            title=title_of(text, user.language),
            text=text,
            skills=reading.skills,
            subtopics=reading.subtopics,
            mentioned=reading.mentioned,
            uncovered=reading.uncovered,
            extractor=reading.extractor,
            created_at=now,
        )
    )
    if reading.questions:
        generated = [await _add_question(q, jd, jobs, user, now) for q in reading.questions]
        jd = jd.model_copy(update={"generated": generated})
        await jobs.jds.save_jd(jd)
    return jd


async def _add_question(text: str, jd: JobDescription, jobs: Jobs, user: User, now: datetime) -> str:
    """One question written for the JD, as a personal card due now: with a rubric from the rubric writer
    when it gives one (budget allowing), filed under the JD's first subtopic when its own is not the bank's."""
    text = text[: jobs.limits.max_question_chars]
    subtopic = jd.subtopics[0] if jd.subtopics else "interview"
    topic = next((q.topic for q in jobs.bank.all() if q.subtopic == subtopic), "other")
    question = await personal_question(
        text, topic, subtopic, Rubrics(jobs.rubric_writer, jobs.budget, jobs.bank), user, now
    )
    question = question.model_copy(update={"personal": True, "sources": [f"{GENERATED_SOURCE}:{jd.id}"]})
    saved = await jobs.interviews.add_personal_question(user.id, question)
    await jobs.cards.create_card(user.id, saved.id, srs.new_state(now), now, True, now)
    return saved.id


async def reading_reply(jd: JobDescription, number: int, reading: Reading, jobs: Jobs, user: User) -> Reply:
    """What was read, the user's standing on each matched subtopic, and the buttons choosing the focus."""
    lang = user.language
    lines = [jd.title, t(lang, "jd.read_llm" if reading.extractor == "llm" else "jd.read_offline")]
    if reading.note:
        lines.append(t(lang, reading.note))
    if jd.subtopics:
        lines += ["", t(lang, "jd.matched_header"), *await standing_lines(jd.subtopics, jobs, user)]
    if jd.mentioned:
        names = listing(lang, [subtopic_name(s, lang) for s in jd.mentioned])
        lines += ["", t(lang, "jd.also_mentioned", subtopics=names)]
    if jd.uncovered:
        lines += ["", t(lang, "jd.uncovered", skills=skills_listing(lang, jd.uncovered))]
    if jd.generated:
        lines += ["", t(lang, "jd.generated", questions=tn(lang, "count.question", len(jd.generated)))]
    lines += ["", t(lang, "jd.choose_days", n=number)]
    buttons = [[Button(tn(lang, "count.day", d), f"cr:jd:on:{jd.id}:{d}") for d in FOCUS_DAYS]]
    return Reply("\n".join(lines), buttons, waits_for="waits.jd_days")


def skills_listing(lang: Lang, skills: list[str]) -> str:
    """Every skill (at most MAX_SKILLS were kept): none is hidden behind a count."""
    return listing(lang, skills)


async def standing_lines(subtopics: list[str], jobs: Jobs, user: User) -> list[str]:
    """One line per subtopic (the focus: at most 6): mastery (as /stats computes it) and cards due now, or, when
    not practised yet, how many bank questions it has."""
    lang, now = user.language, jobs.clock.now()
    cards = await jobs.cards.list_cards(user.id)
    attempts = reviewed(await jobs.attempts.list_attempts(user.id))
    ids = {c.question_id for c in cards} | {a.question_id for a in attempts}
    questions = {qid: await jobs.questions.get(qid) for qid in sorted(ids)}
    scored = []
    for a in attempts:
        q = questions.get(a.question_id)
        if a.grade is not None and q is not None:
            scored.append(((q.topic, q.subtopic), a.grade.score))
    mastery: dict[str, Mastery] = {}
    for row in mastery_by_subtopic(cards, scored, questions, now, user.desired_retention):
        mastery.setdefault(row.subtopic, row)
    due: dict[str, int] = defaultdict(int)
    for c in cards:
        q = questions.get(c.question_id)
        if q is not None and not c.suspended and c.due <= now:
            due[q.subtopic] += 1
    in_bank: dict[str, int] = defaultdict(int)
    for q in jobs.bank.all():
        in_bank[q.subtopic] += 1
    lines = []
    for sub in subtopics:
        name, m = subtopic_name(sub, lang), mastery.get(sub)
        if m is None:
            lines.append(t(lang, "jd.line_new", subtopic=name, questions=tn(lang, "count.question", in_bank[sub])))
        else:
            mastered = f"{round(m.strength * 100)}%"
            lines.append(
                t(lang, "jd.line_mastery", subtopic=name, mastery=mastered, due=tn(lang, "count.question", due[sub]))
            )
    return lines
