"""Messages of the mock interview (/mock): set-up, the round itself, the debrief and /mock history.
Merged into the catalogue in bot/kernel/i18n.py."""

from __future__ import annotations

MOCK_MESSAGES: dict[str, dict[str, str]] = {
    "help.mock": {
        "en": "\n/mock - a mock interview: 3-6 questions, follow-ups, a debrief at the end "
        "(/mock stop ends it, /mock history lists past ones)",
        "zh": "\n/mock（/模拟面试）- 模拟面试：3-6 道题，会追问，结束后给出复盘（/mock stop 提前结束，/mock history 查看历史）",
    },
    "cmd.mock": {"en": "mock", "zh": "模拟面试"},
    "cmd.mock.desc": {
        "en": "A mock interview: 3-6 questions, follow-ups, a debrief at the end",
        "zh": "模拟面试：3-6 道题，会追问，结束后给出复盘",
    },
    "opt.focus": {"en": "focus", "zh": "方向"},
    "opt.focus.desc": {
        "en": "What to ask about (or stop the running mock, or list past ones)",
        "zh": "考察方向（也可以结束当前模拟面试或查看历史）",
    },
    "opt.questions": {"en": "questions", "zh": "题数"},
    "opt.questions.desc": {"en": "How many questions (3-6, default 5)", "zh": "题目数量（3-6，默认 5）"},
    "opt.mock_company.desc": {
        "en": "A company whose questions you logged with /review: its topics",
        "zh": "用 /review 记录过面试题的公司：按它问过的方向出题",
    },
    "mock.choice.go": {"en": "the suggested one", "zh": "推荐的方向"},
    "mock.choice.stop": {"en": "stop the running mock", "zh": "结束当前模拟面试"},
    "mock.choice.history": {"en": "past mock interviews", "zh": "历史记录"},
    "menu.mock": {"en": "Mock interview with follow-ups and a debrief", "zh": "模拟面试（含追问和复盘）"},
    "mock.usage": {
        "en": "/mock [focus] [level] [3-6], e.g. /mock pipeline researcher 4. Focus: stability, pipeline, mixed, "
        "weakest, or a company whose questions you logged with /review. /mock stop ends a running mock; "
        "/mock history lists past ones.",
        "zh": "/mock [方向] [级别] [3-6]，例如 /mock pipeline researcher 4。方向：stability（稳定性）、pipeline（流水线）、"
        "mixed（混合）、weakest（薄弱点），或你用 /review 记录过面试题的公司名。/mock stop 提前结束，/mock history 查看历史。",
    },
    "mock.suggest": {
        "en": "Suggested mock interview: {focus}, {level}, {questions}, about {minutes} min.\n"
        "Tap Start, or pick another focus below. To choose everything yourself: {usage}",
        "zh": "推荐的模拟面试：{focus}，{level}，{questions}，约 {minutes} 分钟。\n点“开始”即可，或在下面换一个方向。"
        "想自己设定：{usage}",
    },
    "btn.mock_start": {"en": "Start", "zh": "开始"},
    "mock.focus.stability": {"en": "training stability", "zh": "训练稳定性"},
    "mock.focus.pipeline": {"en": "training pipeline", "zh": "训练流水线"},
    "mock.focus.mixed": {"en": "mixed", "zh": "综合"},
    "mock.focus.weakest": {"en": "your weakest subtopics", "zh": "你的薄弱点"},
    "mock.focus.company": {"en": "what {company} asked", "zh": "{company} 问过的方向"},
    "mock.intro": {
        "en": "Mock interview: {focus}, {level}, {questions}. As in a real round, I will not grade each answer: "
        "I may press with a follow-up or two, and the full debrief comes at the end. Answer by text or voice; "
        "/mock stop ends it early.",
        "zh": "模拟面试开始：{focus}，{level}，共 {questions}。和真实面试一样，每题答完我不会当场打分，可能会追问一两句，"
        "完整复盘在最后给出。可以用文字或语音回答；发送 /mock stop 可提前结束。",
    },
    "mock.shorter": {
        "en": "This focus has only {questions} in the bank, so the round is shorter.",
        "zh": "这个方向下题库里只有 {questions}，所以本轮会短一些。",
    },
    "mock.question": {
        "en": "Question {i} of {n} · about {minutes} min\n{question}",
        "zh": "第 {i}/{n} 题 · 建议用时约 {minutes} 分钟\n{question}",
    },
    "mock.follow_up": {
        "en": "Follow-up · about {minutes} min\n{text}",
        "zh": "追问 · 建议用时约 {minutes} 分钟\n{text}",
    },
    "mock.noted": {"en": "Noted.", "zh": "好的，记下了。"},
    "mock.llm_down": {
        "en": "(The AI grader is not answering, so this answer is graded offline for now and again once it is back. "
        "The interview goes on.)",
        "zh": "（AI 评分暂时没有响应，这一题先用离线方式评分，恢复后会重新评分。面试继续。）",
    },
    "mock.llm_limit": {
        "en": "(You have used your AI gradings for the last 24 hours, so the rest of this round is graded offline.)",
        "zh": "（最近 24 小时的 AI 评分次数已用完，本轮剩下的回答改用离线评分。）",
    },
    "mock.not_graded": {
        "en": "(I could not grade this answer now; it is saved and will be graded later. The interview goes on.)",
        "zh": "（这一题暂时没能评分，回答已保存，稍后补评。面试继续。）",
    },
    "mock.interrupted": {
        "en": "Your last answer was cut off while it was being graded (it is saved and will be graded later). "
        "Please answer this one again:",
        "zh": "上一条回答在评分时被中断了（已保存，稍后补评）。请重新回答这一题：",
    },
    "mock.skipped": {"en": "Skipped. Moving on.", "zh": "好，这题跳过。"},
    "mock.no_reference": {
        "en": "Not during the interview: each question's reference answer is in the debrief at the end. "
        "/skip passes on this one.",
        "zh": "面试进行中不看参考答案，每题的参考答案都在最后的复盘里。想跳过这题请发送 /skip。",
    },
    "mock.running": {
        "en": "Your mock interview is still running. Here is where you stopped (/mock stop ends it):",
        "zh": "你的模拟面试还在进行中，从这里继续（发送 /mock stop 可结束）：",
    },
    "mock.none_running": {
        "en": "No mock interview is running. Start one with /mock.",
        "zh": "当前没有进行中的模拟面试。发送 /mock 开始一场。",
    },
    "mock.no_questions": {
        "en": "I found no questions for this focus and level. Try /mock mixed.",
        "zh": "这个方向和级别下没有找到题目，试试 /mock mixed。",
    },
    "mock.no_company": {
        "en": "No interview questions from {company} are logged yet. Log them with /review {company} | question, "
        "or pick another focus.",
        "zh": "还没有记录过 {company} 的面试题。可以用 /review {company} | 问题 记录，或换一个方向。",
    },
    "mock.bad_length": {
        "en": "A mock interview has 3 to 6 questions; {value} is not one of those.",
        "zh": "模拟面试每场 3 到 6 道题，{value} 不在这个范围内。",
    },
    "mock.stopped_empty": {
        "en": "Mock interview stopped. Nothing was answered, so there is no debrief.",
        "zh": "模拟面试已结束。没有回答任何题目，所以没有复盘。",
    },
    "mock.stopped": {
        "en": "Mock interview stopped: {answered} of {n} answered. Here is the debrief of what you answered.",
        "zh": "模拟面试已提前结束，{n} 道题中答了 {answered} 道。下面是已答部分的复盘。",
    },
    "mock.finished": {
        "en": "That was the last question. Here is your debrief.",
        "zh": "最后一题答完了，下面是本场复盘。",
    },
    "mock.history.none": {
        "en": "No mock interviews yet. Start one with /mock.",
        "zh": "还没有模拟面试记录。发送 /mock 开始第一场。",
    },
    "mock.history.head": {"en": "Your mock interviews:", "zh": "你的模拟面试记录："},
    "mock.history.line": {
        "en": "{date} · {focus} · {answered}/{n} answered · {score}",
        "zh": "{date} · {focus} · 答了 {answered}/{n} 题 · {score}",
    },
    "mock.history.score": {"en": "{score} ({verdict})", "zh": "{score} 分（{verdict}）"},
    "mock.history.running": {"en": "running", "zh": "进行中"},
    "mock.history.stopped": {"en": " (stopped early)", "zh": "（提前结束）"},
    "mock.verdict.strong_hire": {"en": "strong hire", "zh": "强烈推荐录用"},
    "mock.verdict.hire": {"en": "hire", "zh": "推荐录用"},
    "mock.verdict.lean_no": {"en": "lean no hire", "zh": "倾向不录用"},
    "mock.verdict.no_hire": {"en": "no hire", "zh": "不录用"},
    "mock.meaning.strong_hire": {
        "en": "At this level, this round would pass.",
        "zh": "按这个水平，这一轮能通过。",
    },
    "mock.meaning.hire": {
        "en": "At this level, this round would usually pass.",
        "zh": "按这个水平，这一轮通常能通过。",
    },
    "mock.meaning.lean_no": {
        "en": "A close call that usually fails.",
        "zh": "属于边缘，通常过不了。",
    },
    "mock.meaning.no_hire": {
        "en": "This round would not pass: drill the gaps below before a real one.",
        "zh": "这一轮过不了：真实面试前先把下面的缺口练扎实。",
    },
    "mock.why": {"en": "Why: {reasons}", "zh": "原因：{reasons}"},
    "mock.why.skipped": {
        "en": "{which} skipped, counted as 0 (the {n} answered average {mean})",
        "zh": "{which}跳过，按 0 分计（答了的 {n} 题平均 {mean} 分）",
    },
    "mock.why.points": {
        "en": "key points {hit} covered, {partial} partly, {missed} missed",
        "zh": "要点答到 {hit} 个、部分答到 {partial} 个、漏掉 {missed} 个",
    },
    "mock.why.dimension": {"en": "weakest dimension: {dim} {value}", "zh": "最弱的维度：{dim} {value} 分"},
    "mock.report.q_ref": {"en": "Q{i}", "zh": "第 {i} 题"},
    "mock.report.head": {
        "en": "Debrief · {focus} · {level}\nOverall: {score}/100 · {verdict}\n{meaning}\n"
        "(Bands: strong hire from 80, hire 65-79, lean no hire 50-64, no hire below 50.)",
        "zh": "复盘 · {focus} · {level}\n总分：{score}/100 · {verdict}\n{meaning}\n"
        "（分档：80 分及以上强烈推荐，65-79 推荐，50-64 倾向不录用，50 以下不录用。）",
    },
    "mock.report.dims": {"en": "By dimension: {dims}", "zh": "各维度平均：{dims}"},
    "mock.report.q": {
        "en": "Q{i} · {prompt}\nScore {score} · answered in {took} (budget {budget})",
        "zh": "第 {i} 题 · {prompt}\n得分 {score} · 用时 {took}（建议 {budget}）",
    },
    "mock.report.q_ungraded": {
        "en": "Q{i} · {prompt}\nNot graded yet (saved, graded later) · answered in {took} (budget {budget})",
        "zh": "第 {i} 题 · {prompt}\n暂未评分（已保存，稍后补评）· 用时 {took}（建议 {budget}）",
    },
    "mock.report.q_unanswered": {"en": "Q{i} · {prompt}\nNot answered.", "zh": "第 {i} 题 · {prompt}\n未作答。"},
    "mock.report.q_skipped": {
        "en": "Q{i} · {prompt}\nSkipped (counted as 0).",
        "zh": "第 {i} 题 · {prompt}\n已跳过（按 0 分计）。",
    },
    "mock.report.covered": {"en": "Covered: {points}", "zh": "答到：{points}"},
    "mock.report.partly": {"en": "Partly: {points}", "zh": "只答到一部分：{points}"},
    "mock.report.missed": {"en": "Missed: {points}", "zh": "漏掉：{points}"},
    "mock.report.none": {"en": "none", "zh": "无"},
    "mock.report.best_fu": {
        "en": "Best follow-up answer ({score}): “{answer}”",
        "zh": "追问中答得最好的一次（{score} 分）：“{answer}”",
    },
    "mock.report.reference": {"en": "Reference in one sentence: {text}", "zh": "参考答案一句话：{text}"},
    "mock.report.star": {"en": "STAR check: {parts}", "zh": "STAR 检查：{parts}"},
    "mock.star.S": {"en": "Situation", "zh": "情境（S）"},
    "mock.star.T": {"en": "Task", "zh": "任务（T）"},
    "mock.star.A": {"en": "Action", "zh": "行动（A）"},
    "mock.star.R": {"en": "Result", "zh": "结果（R）"},
    "mock.star.ok": {"en": "{part} clear", "zh": "{part}清楚"},
    "mock.star.missing": {"en": "{part} missing", "zh": "{part}缺失"},
    "mock.star.vague": {"en": "{part} vague", "zh": "{part}含糊"},
    "mock.star.tip": {
        "en": "Tell it as one real story: the setting and scale, what you owned, what you did step by step, "
        "and the result in numbers.",
        "zh": "讲成一个真实的故事：背景和规模、你负责什么、一步步做了什么、结果用数字说话。",
    },
    "mock.star.rewrite": {
        "en": "Your story in STAR, from your own facts (fill in the brackets):",
        "zh": "用 STAR 结构重写你的经历（只用你讲到的事实，方括号处请补充）：",
    },
    "mock.report.strengths": {"en": "Top strengths:", "zh": "做得好的地方："},
    "mock.report.strength_line": {"en": "- {point} (Q{i})", "zh": "- {point}（第 {i} 题）"},
    "mock.report.no_strengths": {
        "en": "- No key point fully covered yet; start with the gaps below.",
        "zh": "- 还没有完整答到的要点，先从下面的缺口练起。",
    },
    "mock.report.gaps": {"en": "Top gaps, and what to drill next:", "zh": "最大的缺口和接下来要练的题："},
    "mock.report.gap_missed": {
        "en": "- {point} (Q{i}): drill “{prompt}”",
        "zh": "- {point}（第 {i} 题）：重练“{prompt}”",
    },
    "mock.report.gap_partial": {
        "en": "- {point}, only partly (Q{i}): drill “{prompt}”",
        "zh": "- {point}，只答到一部分（第 {i} 题）：重练“{prompt}”",
    },
    "mock.report.gap_skipped": {
        "en": "- Q{i} skipped: drill “{prompt}”",
        "zh": "- 第 {i} 题跳过了：重练“{prompt}”",
    },
    "mock.report.no_gaps": {
        "en": "- Every key point covered in full.",
        "zh": "- 每个要点都完整答到了。",
    },
    "mock.report.trend": {
        "en": "Compared with your last mock ({date}): {before} → {score} ({delta}).",
        "zh": "和上一场模拟面试（{date}）相比：{before} → {score}（{delta}）。",
    },
    "mock.report.first": {
        "en": "This is your first mock interview; the next debrief will compare with it.",
        "zh": "这是你的第一场模拟面试，下一次复盘会和它对比。",
    },
    "mock.share": {
        "en": "Mock interview: {focus} · {answered}/{n} answered · {score}/100 ({verdict})",
        "zh": "模拟面试：{focus} · 答了 {answered}/{n} 题 · {score}/100（{verdict}）",
    },
    "mock.share.a_company": {"en": "a company", "zh": "某家公司"},
    "mock.share_none": {
        "en": "There is no finished mock interview to share yet. Start one with /mock.",
        "zh": "还没有可以分享的模拟面试结果。发送 /mock 开始一场。",
    },
    "mock.choice.share": {"en": "share my last score here", "zh": "在这里分享上一场的分数"},
    "mock.stats": {
        "en": "Mock interviews: {n}; scores {scores} (the last: {verdict}). /mock history lists them.",
        "zh": "模拟面试：{n} 场，得分 {scores}（最近一场：{verdict}）。/mock history 查看详情。",
    },
    "mock.chart.title": {
        "en": "Mock interview · {focus} · {score}/100 · {verdict}",
        "zh": "模拟面试 · {focus} · {score}/100 · {verdict}",
    },
    "mock.chart.scores": {"en": "Score per question", "zh": "每题得分"},
    "mock.chart.follow_up": {"en": "best follow-up answer", "zh": "追问最佳回答"},
    "mock.chart.dimensions": {"en": "By dimension", "zh": "各维度平均"},
    "mock.chart.previous": {"en": "last mock", "zh": "上一场"},
    "mock.chart.skipped": {"en": "skipped", "zh": "跳过"},
    "mock.chart.unanswered": {"en": "not answered", "zh": "未作答"},
    "mock.chart.ungraded": {"en": "not graded yet", "zh": "暂未评分"},
    "mock.report.srs": {
        "en": "Each answer counted as a review, so the questions you missed come back sooner in /drill.",
        "zh": "每道题的回答都计入了复习，没答好的题会在 /drill 里更早再出现。",
    },
}
