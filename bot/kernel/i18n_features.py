"""Messages of the larger features: /stats and its chart, speaking insights, step-by-step flows,
study servers and scheduled pushes. Merged into the catalogue in bot/kernel/i18n.py."""

from __future__ import annotations

FEATURE_MESSAGES: dict[str, dict[str, str]] = {
    "flow.review.company": {
        "en": "Which company was the interview with? (Send /review company | question | answer to do it in one line.)",
        "zh": "是哪家公司的面试？（也可以一行写完：/review 公司 | 问题 | 回答）",
    },
    "flow.review.question": {
        "en": "What were you asked? Write the question as the interviewer put it.",
        "zh": "面试官问了什么？尽量按原话写下这个问题。",
    },
    "flow.review.answer": {
        "en": "How did you answer? A few lines are enough, or press Skip.",
        "zh": "你当时是怎么回答的？写几句就行，也可以点“跳过”。",
    },
    "flow.review.confirm": {
        "en": "Log this interview question?\n- company: {company}\n- question: {question}\n- your answer: {answer}",
        "zh": "记录这道面试题吗？\n- 公司：{company}\n- 问题：{question}\n- 你的回答：{answer}",
    },
    "flow.interview.company": {
        "en": "Which company is the interview with? (Send /interview company | role | time to do it in one line.)",
        "zh": "面试的是哪家公司？（也可以一行写完：/interview 公司 | 岗位 | 时间）",
    },
    "flow.interview.role": {
        "en": "Which role? Press Skip if you would rather not say.",
        "zh": "应聘什么岗位？不想写可以点“跳过”。",
    },
    "flow.interview.when": {
        "en": "When is it, in your local time? For example 2026-12-03 14:00, tomorrow 14:00 or 明天下午两点.",
        "zh": "面试时间（你的本地时间）？例如 2026-12-03 14:00、明天下午两点、tomorrow 14:00。",
    },
    "flow.interview.confirm": {
        "en": "Log this interview?\n- company: {company}\n- role: {role}\n- when: {when}",
        "zh": "记录这场面试吗？\n- 公司：{company}\n- 岗位：{role}\n- 时间：{when}",
    },
    "flow.none": {"en": "(none)", "zh": "（无）"},
    "flow.required": {
        "en": "This one cannot be empty; please type it.",
        "zh": "这一项不能为空，请输入。",
    },
    "flow.confirm_hint": {
        "en": "Press Save to log it, or Cancel.",
        "zh": "请点“保存”记录，或点“取消”。",
    },
    "flow.cancelled": {"en": "Cancelled; nothing was logged.", "zh": "已取消，没有记录任何内容。"},
    "flow.expired": {
        "en": "That form is closed. Send /review or /interview to start again.",
        "zh": "这张表单已经结束。发送 /review 或 /interview 重新开始。",
    },
    "stats.by_topic": {"en": "Mean score by topic:", "zh": "各主题平均分："},
    "stats.topic_line": {"en": "- {topic}: {mean} ({answers})", "zh": "- {topic}：{mean}（{answers}）"},
    "stats.none": {
        "en": "No answers yet. Send /drill to start.",
        "zh": "还没有作答记录。发送 /drill 开始。",
    },
    "stats.interviews": {"en": "Real interviews logged: {counts}.", "zh": "已记录的真实面试：{counts}。"},
    "stats.header": {"en": "Progress", "zh": "学习进度"},
    "stats.streak": {
        "en": "- streak: {streak} (best {best})",
        "zh": "- 连续练习：{streak}（最长 {best}）",
    },
    "stats.reviews": {
        "en": "- reviews: {total} in all, {week} in the last 7 days",
        "zh": "- 作答：共 {total} 次，近 7 天 {week} 次",
    },
    "stats.week_mean": {
        "en": "- mean score, last 7 days: {this} (the 7 days before: {last}{delta})",
        "zh": "- 近 7 天平均分：{this}（再往前 7 天：{last}{delta}）",
    },
    "stats.due": {
        "en": "- due today: {due_today}; cards: {cards} ({personal} from your interviews)",
        "zh": "- 今天到期：{due_today} 道；题组共 {cards} 道（其中 {personal} 道来自你的面试）",
    },
    "stats.weakest": {
        "en": "Weakest subtopics (recall: the chance you still remember them, on average over the next 7 days "
        "if you do not review them):",
        "zh": "最薄弱的子主题（记忆保持：如果不复习，未来 7 天内平均还能记住的概率）：",
    },
    "stats.weak_line": {
        "en": "- {subtopic}: recall {recall}, mean score {score}",
        "zh": "- {subtopic}：记忆保持 {recall}，平均分 {score}",
    },
    "stats.try": {"en": "  try: {prompt}", "zh": "  建议练：{prompt}"},
    "stats.asked_topics": {"en": "Topics asked: {items}", "zh": "被问到的主题：{items}"},
    "stats.asked_most": {"en": "Subtopics asked most: {items}", "zh": "被问得最多的子主题：{items}"},
    "stats.paren": {"en": " ({text})", "zh": "（{text}）"},
    "stats.delta": {"en": ", {delta}", "zh": "，{delta}"},
    "stats.company_line": {"en": "- {company}: {counts}{subtopics}", "zh": "- {company}：{counts}{subtopics}"},
    "stats.moves": {
        "en": "Your scores on those subtopics, before → since they were first asked:",
        "zh": "这些子主题的得分（首次被问到之前 → 之后）：",
    },
    "stats.move_line": {
        "en": "- {subtopic}: {before} → {since} ({answers} since)",
        "zh": "- {subtopic}：{before} → {since}（之后{answers}）",
    },
    "stats.move_none": {
        "en": "- {subtopic}: not practised since; it is in your deck, /drill brings it up",
        "zh": "- {subtopic}：之后还没练过；它已在你的题组里，发送 /drill 就会出现",
    },
    "chart.title": {
        "en": "Progress · streak {streak} (best {best}) · {reviews}",
        "zh": "学习进度 · 连续 {streak}（最长 {best}）· 共{reviews}",
    },
    "chart.daily": {"en": "Reviews per day, last 30 days", "zh": "近 30 天每日作答"},
    "chart.trend": {"en": "Mean score by week", "zh": "每周平均分"},
    "chart.mastery": {"en": "Mastery", "zh": "掌握度"},
    "chart.recall": {"en": "recall, next 7 days %", "zh": "未来 7 天记忆保持率 %"},
    "chart.score": {"en": "mean score", "zh": "平均分"},
    "chart.due": {"en": "Due in the next 14 days", "zh": "未来 14 天到期"},
    "chart.today": {"en": "today", "zh": "今天"},
    "chart.no_data": {"en": "no data yet", "zh": "暂无数据"},
    "chart.none_due": {"en": "nothing due", "zh": "没有到期的题"},
    "speaking.header": {"en": "Speaking ({seconds} s):", "zh": "口语表现（{seconds} 秒）："},
    "speaking.rate_wpm": {"en": "  pace: {words} a minute", "zh": "  语速：每分钟 {words}"},
    "speaking.rate_cpm": {"en": "  pace: {characters} a minute", "zh": "  语速：每分钟 {characters}"},
    "speaking.fillers": {"en": "  filler words: {count} ({list})", "zh": "  填充词：{count} 个（{list}）"},
    "speaking.fillers_none": {"en": "  filler words: none", "zh": "  填充词：没有，表达很干净"},
    "speaking.tip_fillers": {
        "en": "Tip: about {fillers} a minute. When you need time to think, pause in silence: "
        'a short pause sounds more confident than "um".',
        "zh": "建议：每分钟约 {fillers}。需要思考时安静地停顿一下，短暂的沉默比“嗯”“那个”更显得胸有成竹。",
    },
    "speaking.tip_fast_wpm": {
        "en": "Tip: that is fast. Aim for {low}-{high} words a minute, and slow down on the numbers so they land.",
        "zh": "建议：语速偏快。试着控制在每分钟 {low}-{high} 词，讲到关键数字时放慢一点。",
    },
    "speaking.tip_slow_wpm": {
        "en": "Tip: that is slow. Aim for {low}-{high} words a minute: give the conclusion first, then the details.",
        "zh": "建议：语速偏慢。试着达到每分钟 {low}-{high} 词：先说结论，再展开细节。",
    },
    "speaking.tip_fast_cpm": {
        "en": "Tip: that is fast. Aim for {low}-{high} characters a minute, and slow down on the numbers.",
        "zh": "建议：语速偏快。试着控制在每分钟 {low}-{high} 字，讲到关键数字时放慢一点，让面试官听清。",
    },
    "speaking.tip_slow_cpm": {
        "en": "Tip: that is slow. Aim for {low}-{high} characters a minute: give the conclusion first.",
        "zh": "建议：语速偏慢。试着达到每分钟 {low}-{high} 字：先说结论，再展开细节。",
    },
    "waits.mock": {
        "en": "The mock interview has not started yet, so that was not taken as an answer: it waits for you to press "
        "Start (or to pick another focus below). Or send /mock stability engineer 4 (focus, level, length).",
        "zh": "模拟面试还没有开始，所以刚才的内容没有作为回答：请点“开始”（或在下面选一个方向），"
        "也可以发送 /mock 稳定性 工程师 4（方向、级别、题数）。",
    },
    "waits.jd_days": {
        "en": "Your job description is kept. The buttons below wait for how many days it focuses your practice "
        "(or carry on without). That text was not read: to read another job description, send /jd first.",
        "zh": "职位描述已保存。下面的按钮在等你选择它作为练习重点的天数（也可以不选）。刚才的文字没有被读取："
        "要读取另一份职位描述，请先发送 /jd。",
    },
    "waits.rating": {
        "en": "There is no open question; your last answer waits for your rating (suggested: {rating}). Press one "
        "below, or send /drill for the next question.",
        "zh": "当前没有待回答的题目；你上一题的回答在等你评级（建议：{rating}）。请点下面的按钮，或发送 /drill 做下一题。",
    },
    "waits.review_pick": {
        "en": "Your question is logged. The bank questions offered wait for your pick: press the one it is (its "
        "rubric is then used), or None of these to keep it as your own question.",
        "zh": "你的问题已记录。上面列出的题库题在等你选择：点它对应的那道（之后使用该题的评分要点），"
        "或点“都不是”保留为你自己的题。",
    },
    "push.daily": {"en": "Your daily drill:", "zh": "今日练习："},
    "push.late": {"en": "(This was due at {when}.)", "zh": "（这条原定 {when} 送达。）"},
    "push.weekly": {
        "en": "Your week: {answers}, mean score {mean}. Weakest subtopic: {weakest}. "
        "Send /stats for the full picture, or /drill to keep going.",
        "zh": "本周回顾：{answers}，平均分 {mean}。最薄弱的子主题：{weakest}。发送 /stats 查看详情，或 /drill 继续练习。",
    },
    "push.weekly_empty": {
        "en": "No answers this week. Ten minutes a day is enough: send /drill to start.",
        "zh": "本周还没有作答。每天十分钟就够了：发送 /drill 开始。",
    },
    # study servers (Discord guilds): /setup, the question of the day, /leaderboard
    "server.setup_denied": {
        "en": "Only members with the Manage Server permission can set up the daily question.",
        "zh": "只有拥有“管理服务器”权限的成员才能设置每日一题。",
    },
    "server.setup_done": {
        "en": "Done: the question of the day will be posted in {channel} every day at {time} ({timezone}), "
        "in {language}.",
        "zh": "设置完成：每天 {time}（{timezone}）会在 {channel} 发布每日一题，语言为{language}。",
    },
    "server.setup_off": {
        "en": "The question of the day is off for this server. Run /setup again to turn it back on.",
        "zh": "本服务器的每日一题已关闭。再次使用 /setup 即可重新开启。",
    },
    "server.only": {
        "en": "This command works only in a server.",
        "zh": "这个命令只能在服务器里使用。",
    },
    "server.daily": {"en": "Question of the day · {date}", "zh": "每日一题 · {date}"},
    "server.daily_hint": {
        "en": "Press Answer to reply. Only you will see your grade; your best score on each day's question "
        "counts once toward this server's /leaderboard.",
        "zh": "点击“回答”作答。评分只有你自己能看到；每天这道题取你的最高分，计入本服务器的 /leaderboard 排行榜一次。",
    },
    "server.not_scored": {
        "en": "Only today's and yesterday's questions of the day earn leaderboard points, so this answer earns none.",
        "zh": "只有今天和昨天的每日一题计入排行榜积分，这次作答不计分。",
    },
    "server.question_gone": {
        "en": "That question is no longer in the question bank.",
        "zh": "这道题已经不在题库里了。",
    },
    "modal.title": {"en": "Your answer", "zh": "你的回答"},
    "modal.label": {"en": "Answer in your own words", "zh": "用你自己的话回答"},
    "modal.placeholder": {
        "en": "Diagnose, act, verify: give numbers and a real case.",
        "zh": "按“定位 → 处理 → 验证”来答，给出具体数字和真实案例。",
    },
    "board.week": {"en": "This week in this server (since {since}):", "zh": "本服务器本周排行（自 {since} 起）："},
    "board.month": {"en": "This month (since {since}):", "zh": "本月排行（自 {since} 起）："},
    "board.line": {
        "en": "{rank}. {name}: {earned} (questions answered: {answers})",
        "zh": "{rank}. {name}：{earned}（答题 {answers} 道）",
    },
    "board.empty": {"en": "No graded answers yet.", "zh": "还没有人作答。"},
    "board.someone": {"en": "a former member", "zh": "已离开的成员"},
}

