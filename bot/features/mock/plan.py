"""Which questions a mock interview asks: the focus's pool, due and new cards mixed, and a spread of
subtopics and types (at least one fault question, one compare or concept question, and a case question
from engineer level up, when the pool has them), in the order an interviewer would ask them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.features.jd import focus
from bot.features.jd.ports import JobsPort
from bot.features.mock.models import DEFAULT_LENGTH, FocusKind
from bot.kernel.bank import Bank
from bot.kernel.inject import group
from bot.kernel.lookups import Matching, Questions
from bot.kernel.models import LEVELS, Card, Level, Question, QuestionType, User
from bot.kernel.store_ports import AttemptsPort, CardsPort, InterviewsPort
from bot.text.fold import squash

# Seconds a spoken answer of each type takes in a real round (a follow-up: FOLLOW_UP_BUDGET).
BUDGET: dict[QuestionType, int] = {"concept": 180, "compare": 180, "open": 240, "fault": 240, "case": 300, "code": 600}
FOLLOW_UP_BUDGET = 120
# warm-up first; the hand-written code last, as a coding round closes an interview
ORDER: dict[QuestionType, int] = {"concept": 0, "compare": 1, "open": 2, "fault": 3, "case": 4, "code": 5}
WEAKEST_SUBTOPICS = 3
SUGGEST_COMPANY_WITHIN = timedelta(days=21)  # an interview this close makes its company the suggested focus
MIN_GRADED_FOR_WEAKEST = 3
COMPANY_SUBTOPICS = 3  # a company focus spans at least this many subtopics, its own and their nearest
NEIGHBOUR_QUESTIONS, NEIGHBOUR_CANDIDATES = 10, 24  # the last logged questions looked at, the bank questions each


@dataclass(frozen=True)
class Setup:
    focus: FocusKind
    level: Level
    length: int = DEFAULT_LENGTH
    company: str = ""


@group
@dataclass(frozen=True)
class Planning:
    """What plans a mock interview: the user's answers, cards, logged interviews and active job description, the
    questions by id, the bank and the matching against it (a company's neighbouring subtopics)."""

    attempts: AttemptsPort
    cards: CardsPort
    interviews: InterviewsPort
    jds: JobsPort
    questions: Questions
    bank: Bank
    matching: Matching


def _requirements(level: Level) -> list[set[QuestionType]]:
    needs: list[set[QuestionType]] = [{"fault"}, {"compare", "concept"}]
    if level != "campus":
        needs.append({"case"})
    return needs


async def weakest_subtopics(planning: Planning, user: User, limit: int = WEAKEST_SUBTOPICS) -> list[str]:
    """The user's subtopics with the lowest mean score over their graded answers (not follow-ups)."""
    scores: dict[str, list[int]] = defaultdict(list)
    for a in await planning.attempts.list_attempts(user.id):
        if a.grade is None or a.is_follow_up:
            continue
        q = await planning.questions.get(a.question_id)
        if q is not None:
            scores[q.subtopic].append(a.grade.score)
    ranked = sorted(scores, key=lambda s: (sum(scores[s]) / len(scores[s]), s))
    return ranked[:limit]


async def company_subtopics(interviews: InterviewsPort, user: User, company: str) -> tuple[list[str], list[str]]:
    """The subtopics a company asked about in the user's logged interview questions, and those questions."""
    want = squash(company)
    items = [i for i in await interviews.list_review_items(user.id) if squash(i.company) == want]
    subtopics = list(dict.fromkeys(i.subtopic for i in items))
    return subtopics, list(dict.fromkeys(i.question_id for i in items))


async def neighbour_subtopics(planning: Planning, user: User, company: str, subtopics: list[str]) -> list[str]:
    """The subtopics nearest to what a company asked, enough that a round spans COMPANY_SUBTOPICS with the
    company's own: those of the bank questions closest to each logged question (the /review matcher), closest
    first. A company with few logged questions, all on one subtopic, still gets a round an interviewer of theirs
    might ask, not five questions on one subtopic."""
    have = set(subtopics)
    in_bank = {q.subtopic for q in planning.bank.all()}
    if len(have & in_bank) >= COMPANY_SUBTOPICS:
        return []
    want = squash(company)
    items = [i for i in await planning.interviews.list_review_items(user.id) if squash(i.company) == want]
    ranked: dict[str, float] = {}
    for item in items[-NEIGHBOUR_QUESTIONS:]:
        for q, score in await planning.matching.candidates(item.question_text, NEIGHBOUR_CANDIDATES):
            if q.subtopic not in have:
                ranked[q.subtopic] = max(ranked.get(q.subtopic, 0.0), score)
    near = sorted(ranked, key=lambda s: (-ranked[s], s))
    return near[: COMPANY_SUBTOPICS - len(have & in_bank)]


async def companies(interviews: InterviewsPort, user: User) -> list[str]:
    """Companies of the user's logged interview questions, most recently logged first: names that fold to one
    (bot/text/fold.py: full-width letters, case, white space) are one company, named as last logged."""
    items = sorted(await interviews.list_review_items(user.id), key=lambda i: (i.created_at, i.id), reverse=True)
    seen: dict[str, str] = {}
    for i in items:
        seen.setdefault(squash(i.company), i.company.strip())
    return list(seen.values())


async def suggest(planning: Planning, user: User, now: datetime) -> Setup:
    """One tap: the company of an interview coming up soon (when its questions are logged), else the user's
    weakest subtopics once there are graded answers to tell them, else a mixed round."""
    known = {squash(c) for c in await companies(planning.interviews, user)}
    for log in await planning.interviews.list_interviews(user.id):
        if now <= log.at <= now + SUGGEST_COMPANY_WITHIN and squash(log.company) in known:
            return Setup("company", user.level, company=log.company.strip())
    graded = [a for a in await planning.attempts.list_attempts(user.id) if a.grade is not None and not a.is_follow_up]
    return Setup("weakest" if len(graded) >= MIN_GRADED_FOR_WEAKEST else "mixed", user.level)


async def _pool(planning: Planning, user: User, setup: Setup) -> tuple[list[Question], dict[str, int]]:
    """The focus's questions, and the ids to put first, by rank (the very questions a company asked, then the
    other questions of its subtopics; the questions on the weakest subtopics)."""
    bank = planning.bank.all()
    if setup.focus in ("stability", "pipeline"):
        return [q for q in bank if q.topic == setup.focus], {}
    mixed = [q for q in bank if q.topic in user.topics] or bank
    if setup.focus == "weakest":  # the weakest subtopics' questions lead; the rest of the bank tops them up
        weak = set(await weakest_subtopics(planning, user))
        return mixed, {q.id: 0 for q in mixed if q.subtopic in weak}
    if setup.focus == "company":
        subtopics, asked = await company_subtopics(planning.interviews, user, setup.company)
        own = [q for qid in asked if (q := await planning.questions.get(qid)) is not None]
        near = await neighbour_subtopics(planning, user, setup.company, subtopics)
        related = [q for q in bank if q.subtopic in subtopics + near and q.id not in asked]
        first = {qid: 0 for qid in asked} | {q.id: 1 for q in related if q.subtopic in subtopics}
        return own + related, first
    return mixed, {}


def _ranked(
    pool: Iterable[Question],
    cards: dict[str, Card],
    level: Level,
    first: dict[str, int],
    now: datetime,
    lean: Sequence[str] = (),
) -> list[Question]:
    """Due cards (most overdue first) and new questions (the level's, easier first, leaning to an active job
    description's subtopics `lean`: bot/features/jd/focus.py) taken in turn, then the rest."""
    rank = LEVELS.index(level)

    def fit(q: Question) -> tuple[int, int, str]:
        return abs(LEVELS.index(q.level) - rank), q.difficulty, q.id

    due, new, rest = [], [], []
    for q in pool:
        card = cards.get(q.id)
        if card is None or card.is_new:
            new.append(q)
        elif card.due <= now and not card.suspended:
            due.append(q)
        else:
            rest.append(q)
    due.sort(key=lambda q: (cards[q.id].due, q.id))
    new = focus.weighted(sorted(new, key=fit), lean, level)
    rest.sort(key=lambda q: (fit(q)[0], cards[q.id].due, q.id))
    mixed = [q for pair in _zip_longest(due, new) for q in pair]
    ordered = mixed + rest
    return sorted(ordered, key=lambda q: first.get(q.id, len(first) + 2))  # stable: a company's own questions lead


def _zip_longest(a: list[Question], b: list[Question]) -> list[list[Question]]:
    return [
        [x for x in (a[i] if i < len(a) else None, b[i] if i < len(b) else None) if x]
        for i in range(max(len(a), len(b)))
    ]


def choose(ranked: list[Question], length: int, level: Level, lead: int = 0) -> list[Question]:
    """Greedy over the ranking: its first `lead` questions (a company's own), then one question per required
    type, then questions of new subtopics and types, then new subtopics, then anything left; returned warm-up
    first."""
    chosen: list[Question] = ranked[: min(lead, length)]

    def take(ok: object) -> None:
        for q in ranked:
            if len(chosen) >= length:
                return
            if q not in chosen and ok(q):  # type: ignore[operator]
                chosen.append(q)
                return

    for need in _requirements(level):
        if not any(q.type in need for q in chosen):
            fresh = [q for q in ranked if q.type in need and q.subtopic not in {c.subtopic for c in chosen}]
            take(lambda q, fresh=fresh: q in fresh)
            if not any(q.type in need for q in chosen):
                take(lambda q, need=need: q.type in need)
    for spread in (2, 1, 0):
        while len(chosen) < length:
            before = len(chosen)
            subs, types = {c.subtopic for c in chosen}, {c.type for c in chosen}
            take(
                lambda q, s=spread, subs=subs, types=types: (
                    (s < 1 or q.subtopic not in subs) and (s < 2 or q.type not in types)
                )
            )
            if len(chosen) == before:
                break
    return sorted(chosen, key=lambda q: ORDER[q.type])


async def plan(planning: Planning, user: User, setup: Setup, now: datetime) -> list[Question]:
    pool, first = await _pool(planning, user, setup)
    cards = {c.question_id: c for c in await planning.cards.list_cards(user.id)}
    pool = [q for q in pool if q.rubric.key_points and not (q.id in cards and cards[q.id].suspended)]
    lean = focus.subtopics(await planning.jds.active_jd(user.id, now))
    ranked = _ranked(pool, cards, setup.level, first, now, lean)
    # a company's own questions and subtopics lead (they are what it asks), leaving room for their neighbours
    lead = min(sum(q.id in first for q in pool), max(1, setup.length - COMPANY_SUBTOPICS + 1))
    return choose(ranked, setup.length, setup.level, lead if setup.focus == "company" else 0)
