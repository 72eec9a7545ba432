"""/company: the companies a user logged, as /stats groups them, and a user-confirmed merge of two names
the alias table (bot/features/review/companies.py) does not know are one, such as a typo ("Tencnet") or a lab's names
in two languages. `/company OLD = NEW` gives every interview and review item of the user whose company folds
to OLD's key the company NEW, in one transaction; no other user's entries are touched."""

from __future__ import annotations

from bot.features.review.companies import company_key, company_name
from bot.features.stats.chart_data import CompanyAsked
from bot.features.stats.progress import interview_insights
from bot.features.stats.report import interview_counts, shorten
from bot.kernel import commands as c
from bot.kernel.i18n import listing, t, tn
from bot.kernel.limits import Limits
from bot.kernel.models import InterviewLog, Lang, ReviewItem, User
from bot.kernel.replies import Reply
from bot.kernel.store_ports import InterviewsPort

ECHO_CHARS = 60  # what the user typed, echoed in a reply (a listed name is shown whole: it is what they type)


async def _logged(
    interviews_port: InterviewsPort, user: User
) -> tuple[list[InterviewLog], list[ReviewItem], list[CompanyAsked]]:
    interviews = await interviews_port.list_interviews(user.id)
    items = await interviews_port.list_review_items(user.id)
    return interviews, items, interview_insights(interviews, items, []).companies


def _name(company: str, lang: Lang) -> str:
    return " ".join(company_name(company, lang).split())


def _quoted(text: str) -> str:
    return shorten(text, ECHO_CHARS)


async def show_companies(cmd: c.ShowCompanies, user: User, interviews: InterviewsPort) -> list[Reply]:
    lang = user.language
    _interviews, _items, companies = await _logged(interviews, user)
    if not companies:
        return [Reply(t(lang, "company.none"))]
    lines = [t(lang, "company.list")]
    for company in companies:
        counts = interview_counts(lang, company.interviews, company.questions)
        lines.append(t(lang, "stats.company_line", company=_name(company.company, lang), counts=counts, subtopics=""))
    lines.append(t(lang, "company.how"))
    return [Reply("\n".join(lines))]


def _changed(lang: Lang, interviews: int, items: int) -> str:
    """ "2 interviews and 1 question", leaving out a zero count."""
    parts = [tn(lang, "count.interview", interviews)] if interviews else []
    if items or not interviews:
        parts.append(tn(lang, "count.question", items))
    return t(lang, "company.and", first=parts[0], second=parts[1]) if len(parts) == 2 else parts[0]


async def merge_companies(cmd: c.MergeCompanies, user: User, interviews: InterviewsPort, limits: Limits) -> list[Reply]:
    lang, old, new = user.language, cmd.old.strip(), " ".join(cmd.new.split())  # one line, as a name is shown
    limit = limits.max_field_chars
    if not old:
        return [Reply(t(lang, "company.need_old", new=_quoted(new) or "…"), kind="error")]
    if not new:
        return [Reply(t(lang, "company.need_new", old=_quoted(old)), kind="error")]
    if len(new) > limit:
        return [Reply(t(lang, "company.too_long", length=len(new), limit=limit), kind="error")]
    key = company_key(old)
    if company_key(new) == key:
        return [Reply(t(lang, "company.same", old=_quoted(old), new=_quoted(new)), kind="error")]
    held, items, companies = await _logged(interviews, user)
    if not companies:
        return [Reply(t(lang, "company.none"), kind="error")]
    logged = [x.company for x in held] + [x.company for x in items]
    names = {name for name in logged if company_key(name) == key}
    if not names:
        known = listing(lang, (_name(company.company, lang) for company in companies))
        return [Reply(t(lang, "company.not_found", old=_quoted(old), names=known), kind="error")]
    changed_interviews, changed_items = await interviews.rename_company(user.id, names, new)
    changed = _changed(lang, changed_interviews, changed_items)
    return [Reply(t(lang, "company.merged", counts=changed, old=_quoted(old), new=_quoted(new)))]
