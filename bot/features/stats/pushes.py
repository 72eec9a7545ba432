"""/stats's push: the weekly summary on the user's weekly day (it names what it reads: `History`)."""

from __future__ import annotations

from datetime import timedelta

from bot.features.stats.report import History, build_progress, chart_attachment
from bot.kernel import actions
from bot.kernel.i18n import t, tn
from bot.kernel.models import User
from bot.kernel.push_rules import register_push
from bot.kernel.render import subtopic_name
from bot.kernel.replies import Button, Reply


async def weekly_summary(user: User, history: History) -> list[Reply] | None:
    now = history.clock.now()
    attempts = [
        a
        for a in await history.attempts.list_attempts(user.id)
        if not a.is_follow_up and a.created_at > now - timedelta(days=7) and a.status in ("graded", "regrade")
    ]
    if not attempts:
        return [Reply(t(user.language, "push.weekly_empty"), [[Button("/drill", actions.Next().encode())]])]
    scores: dict[str, list[int]] = {}
    for a in attempts:
        q = await history.questions.get(a.question_id)
        if a.grade is not None and q is not None:
            scores.setdefault(q.subtopic, []).append(a.grade.score)
    all_scores = [s for v in scores.values() for s in v]
    mean = round(sum(all_scores) / len(all_scores)) if all_scores else None
    weakest = min(scores, key=lambda k: sum(scores[k]) / len(scores[k])) if scores else None
    lang = user.language
    text = t(
        lang,
        "push.weekly",
        answers=tn(lang, "count.answer", len(attempts)),
        mean=mean if mean is not None else "-",
        weakest=subtopic_name(weakest, lang) if weakest else "-",
    )
    image = await chart_attachment(history.charts, await build_progress(history, user), user.language)
    return [Reply(text, [[Button("/drill", actions.Next().encode())]], image=image, kind="weekly")]


register_push("weekly", weekly_summary)