CONSOLE_MESSAGES: dict[str, dict[str, str]] = {
    "console.saved": {"en": "(saved {path})", "zh": "（已保存到 {path}）"},
    "console.files_deleted": {
        "en": "Also deleted: {files} this terminal saved for you ({names}).",
        "zh": "终端为你保存的 {files}也已删除（{names}）。",
    },
    "console.no_files_deleted": {
        "en": "This terminal had saved no file for you (charts, exports), so there was none to delete.",
        "zh": "终端没有为你保存过文件（图表、导出），所以没有要删除的文件。",
    },
    "console.pushes_here": {
        "en": "(In this terminal, reminders and the daily drill arrive while this chat is open; one due while it "
        "is closed comes when you next start it. On Telegram/Discord they arrive any time.)",
        "zh": "（在终端里，提醒和每日练习只在聊天开着时送达；关着时到期的，会在你下次启动时送达。"
        "在 Telegram/Discord 上随时送达。）",
    },
    "console.line_cut": {
        "en": "That line reached the terminal's limit of 4,095 bytes, so the end of it was probably cut off, and I "
        'did not send it. For a long answer, type """ on a line of its own, paste the answer, then """ again.',
        "zh": '这一行达到了终端 4095 字节的上限，结尾很可能被截掉了，所以没有发送。较长的回答请先单独输入一行 """，'
        '再粘贴回答，最后再输入一行 """。',
    },
}
