"""Messages of the application board (/apps): bot/features/apps/apps.py, apps_data.py and apps_view.py."""

from __future__ import annotations

APPS_MESSAGES: dict[str, dict[str, str]] = {
    "help.apps": {
        "en": "\n/apps - your application board: /apps add Company | role, /apps N to open one "
        "(move its stage, add a note, set a reminder), /apps insights for what interviews asked",
        "zh": "\n/apps（/投递）- 投递看板：/apps add 公司 | 岗位 添加，/apps 编号 查看某一条（推进阶段、加备注、设提醒），"
        "/apps insights 查看面试常考点",
    },
    "cmd.apps": {"en": "apps", "zh": "投递看板"},
    "cmd.apps.desc": {
        "en": "Your application board: stages, notes, reminders and what interviews asked",
        "zh": "投递看板：阶段、备注、提醒，以及面试问了什么",
    },
    "opt.action": {"en": "action", "zh": "操作"},
    "opt.action.desc": {
        "en": "e.g. add ByteDance | LLM infra, 3, 3 stage technical 2, 3 note ..., 3 remind 7, insights",
        "zh": "例如 add 字节跳动 | 大模型训练、3、3 二面、3 note 内容、3 remind 7、insights",
    },
    "apps.usage": {
        "en": "/apps (the board), /apps add Company | role | notes, /apps N, /apps N stage technical 2, "
        "/apps N note text, /apps N remind 7, /apps N remind off, /apps N delete, /apps insights",
        "zh": "/apps（看板）、/apps add 公司 | 岗位 | 备注、/apps 编号、/apps 编号 二面、/apps 编号 note 内容、"
        "/apps 编号 remind 7、/apps 编号 取消提醒、/apps 编号 delete、/apps insights",
    },
    "apps.usage_add": {"en": "/apps add Company | role | notes", "zh": "/apps add 公司 | 岗位 | 备注"},
    "apps.stage.applied": {"en": "Applied", "zh": "已投递"},
    "apps.stage.screen": {"en": "Screen", "zh": "简历筛选"},
    "apps.stage.technical": {"en": "Technical", "zh": "技术面"},
    "apps.stage.round": {"en": "Technical round {n}", "zh": "第 {n} 轮技术面"},
    "apps.stage.hr": {"en": "HR", "zh": "HR 面"},
    "apps.stage.offer": {"en": "Offer", "zh": "Offer"},
    "apps.stage.rejected": {"en": "Rejected", "zh": "未通过"},
    "apps.stage.withdrawn": {"en": "Withdrawn", "zh": "已放弃"},
    "apps.empty": {
        "en": "Your board is empty. Add an application with /apps add Company | role, or tap Add.",
        "zh": "看板还是空的。用 /apps add 公司 | 岗位 添加一条投递，或点“添加”。",
    },
    "apps.board_title": {
        "en": "Application board: open {open}, closed {closed}",
        "zh": "投递看板：进行中 {open} 个，已结束 {closed} 个",
    },
    "apps.column": {"en": "{stage} ({n})", "zh": "{stage}（{n}）"},
    "apps.more": {"en": "… and {n} more (open one with /apps N)", "zh": "……另有 {n} 个（用 /apps 编号 查看）"},
    "apps.closed": {"en": "Closed: {summary}", "zh": "已结束：{summary}"},
    "apps.closed_column": {"en": "Closed", "zh": "已结束"},
    "apps.board_hint": {
        "en": "Open one with /apps N; move it with /apps N stage technical 2 (or tap its buttons).",
        "zh": "用 /apps 编号 查看某一条；用 /apps 编号 二面 推进阶段（也可以点按钮）。",
    },
    "apps.history": {"en": "Stages: {steps}", "zh": "阶段：{steps}"},
    "apps.notes": {"en": "Notes ({n}):", "zh": "备注（{n}）："},
    "apps.interviews": {"en": "Interviews:", "zh": "面试："},
    "apps.asked": {"en": "Asked ({n}):", "zh": "被问到的题（{n}）："},
    "apps.reminder_set": {"en": "Follow-up reminder: {when}", "zh": "跟进提醒：{when}"},
    "apps.not_practised": {"en": "not practised yet", "zh": "还没练过"},
    "apps.held": {"en": "held {percent}%", "zh": "掌握 {percent}%"},
    "apps.insights_empty": {
        "en": "No interview questions are attached to your applications yet. Log the questions you were asked "
        "with /review Company | question: they join the application at that company.",
        "zh": "你的投递下还没有面试题。用 /review 公司 | 问题 记录被问到的题，它会自动归到这家公司的投递下。",
    },
    "apps.insights_title": {"en": "What your interviews asked ({counts})", "zh": "面试都问了什么（{counts}）"},
    "apps.top_topics": {"en": "By topic: {topics}", "zh": "按主题：{topics}"},
    "apps.top_subtopics": {"en": "Asked most: {subtopics}", "zh": "问得最多：{subtopics}"},
    "apps.by_company": {"en": "By company:", "zh": "按公司："},
    "apps.by_stage": {"en": "By stage:", "zh": "按阶段："},
    "apps.prepare": {
        "en": "For your next round at {company}, prepare these (asked there: {subtopics}):",
        "zh": "{company} 的下一轮，先准备这几题（那里问过：{subtopics}）：",
    },
    "apps.prepare_general": {
        "en": "For your next round at {company}, prepare these (nothing logged there yet; asked elsewhere: "
        "{subtopics}):",
        "zh": "{company} 的下一轮，先准备这几题（那里还没有记录；其他公司问过：{subtopics}）：",
    },
    "apps.short_asked": {"en": "Asked most: {subtopics}", "zh": "问得最多：{subtopics}"},
    "apps.short_prepare": {
        "en": "Next round at {company}: what to prepare is in /apps insights",
        "zh": "{company} 的下一轮要准备什么，见 /apps insights",
    },
    "apps.bad_stage": {
        "en": "I don't know the stage “{value}”. Use applied, screen, technical 2, hr, offer, rejected or withdrawn.",
        "zh": "看不懂阶段“{value}”。可以用：投递、简历筛选、一面、二面、HR面、offer、拒、放弃。",
    },
    "apps.already": {"en": "It is at {stage} already.", "zh": "已经是{stage}了。"},
    "apps.moved": {"en": "#{number} {company} moved to {stage}.", "zh": "#{number} {company} 已推进到{stage}。"},
    "apps.closed_now": {
        "en": "#{number} {company} closed: {stage}. It stays on the board under Closed.",
        "zh": "#{number} {company} 已结束：{stage}。它会留在看板的“已结束”里。",
    },
    "apps.ask_note": {"en": "Your note on {company}?", "zh": "给 {company} 加一条备注："},
    "apps.note_too_long": {
        "en": "That note is {length} characters; a note holds up to {limit}. Send a shorter one.",
        "zh": "这条备注有 {length} 个字符，上限是 {limit}。请精简后再发。",
    },
    "apps.too_many_notes": {
        "en": "This application has the most notes it can hold ({limit}). Delete it and add it again to start over.",
        "zh": "这条投递的备注已达上限（{limit} 条）。可以删除后重新添加。",
    },
    "apps.noted": {"en": "Note saved on {company} ({n} of {limit}).", "zh": "已给 {company} 加上备注（{n}/{limit}）。"},
    "apps.bad_days": {
        "en": "Give a number of days from 1 to {limit}, e.g. /apps 3 remind 7.",
        "zh": "请给出 1 到 {limit} 之间的天数，例如 /apps 3 remind 7。",
    },
    "apps.ask_days": {"en": "Remind you to follow up on {company} in…", "zh": "多久后提醒你跟进 {company}？"},
    "apps.confirm_delete": {
        "en": "Delete the application at {company} with its notes? The interviews and questions you logged stay.",
        "zh": "删除 {company} 这条投递及其备注？你记录的面试和题目会保留。",
    },
    "apps.deleted": {"en": "Deleted the application at {company}.", "zh": "已删除 {company} 这条投递。"},
    "apps.too_many": {
        "en": "Your board is full (the limit is {limit}). Delete ones you no longer need with /apps N delete.",
        "zh": "看板已满（上限 {limit} 条）。用 /apps 编号 delete 删掉不再需要的。",
    },
    "apps.ask_company": {"en": "Which company?", "zh": "哪家公司？"},
    "apps.ask_role": {"en": "The role at {company}? (or Skip)", "zh": "{company} 的什么岗位？（可跳过）"},
    "apps.ask_notes": {
        "en": "Any notes, e.g. who referred you? (or Skip)",
        "zh": "有什么备注吗？比如内推人。（可跳过）",
    },
    "apps.field_too_long": {
        "en": "That is {length} characters; a company or role takes up to {limit}.",
        "zh": "这有 {length} 个字符，公司或岗位名最多 {limit} 个。",
    },
    "apps.added": {
        "en": "Added #{number} {company} at Applied. Move it along as it goes.",
        "zh": "已添加 #{number} {company}，阶段：已投递。有进展时随时推进。",
    },
    "apps.cancelled": {"en": "Cancelled; nothing was saved.", "zh": "已取消，没有保存。"},
    "apps.not_found": {
        "en": "No such application on your board. /apps shows their numbers.",
        "zh": "你的看板上没有这条投递。/apps 可以看到编号。",
    },
    "apps.too_many_reminders": {
        "en": "This application has the most pending reminders it can ({limit}).",
        "zh": "这条投递待发的提醒已达上限（{limit} 个）。",
    },
    "apps.reminder_added": {
        "en": "I'll remind you to follow up on {company} in {days} ({when}).",
        "zh": "{days}后（{when}）提醒你跟进 {company}。",
    },
    "apps.reminders_cancelled": {
        "en": "Cancelled {count} to follow up on {company}.",
        "zh": "已取消跟进 {company} 的 {count}。",
    },
    "apps.no_reminders": {
        "en": "No follow-up reminder on {company} is waiting to be sent.",
        "zh": "{company} 没有待发送的跟进提醒。",
    },
    "apps.follow_up_push": {
        "en": "Time to follow up on #{number} {company}: {stage}, last change {days} ago. "
        "A short note to the recruiter keeps it moving.",
        "zh": "该跟进 #{number} {company} 了：{stage}，上次变化在 {days}前。给 HR 发条简短消息，推动一下进度。",
    },
    "apps.btn.add": {"en": "Add", "zh": "添加"},
    "apps.btn.insights": {"en": "Insights", "zh": "面试洞察"},
    "apps.btn.board": {"en": "Board", "zh": "看板"},
    "apps.btn.open": {"en": "Open", "zh": "查看"},
    "apps.btn.note": {"en": "Add a note", "zh": "加备注"},
    "apps.btn.remind": {"en": "Remind me", "zh": "提醒我"},
    "apps.btn.remind_off": {"en": "Cancel reminders", "zh": "取消提醒"},
    "apps.btn.delete": {"en": "Delete", "zh": "删除"},
    "apps.btn.delete_yes": {"en": "Yes, delete", "zh": "确认删除"},
    "apps.btn.skip": {"en": "Skip", "zh": "跳过"},
    "apps.btn.days": {"en": "In {days}", "zh": "{days}后"},
}
