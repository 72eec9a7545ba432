"""Real interviews' commands (/review, /interview, /company), declared once with the kernel's registry
(bot/kernel/registry.py); importing this module registers them."""

from __future__ import annotations

import re

from bot.features.review import company_merge, flows, interviews
from bot.kernel import commands as c
from bot.kernel.parsing import split_fields
from bot.kernel.registry import Arg, Entry, Slash, SlashCall, register

MERGE_ARROW = re.compile(r"->|=>|→|=|＝")  # /company OLD = NEW (also ＝, -> and →)


def parse_review(user_id: int, rest: str, name: str) -> c.Command | None:
    """`/review company | question | your answer`; alone, a step-by-step flow asks for each part."""
    if not rest:
        return c.StartFlow(user_id, "review")
    fields = split_fields(rest)
    if len(fields) < 2:
        return None
    return c.LogReview(user_id, fields[0], fields[1], " | ".join(fields[2:]))


def parse_interview(user_id: int, rest: str, name: str) -> c.Command | None:
    """`/interview company | role | when` (or `company | when`); alone, a step-by-step flow."""
    if not rest:
        return c.StartFlow(user_id, "interview")
    fields = split_fields(rest)
    if len(fields) == 2:
        return c.LogInterview(user_id, fields[0], "", fields[1])
    if len(fields) != 3:
        return None
    return c.LogInterview(user_id, fields[0], fields[1], fields[2])


def parse_company(user_id: int, rest: str, name: str) -> c.Command | None:
    """`/company` lists the companies; `/company OLD = NEW` merges two names of one."""
    if not rest:
        return c.ShowCompanies(user_id)
    parts = MERGE_ARROW.split(rest, maxsplit=1)
    if len(parts) != 2:
        return None
    return c.MergeCompanies(user_id, parts[0].strip(), parts[1].strip())


def slash_company(call: SlashCall) -> c.Command:
    old, new = call.values.get("old"), call.values.get("new")
    if old is None and new is None:
        return c.ShowCompanies(call.user_id)
    return c.MergeCompanies(call.user_id, old or "", new or "")


register(
    Entry(
        "review",
        parse_review,
        zh=("记题", "面试题"),
        usage_key="review.usage",
        menu_key="menu.review",
        rank=40,
        args=(
            Arg("company", required=True),
            Arg("question", required=True, high=2000),
            Arg("answer", high=4000, key="opt.your_answer"),
        ),
        slash=Slash(
            lambda call: c.LogReview(
                call.user_id, call.values["company"], call.values["question"], call.values.get("answer", "")
            )
        ),
        handlers={
            c.LogReview: interviews.log_review,
            c.PickReview: interviews.pick_review,
            c.StartFlow: flows.start_flow,
        },
    ),
    Entry(
        "interview",
        parse_interview,
        zh=("面试",),
        usage_key="interview.usage",
        menu_key="menu.interview",
        rank=50,
        args=(Arg("company", required=True), Arg("when", required=True, high=100), Arg("role")),
        slash=Slash(
            lambda call: c.LogInterview(
                call.user_id, call.values["company"], call.values.get("role", ""), call.values["when"]
            )
        ),
        handlers={c.LogInterview: interviews.log_interview},
    ),
    Entry(
        "company",
        parse_company,
        aliases=("companies",),
        zh=("公司",),
        usage_key="company.usage",
        menu_key="menu.company",
        rank=110,
        args=(Arg("old"), Arg("new")),
        slash=Slash(slash_company),
        handlers={c.ShowCompanies: company_merge.show_companies, c.MergeCompanies: company_merge.merge_companies},
    ),
)
