"""Messages that guide a new user past what trips them up: how to give each setting, a form left open
or dropped by another command, a far-off interview date, why there is no question now, a deleted user,
the /export Markdown file, and /company (merging two names of one company). Merged into the catalogue in bot/kernel/i18n.py."""

from __future__ import annotations

GUIDANCE_MESSAGES: dict[str, dict[str, str]] = {
    "user_gone": {
        "en": "I no longer have your data (it was deleted), so I did not act on this. Send /start to begin again.",
        "zh": "你的数据已经删除，所以这条消息我没有处理。发送 /start 可以重新开始。",
    },
    "console.intro": {
        "en": "Type /start to begin, /help for commands, /quit to leave. A multi-line answer goes between two "
        'lines of """.\nA number picks a button; where I wait for text (buttons shown as [#1]), type #1 to press one.',
        "zh": '发送 /start 开始，/help 查看命令，/quit 退出。多行回答请放在两行 """ 之间。\n'
        "输入数字即可选择按钮；在我等待你输入文字时（按钮显示为 [#1]），请输入 #1 来按下按钮。",
    },
    "usage.setting.timezone": {
        "en": "/settings tz Asia/Shanghai (an IANA name, or a city such as Beijing or London)",
        "zh": "/settings tz Asia/Shanghai（IANA 时区名，也可以写城市，如 北京、伦敦）",
    },
    "usage.setting.daily_time": {
        "en": "/settings time 08:30 (8pm and 早上八点 work too)",
        "zh": "/settings time 08:30（也可以写“早上八点”“晚上9点半”或 8pm）",
    },
    "usage.setting.level": {
        "en": "/settings level campus | engineer | researcher",
        "zh": "/settings level campus（校招）| engineer（工程师）| researcher（研究员）",
    },
    "usage.setting.topics": {
        "en": "/settings topics stability | pipeline | both",
        "zh": "/settings topics stability（稳定性）| pipeline（训练流程）| both（都要）",
    },
    "usage.setting.new_per_day": {
        "en": "/settings new 5 (new questions a day, 0 to 50)",
        "zh": "/settings new 5（每天的新题数，0 到 50）",
    },
    "usage.setting.quiet_hours": {
        "en": "/settings quiet 23:00-08:00 (no pushes in that window; 11pm-8am works too; off clears it)",
        "zh": "/settings quiet 23:00-08:00（这段时间不推送；也可以写“晚上11点到早上8点”；off 关闭）",
    },
    "usage.setting.weekly_day": {
        "en": "/settings weekly sun (the day of your weekly summary: mon ... sun, or off)",
        "zh": "/settings weekly 周日（每周回顾的日子：周一 到 周日，或 off 关闭）",
    },
    "usage.setting.dm_opt_in": {
        "en": "/settings dm on | off (your daily drill by direct message)",
        "zh": "/settings dm on | off（是否通过私信推送每日练习）",
    },
    "usage.setting.language": {"en": "/settings lang zh | en", "zh": "/settings lang zh | en"},
    "flow.still_open": {
        "en": "Your {command} is not saved yet; it is still open:",
        "zh": "你的 {command} 还没有保存，仍在进行：",
    },
    "flow.dropped": {
        "en": "The {command} you were filling in was not saved: nothing of it was logged.",
        "zh": "你刚才填写的 {command} 没有保存，其中的内容都没有记录。",
    },
    "flow.dropped_resend": {
        "en": "To log it, send:\n{line}",
        "zh": "要记录它，请发送：\n{line}",
    },
    "interview.check_past": {
        "en": "{when} was {days} ago. Log it as an interview that already happened? "
        "(If it is still to come, check the date and send it again.)",
        "zh": "{when} 是 {days}前。要把它记为一场已经结束的面试吗？（如果面试还没到，请检查日期后重新发送。）",
    },
    "interview.check_future": {
        "en": "{when} is {days} from now. Is that date right?",
        "zh": "{when} 距今还有 {days}。这个日期对吗？",
    },
    "nothing_due.bank_done": {
        "en": "Nothing is due, and every bank question of your topics is already in your deck. Next review: "
        "{next}. Log a real interview question with /review{more}.",
        "zh": "目前没有到期的题目，你所选主题的题库题目也都已加入题组。下次复习：{next}。"
        "可以用 /review 记录真实面试题{more}。",
    },
    "nothing_due.more_topics": {
        "en": ", or add the other topic with /settings topics both",
        "zh": "，或用 /settings topics both 加入另一个主题",
    },
    "nothing_due.new_off": {
        "en": "Nothing is due, and new questions are off (0 a day). Next review: {next}. "
        "Turn them on with /settings new 5, or log a real interview question with /review.",
        "zh": "目前没有到期的题目，每日新题也已关闭（每天 0 道）。下次复习：{next}。"
        "可以用 /settings new 5 重新开启，或用 /review 记录真实面试题。",
    },
    "nothing_due.at_max": {
        "en": "Nothing is due and you have had today's {new}, the most a day. Next review: "
        "{next}. More come tomorrow; meanwhile log a real interview question with /review.",
        "zh": "目前没有到期的题目，今天的 {new}（每天的上限）也已完成。下次复习：{next}。"
        "明天会有新题；现在可以用 /review 记录真实面试题。",
    },
    "export.markdown": {
        "en": "And your answers as Markdown, grouped by question, with their dates and scores.",
        "zh": "另附 Markdown 格式的作答记录，按题目分组，含日期和得分。",
    },
    "export.markdown_part": {
        "en": "Your answers as Markdown, grouped by question: part {part} of {parts}.",
        "zh": "Markdown 格式的作答记录，按题目分组：第 {part} 部分，共 {parts} 部分。",
    },
    "export.md.title": {
        "en": "My interview drill answers ({answers} to {questions}, exported {date})",
        "zh": "我的面试练习作答记录（{questions}，{answers}，导出于 {date}）",
    },
    "export.md.score": {"en": "score {score}/100 ({rating})", "zh": "得分 {score}/100（{rating}）"},
    "export.md.self_rated": {"en": "self-rated {rating}", "zh": "自评：{rating}"},
    "export.md.checked": {
        "en": "offline check: key points found {found}/{total}; {rating}",
        "zh": "离线检查：找到 {found}/{total} 个要点；{rating}",
    },
    "export.md.your_rating": {"en": "your rating {rating}", "zh": "你的评级：{rating}"},
    "export.md.not_rated": {"en": "not rated by you yet", "zh": "你还没有评级"},
    "export.md.disagreed": {
        "en": "score {score}/100 ({grader}); you disagreed: {rating}",
        "zh": "得分 {score}/100（{grader}）；你不同意，自评：{rating}",
    },
    "export.md.revealed": {"en": "reference answer shown (Again)", "zh": "查看了参考答案（记为重来）"},
    "export.md.ungraded": {"en": "not graded yet", "zh": "尚未评分"},
    "export.md.follow_up": {"en": "follow-up", "zh": "追问"},
    "export.md.follow_up_question": {"en": "**Follow-up:** {text}", "zh": "**追问：**{text}"},
    "export.md.follow_up_unknown": {
        "en": "(the question asked was not kept with this older answer)",
        "zh": "（这条较早的回答没有保存当时的追问）",
    },
    "export.md.no_answer": {"en": "(no answer)", "zh": "（未作答）"},
    "export.md.continued": {"en": "(continued)", "zh": "（续）"},
    "company.list": {
        "en": "Companies you have logged, counted as in /stats:",
        "zh": "你记录过的公司（与 /stats 的统计一致）：",
    },
    "company.how": {
        "en": "Two names for one company? Merge them: /company OLD = NEW, e.g. /company Tencnet = Tencent",
        "zh": "同一家公司记成了两个名字？可以这样合并：/company 旧名 = 新名，例如 /company Tencnet = Tencent",
    },
    "company.usage": {
        "en": "/company OLD = NEW merges two names of one company (e.g. /company Tencnet = Tencent); "
        "/company alone lists your companies",
        "zh": "/company 旧名 = 新名 合并同一家公司的两个名字（例如 /company Tencnet = Tencent）；只发 /company 会列出你记录过的公司",
    },
    "company.none": {
        "en": "You have not logged any company yet. Log an interview with /interview, or a question you were "
        "asked with /review.",
        "zh": "你还没有记录过任何公司。可以用 /interview 记录一场面试，或用 /review 记录被问到的问题。",
    },
    "company.need_old": {
        "en": 'Write the name to replace before the "=": /company old name = {new}',
        "zh": "请在“=”前写上要替换的名字：/company 旧名 = {new}",
    },
    "company.need_new": {
        "en": 'Write the new name after the "=": /company {old} = new name',
        "zh": "请在“=”后写上新名字：/company {old} = 新名",
    },
    "company.too_long": {
        "en": "The new name is {length} characters; the limit is {limit}. Please shorten it and send it again.",
        "zh": "新名字有 {length} 个字符，上限是 {limit}。请缩短后重新发送。",
    },
    "company.same": {
        "en": '"{old}" and "{new}" already count as one company, so there is nothing to merge.',
        "zh": "“{old}”和“{new}”已经算作同一家公司，无需合并。",
    },
    "company.not_found": {
        "en": 'You have no interview or question logged as "{old}". Your companies: {names}. '
        "Send /company to see them with their counts.",
        "zh": "你没有以“{old}”记录的面试或问题。你记录过的公司：{names}。发送 /company 可查看各自的数量。",
    },
    "company.and": {"en": "{first} and {second}", "zh": "{first}和 {second}"},
    "company.merged": {
        "en": 'Merged: I moved {counts} from "{old}" to "{new}".',
        "zh": "已合并：记为“{old}”的 {counts}已改记为“{new}”。",
    },
    "stats.company_merge_hint": {
        "en": "Two names for one company? /company merges them.",
        "zh": "同一家公司记成了两个名字？用 /company 可以合并。",
    },
}
