"""The zh / en message catalogue. Every user-facing string of the core lives here."""

from __future__ import annotations

from typing import Any

from bot.core.models import Lang

MESSAGES: dict[str, dict[str, str]] = {
    "welcome": {
        "en": "Welcome! I drill you on LLM training interview questions: training stability and the "
        "training pipeline. Answer in your own words; I grade against a rubric and bring weak questions "
        "back with spaced repetition.\nFirst, pick your language.",
        "zh": "欢迎！我用大模型训练相关的面试题帮你练习：训练稳定性和训练流程。用你自己的话回答，我按评分要点打分，"
        "并用间隔重复让薄弱的题目更快再次出现。\n先选择语言。",
    },
    "ask_level": {
        "en": "Which level are you preparing for?",
        "zh": "你在准备哪个级别的面试？",
    },
    "ask_topics": {
        "en": "Which topics should I drill?",
        "zh": "想练哪些主题？",
    },
    "ask_timezone": {
        "en": "Your timezone? Type an IANA name such as Asia/Shanghai or America/New_York, or pick one.",
        "zh": "你的时区？输入 IANA 时区名，如 Asia/Shanghai、America/New_York，或直接选择。",
    },
    "ask_daily_time": {
        "en": "At what local time should the daily drill arrive? Type HH:MM (24-hour), e.g. 08:30.",
        "zh": "每天几点推送练习？输入 24 小时制 HH:MM，例如 08:30。",
    },
    "onboarded": {
        "en": "All set: {level}, topics {topics}, {timezone}, daily drill at {daily_time}, "
        "{new_per_day} new questions a day. Send /drill for your first question.",
        "zh": "设置完成：{level}，主题 {topics}，时区 {timezone}，每天 {daily_time} 推送，每天 {new_per_day} 道新题。"
        "发送 /drill 开始第一题。",
    },
    "level.campus": {"en": "Campus hire", "zh": "校招"},
    "level.engineer": {"en": "Engineer", "zh": "工程师"},
    "level.researcher": {"en": "Researcher", "zh": "研究员"},
    "topic.stability": {"en": "Training stability", "zh": "训练稳定性"},
    "topic.pipeline": {"en": "Training pipeline", "zh": "训练流程"},
    "topic.both": {"en": "Both", "zh": "都要"},
    "topic.other": {"en": "Other", "zh": "其他"},
    "lang_set": {"en": "Language set to English.", "zh": "已切换为中文。"},
    "bad_timezone": {
        "en": "'{value}' is not a timezone I know. Use an IANA name such as Asia/Shanghai, Europe/London "
        "or America/New_York.",
        "zh": "“{value}”不是有效的时区。请使用 IANA 时区名，例如 Asia/Shanghai、Europe/London、America/New_York。",
    },
    "bad_time": {
        "en": "'{value}' is not a time of day. Use HH:MM in 24-hour form, e.g. 08:30 or 21:00.",
        "zh": "“{value}”不是有效的时间。请用 24 小时制 HH:MM，例如 08:30 或 21:00。",
    },
    "bad_level": {
        "en": "Level must be one of: campus, engineer, researcher.",
        "zh": "级别只能是 campus（校招）、engineer（工程师）或 researcher（研究员）。",
    },
    "bad_topics": {
        "en": "Topics must be stability, pipeline or both.",
        "zh": "主题只能是 stability（稳定性）、pipeline（训练流程）或 both（都要）。",
    },
    "bad_number": {
        "en": "'{value}' is not a number from {low} to {high}.",
        "zh": "“{value}”不是 {low} 到 {high} 之间的数字。",
    },
    "bad_lang": {"en": "Language must be zh or en.", "zh": "语言只能是 zh 或 en。"},
    "settings": {
        "en": "Your settings:\n- language: {language}\n- timezone: {timezone}\n- daily drill: {daily_time}\n"
        "- level: {level}\n- topics: {topics}\n- new questions per day: {new_per_day}\n- pushes: {paused}\n"
        "- quiet hours: {quiet}\n- weekly summary: {weekly}\n"
        "Change one with: /settings tz Asia/Shanghai | time 08:30 | level engineer | topics both | new 5 | "
        "quiet 23:00-08:00 | weekly sun",
        "zh": "当前设置：\n- 语言：{language}\n- 时区：{timezone}\n- 每日推送：{daily_time}\n- 级别：{level}\n"
        "- 主题：{topics}\n- 每天新题：{new_per_day}\n- 推送：{paused}\n"
        "- 免打扰：{quiet}\n- 每周回顾：{weekly}\n"
        "修改方式：/settings tz Asia/Shanghai | time 08:30 | level engineer | topics both | new 5 | "
        "quiet 23:00-08:00 | weekly 周日",
    },
    "paused.yes": {"en": "paused", "zh": "已暂停"},
    "paused.no": {"en": "on", "zh": "开启"},
    "usage.lang": {"en": "/lang zh  or  /lang en", "zh": "/lang zh 或 /lang en"},
    "usage.settings": {
        "en": "/settings tz Asia/Shanghai | time 08:30 | level engineer | topics both | new 5",
        "zh": "/settings tz Asia/Shanghai | time 08:30 | level engineer | topics both | new 5",
    },
    "setting_saved": {"en": "Saved: {name} = {value}.", "zh": "已保存：{name} = {value}。"},
    "usage": {"en": "Usage: {usage}", "zh": "用法：{usage}"},
    "unknown_command": {
        "en": "Unknown command {command}. Send /help to see what I can do.",
        "zh": "未知命令 {command}。发送 /help 查看可用命令。",
    },
    "help": {
        "en": "Commands:\n/drill - next question\n/skip - skip the current question\n"
        "/reveal - show the reference answer\n/review company | question | your answer - log a question "
        "from a real interview\n/interview company | role | 2026-12-03 14:00 - log an interview\n"
        "(/review or /interview alone asks for each part in turn)\n"
        "/stats - your progress\n/settings - view or change settings\n/lang zh|en - language\n"
        "/pause, /resume - stop or restart the daily pushes\n"
        "/export - all your data as JSON\n/forget - delete all your data\n"
        "Any other text while a question is open is your answer.",
        "zh": "命令：\n/drill - 下一题\n/skip - 跳过当前题\n/reveal - 查看参考答案\n"
        "/review 公司 | 问题 | 你的回答 - 记录真实面试中被问到的问题\n/interview 公司 | 岗位 | 2026-12-03 14:00 - "
        "记录一场面试\n（只发 /review 或 /interview 会逐项询问）\n/stats - 学习进度\n/settings - 查看或修改设置\n/lang zh|en - 切换语言\n"
        "/pause、/resume - 暂停或恢复每日推送\n"
        "/export - 导出你的全部数据（JSON）\n/forget - 删除你的全部数据\n有题目未作答时，发送的其他文字即为你的回答。",
    },
    "question": {
        "en": "[{topic} / {subtopic} · {qtype} · difficulty {difficulty}]{tag}\n{prompt}",
        "zh": "[{topic} / {subtopic} · {qtype} · 难度 {difficulty}]{tag}\n{prompt}",
    },
    "tag.personal": {"en": " (from your interview)", "zh": "（来自你的面试）"},
    "tag.due": {"en": " (review)", "zh": "（复习）"},
    "tag.new": {"en": " (new)", "zh": "（新题）"},
    "answer_hint": {
        "en": "Answer in your own words (text or voice). /skip to skip, /reveal for the reference answer.",
        "zh": "用你自己的话回答（文字或语音）。/skip 跳过，/reveal 查看参考答案。",
    },
    "nothing_due": {
        "en": "Nothing is due and you have had today's {limit} new questions. Next review: {next}. "
        "Log a real interview question with /review, or raise the limit with /settings new 10.",
        "zh": "目前没有到期的题目，今天的 {limit} 道新题也已完成。下次复习：{next}。"
        "可以用 /review 记录真实面试题，或用 /settings new 10 提高每日新题数。",
    },
    "no_next": {"en": "none scheduled", "zh": "暂无"},
    "no_open_question": {
        "en": "There is no open question. Send /drill to get one.",
        "zh": "当前没有待回答的题目。发送 /drill 获取题目。",
    },
    "empty_answer": {
        "en": "Your answer is empty. Write a few sentences, or /skip.",
        "zh": "回答是空的。请写几句话，或发送 /skip 跳过。",
    },
    "answer_too_long": {
        "en": "Your answer is {length} characters; the limit is {limit}. Please shorten it and send it again.",
        "zh": "你的回答有 {length} 个字符，上限是 {limit}。请精简后重新发送。",
    },
    "grading_failed": {
        "en": "I could not grade this answer right now. It is saved, and I will grade it as soon as I can.",
        "zh": "暂时无法评分。你的回答已保存，稍后会尽快评分。",
    },
    "llm_limit": {
        "en": "You have used today's AI gradings; this is the offline estimate. The limit resets tomorrow.",
        "zh": "今天的 AI 评分次数已用完，以上为离线估算，明天恢复。",
    },
    "llm_unavailable": {
        "en": "The AI grader is not answering right now, so this is the offline estimate. "
        "I will send you the full grade as soon as it is back.",
        "zh": "AI 评分暂时不可用，以上为离线估算。恢复后我会把完整评分发给你。",
    },
    "regraded": {
        "en": 'Your answer to "{prompt}" has now been graded in full:',
        "zh": "你对“{prompt}”的回答已完成完整评分：",
    },
    "grade.header": {"en": "Score: {score}/100 ({rating}){estimate}", "zh": "得分：{score}/100（{rating}）{estimate}"},
    "grade.estimate": {
        "en": " - offline estimate, keyword-based",
        "zh": " - 离线估算，基于关键词",
    },
    "grade.dimensions": {"en": "Dimensions", "zh": "分项"},
    "dim.coverage": {"en": "coverage", "zh": "要点覆盖"},
    "dim.structure": {"en": "structure", "zh": "结构"},
    "dim.specificity": {"en": "specificity", "zh": "具体程度"},
    "dim.evidence": {"en": "evidence", "zh": "实例"},
    "dim.correctness": {"en": "correctness", "zh": "正确性"},
    "grade.hit": {"en": "Covered", "zh": "已覆盖"},
    "grade.partial": {"en": "Partly covered", "zh": "部分覆盖"},
    "grade.missed": {"en": "Missed", "zh": "遗漏"},
    "grade.mistakes": {"en": "Mistakes", "zh": "问题"},
    "grade.feedback": {"en": "Feedback", "zh": "点评"},
    "grade.follow_up": {"en": "Follow-up", "zh": "追问"},
    "grade.next_due": {"en": "Next review: {due}", "zh": "下次复习：{due}"},
    "rating.1": {"en": "Again", "zh": "重来"},
    "rating.2": {"en": "Hard", "zh": "困难"},
    "rating.3": {"en": "Good", "zh": "良好"},
    "rating.4": {"en": "Easy", "zh": "简单"},
    "btn.reference": {"en": "Reference answer", "zh": "参考答案"},
    "btn.follow_up": {"en": "Answer the follow-up", "zh": "回答追问"},
    "btn.next": {"en": "Next question", "zh": "下一题"},
    "btn.skip": {"en": "Skip", "zh": "跳过"},
    "btn.yes_delete": {"en": "Yes, delete everything", "zh": "确认删除全部数据"},
    "btn.cancel": {"en": "Cancel", "zh": "取消"},
    "btn.other": {"en": "Other (type it)", "zh": "其他（手动输入）"},
    "btn.save": {"en": "Save", "zh": "保存"},
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
    "progress": {"en": "Working on it...", "zh": "正在处理，请稍候…"},
    "unsupported_message": {
        "en": "I can read text and voice messages. Send your answer as text or as a voice note.",
        "zh": "我能读取文字和语音消息。请用文字或语音发送你的回答。",
    },
    "menu.start": {"en": "Set up: language, level, time zone, daily time", "zh": "开始设置：语言、级别、时区、推送时间"},
    "menu.drill": {"en": "Next question", "zh": "下一题"},
    "menu.review": {"en": "Log a question from a real interview", "zh": "记录真实面试中被问到的问题"},
    "menu.interview": {"en": "Log an upcoming interview", "zh": "记录一场即将到来的面试"},
    "menu.stats": {"en": "Your progress", "zh": "学习进度"},
    "menu.settings": {"en": "View or change settings", "zh": "查看或修改设置"},
    "menu.lang": {"en": "Language: /lang zh or /lang en", "zh": "切换语言：/lang zh 或 /lang en"},
    "menu.help": {"en": "What I can do", "zh": "使用帮助"},
    "menu.forget": {"en": "Delete all your data", "zh": "删除你的全部数据"},
    "menu.export": {"en": "All your data as JSON", "zh": "导出你的全部数据（JSON）"},
    "reference": {"en": "Reference answer:\n{text}", "zh": "参考答案：\n{text}"},
    "reference_none": {
        "en": "This question has no reference answer yet.",
        "zh": "这道题还没有参考答案。",
    },
    "revealed": {
        "en": "Marked as 'Again': it will come back soon.",
        "zh": "已记为“重来”，这道题会很快再次出现。",
    },
    "skipped": {"en": "Skipped; it will come back tomorrow.", "zh": "已跳过，明天会再出现。"},
    "follow_up_prompt": {
        "en": "Follow-up: {text}\nAnswer it in your own words.",
        "zh": "追问：{text}\n请用你自己的话回答。",
    },
    "follow_up_none": {"en": "There is no follow-up to answer.", "zh": "没有可以回答的追问。"},
    "follow_up_done": {
        "en": "That was the follow-up; it does not change the schedule. Send /drill for the next question.",
        "zh": "这是追问，不影响复习计划。发送 /drill 进入下一题。",
    },
    "rating_set": {
        "en": "Rating set to {rating}. Next review: {due}.",
        "zh": "评级已改为{rating}。下次复习：{due}。",
    },
    "rating_stale": {
        "en": "That rating button is for an older answer; only the latest answer to a question can be re-rated.",
        "zh": "这个评级按钮对应的是较早的回答；只能修改这道题最新一次回答的评级。",
    },
    "not_found": {"en": "I could not find that item.", "zh": "找不到这条记录。"},
    "self_rate": {
        "en": "Saved. This question has no rubric yet, so rate yourself: how well did you answer?",
        "zh": "已保存。这道题还没有评分要点，请自评：你答得怎么样？",
    },
    "review.usage": {
        "en": "/review company | the question you were asked | how you answered (optional)",
        "zh": "/review 公司 | 被问到的问题 | 你当时的回答（可选）",
    },
    "review.no_question": {
        "en": "Please include the question you were asked: /review company | question",
        "zh": "请写上被问到的问题：/review 公司 | 问题",
    },
    "review.matched": {
        "en": "Logged for {company}. It matches a bank question ({qid}), so its rubric applies. "
        "It is in your deck and due now: send /drill to practise it.",
        "zh": "已记录（{company}）。它与题库中的题目（{qid}）匹配，将使用该题的评分要点。已加入你的题组并立即到期，"
        "发送 /drill 练习。",
    },
    "review.personal": {
        "en": "Logged for {company} as a personal question (no close match in the bank). It is in your deck "
        "and due now: send /drill to practise it.",
        "zh": "已记录（{company}），作为个人题目加入题组（题库中没有相近的题）。已立即到期，发送 /drill 练习。",
    },
    "review.generated": {
        "en": "Logged for {company} as a personal question, with a rubric written by the AI grader (no close "
        "match in the bank). It is in your deck and due now: send /drill to practise it.",
        "zh": "已记录（{company}），作为个人题目加入题组，评分要点由 AI 生成（题库中没有相近的题）。已立即到期，发送 /drill 练习。",
    },
    "interview.usage": {
        "en": "/interview company | role | YYYY-MM-DD HH:MM (your local time; 'today 15:00' and "
        "'tomorrow 14:00' work too)",
        "zh": "/interview 公司 | 岗位 | YYYY-MM-DD HH:MM（本地时间；也可以写“今天 15:00”“明天 14:00”）",
    },
    "interview.bad_date": {
        "en": "I could not read '{value}' as a date and time. Use YYYY-MM-DD HH:MM, e.g. 2026-12-03 14:00 "
        "(tomorrow 14:00 and 明天下午两点 work too).",
        "zh": "无法识别时间“{value}”。请用 YYYY-MM-DD HH:MM，例如 2026-12-03 14:00（也可以写“明天下午两点”）。",
    },
    "interview.logged": {
        "en": "Interview logged: {company} {role}, {when}. {after}",
        "zh": "已记录面试：{company} {role}，{when}。{after}",
    },
    "interview.after_future": {
        "en": "About two hours after it I will ask how it went, so you can log the questions with /review.",
        "zh": "面试结束约两小时后我会问你情况，方便你用 /review 记录被问到的问题。",
    },
    "interview.after_past": {
        "en": "Log the questions you were asked with /review company | question.",
        "zh": "用 /review 公司 | 问题 记录你被问到的题目。",
    },
    "stats.by_topic": {"en": "Mean score by topic:", "zh": "各主题平均分："},
    "stats.topic_line": {"en": "- {topic}: {mean} ({n} answers)", "zh": "- {topic}：{mean}（{n} 次）"},
    "stats.none": {
        "en": "No answers yet. Send /drill to start.",
        "zh": "还没有作答记录。发送 /drill 开始。",
    },
    "stats.interviews": {
        "en": "Real interviews: {interviews} logged, {questions} questions logged.",
        "zh": "真实面试：已记录 {interviews} 场，{questions} 道题。",
    },
    "stats.header": {"en": "Progress", "zh": "学习进度"},
    "stats.streak": {
        "en": "- streak: {streak} days (best {best})",
        "zh": "- 连续练习：{streak} 天（最长 {best} 天）",
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
    "stats.weakest": {"en": "Weakest subtopics:", "zh": "最薄弱的子主题："},
    "stats.weak_line": {
        "en": "- {subtopic}: recall {recall}, mean score {score}",
        "zh": "- {subtopic}：记忆保持 {recall}，平均分 {score}",
    },
    "stats.try": {"en": "  try: {prompt}", "zh": "  建议练：{prompt}"},
    "stats.asked_topics": {"en": "Topics asked: {items}", "zh": "被问到的主题：{items}"},
    "stats.asked_most": {"en": "Subtopics asked most: {items}", "zh": "被问得最多的子主题：{items}"},
    "stats.sep": {"en": ", ", "zh": "、"},
    "stats.paren": {"en": " ({text})", "zh": "（{text}）"},
    "stats.delta": {"en": ", {delta}", "zh": "，{delta}"},
    "stats.company_line": {
        "en": "- {company}: {interviews} interviews, {questions} questions{subtopics}",
        "zh": "- {company}：{interviews} 场面试，{questions} 道题{subtopics}",
    },
    "stats.moves": {
        "en": "Your scores on those subtopics, before → since they were first asked:",
        "zh": "这些子主题的得分（首次被问到之前 → 之后）：",
    },
    "stats.move_line": {
        "en": "- {subtopic}: {before} → {since} ({n} answers since)",
        "zh": "- {subtopic}：{before} → {since}（之后作答 {n} 次）",
    },
    "stats.move_none": {
        "en": "- {subtopic}: not practised since; it is in your deck, /drill brings it up",
        "zh": "- {subtopic}：之后还没练过；它已在你的题组里，发送 /drill 就会出现",
    },
    "chart.title": {
        "en": "Progress · streak {streak} days (best {best}) · {total} reviews",
        "zh": "学习进度 · 连续 {streak} 天（最长 {best} 天）· 共作答 {total} 次",
    },
    "chart.daily": {"en": "Reviews per day, last 30 days", "zh": "近 30 天每日作答"},
    "chart.trend": {"en": "Mean score by week", "zh": "每周平均分"},
    "chart.mastery": {"en": "Mastery", "zh": "掌握度"},
    "chart.recall": {"en": "recall now %", "zh": "当前记忆保持率 %"},
    "chart.score": {"en": "mean score", "zh": "平均分"},
    "chart.due": {"en": "Due in the next 14 days", "zh": "未来 14 天到期"},
    "chart.today": {"en": "today", "zh": "今天"},
    "chart.no_data": {"en": "no data yet", "zh": "暂无数据"},
    "chart.none_due": {"en": "nothing due", "zh": "没有到期的题"},
    "subtopic.activation-checkpointing": {"en": "Activation checkpointing", "zh": "激活重计算"},
    "subtopic.architecture": {"en": "Model architecture", "zh": "模型结构"},
    "subtopic.continual-pretraining": {"en": "Continual pretraining", "zh": "继续预训练"},
    "subtopic.data-cleaning": {"en": "Data cleaning", "zh": "数据清洗"},
    "subtopic.data-mixture": {"en": "Data mixture", "zh": "数据配比"},
    "subtopic.deduplication": {"en": "Deduplication", "zh": "数据去重"},
    "subtopic.dpo": {"en": "DPO", "zh": "DPO"},
    "subtopic.evaluation": {"en": "Evaluation", "zh": "模型评测"},
    "subtopic.gradient-accumulation": {"en": "Gradient accumulation", "zh": "梯度累积"},
    "subtopic.grpo": {"en": "GRPO", "zh": "GRPO"},
    "subtopic.kernels": {"en": "Kernels", "zh": "算子优化"},
    "subtopic.long-context": {"en": "Long context", "zh": "长上下文"},
    "subtopic.lora": {"en": "LoRA", "zh": "LoRA"},
    "subtopic.memory": {"en": "Memory", "zh": "显存优化"},
    "subtopic.overfitting-leakage": {"en": "Overfitting and leakage", "zh": "过拟合与数据泄漏"},
    "subtopic.parallelism": {"en": "Parallelism", "zh": "并行策略"},
    "subtopic.pipeline-design": {"en": "Pipeline design", "zh": "训练流程设计"},
    "subtopic.rlhf": {"en": "RLHF", "zh": "RLHF"},
    "subtopic.scaling-laws": {"en": "Scaling laws", "zh": "缩放定律"},
    "subtopic.sft": {"en": "SFT", "zh": "SFT 监督微调"},
    "subtopic.tokenizer": {"en": "Tokenizer", "zh": "分词器"},
    "subtopic.attention-numerics": {"en": "Attention numerics", "zh": "注意力数值稳定"},
    "subtopic.batch-lr-scaling": {"en": "Batch size and LR scaling", "zh": "批大小与学习率缩放"},
    "subtopic.checkpointing": {"en": "Checkpointing", "zh": "检查点"},
    "subtopic.distributed-failures": {"en": "Distributed failures", "zh": "分布式故障"},
    "subtopic.gradient-clipping": {"en": "Gradient clipping", "zh": "梯度裁剪"},
    "subtopic.gradient-explosion": {"en": "Gradient explosion", "zh": "梯度爆炸"},
    "subtopic.initialization": {"en": "Initialization", "zh": "参数初始化"},
    "subtopic.loss-spikes": {"en": "Loss spikes", "zh": "Loss 尖峰"},
    "subtopic.lr-schedule": {"en": "LR schedule", "zh": "学习率调度"},
    "subtopic.mixed-precision": {"en": "Mixed precision", "zh": "混合精度"},
    "subtopic.moe-stability": {"en": "MoE stability", "zh": "MoE 稳定性"},
    "subtopic.monitoring": {"en": "Monitoring", "zh": "训练监控"},
    "subtopic.nan-loss": {"en": "NaN loss", "zh": "Loss 变 NaN"},
    "subtopic.normalization": {"en": "Normalization", "zh": "归一化"},
    "subtopic.optimizers": {"en": "Optimizers", "zh": "优化器"},
    "subtopic.reproducibility": {"en": "Reproducibility", "zh": "可复现性"},
    "subtopic.rlhf-stability": {"en": "RLHF stability", "zh": "RLHF 稳定性"},
    "subtopic.stability-metrics": {"en": "Stability metrics", "zh": "稳定性指标"},
    "subtopic.stability-tradeoffs": {"en": "Stability trade-offs", "zh": "稳定性权衡"},
    "subtopic.interview": {"en": "Unclassified", "zh": "未归类"},
    "forget.confirm": {
        "en": "This deletes ALL your data: settings, deck, answers, interview logs. It cannot be undone. Are you sure?",
        "zh": "这将删除你的全部数据：设置、题组、作答记录、面试记录，且无法恢复。确定吗？",
    },
    "forget.done": {
        "en": "All your data has been deleted. Send /start to begin again.",
        "zh": "你的全部数据已删除。发送 /start 可以重新开始。",
    },
    "forget.cancelled": {"en": "Nothing was deleted.", "zh": "已取消，没有删除任何数据。"},
    "export.done": {
        "en": "Here is all your data as JSON ({n} answers).",
        "zh": "这是你的全部数据（JSON，共 {n} 条作答）。",
    },
    "voice_unavailable": {
        "en": "Voice answers are not enabled on this bot. Please type your answer.",
        "zh": "本机器人暂未开启语音作答，请用文字回答。",
    },
    "voice_empty": {"en": "That voice message is empty.", "zh": "这条语音是空的。"},
    "voice_too_big": {
        "en": "That audio file is {size} MB; the limit is {limit} MB. Please send a shorter recording.",
        "zh": "这个音频有 {size} MB，上限是 {limit} MB。请发送更短的录音。",
    },
    "voice_too_long": {
        "en": "That recording is {seconds} seconds long; the limit is {limit} seconds. Please keep it shorter.",
        "zh": "这段录音有 {seconds} 秒，上限是 {limit} 秒。请缩短后再发。",
    },
    "voice_unreadable": {
        "en": "I could not read that audio file. Please send a voice message again, or type your answer.",
        "zh": "无法读取这段音频。请重新发送语音，或直接输入文字回答。",
    },
    "voice_silent": {
        "en": "I could not hear any words in that recording. Please try again, or type your answer.",
        "zh": "这段录音里没有识别到语音。请重试，或直接输入文字回答。",
    },
    "voice_service_down": {
        "en": "Speech recognition is not working right now. Please try again in a few minutes, or type your answer.",
        "zh": "语音识别服务暂时不可用。请过几分钟再试，或直接输入文字回答。",
    },
    "speaking.header": {"en": "Speaking ({seconds} s):", "zh": "口语表现（{seconds} 秒）："},
    "speaking.rate_wpm": {"en": "  pace: {rate} words a minute", "zh": "  语速：每分钟 {rate} 词"},
    "speaking.rate_cpm": {"en": "  pace: {rate} characters a minute", "zh": "  语速：每分钟 {rate} 字"},
    "speaking.fillers": {"en": "  filler words: {count} ({list})", "zh": "  填充词：{count} 个（{list}）"},
    "speaking.fillers_none": {"en": "  filler words: none", "zh": "  填充词：没有，表达很干净"},
    "speaking.tip_fillers": {
        "en": "Tip: about {per_minute} filler words a minute. When you need time to think, pause in silence: "
        'a short pause sounds more confident than "um".',
        "zh": "建议：每分钟约 {per_minute} 个填充词。需要思考时安静地停顿一下，短暂的沉默比“嗯”“那个”更显得胸有成竹。",
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
    "paused": {
        "en": "Daily pushes are paused. Send /resume to turn them back on.",
        "zh": "每日推送已暂停。发送 /resume 重新开启。",
    },
    "resumed": {
        "en": "Daily pushes are on again, at {daily_time} ({timezone}).",
        "zh": "每日推送已恢复，时间 {daily_time}（{timezone}）。",
    },
    "quiet_off": {"en": "Quiet hours are off.", "zh": "已关闭免打扰时段。"},
    "bad_quiet": {
        "en": "'{value}' is not a quiet-hours window. Use HH:MM-HH:MM, e.g. 23:00-08:00, or 'off'.",
        "zh": "“{value}”不是有效的免打扰时段。请用 HH:MM-HH:MM，例如 23:00-08:00，或 off 关闭。",
    },
    "bad_weekday": {
        "en": "'{value}' is not a day of the week. Use mon, tue, ..., sun, or 'off'.",
        "zh": "“{value}”不是星期几。请用 周一 到 周日（或 mon ... sun），或 off 关闭。",
    },
    "push.daily": {"en": "Your daily drill:", "zh": "今日练习："},
    "push.weekly": {
        "en": "Your week: {reviews} answers, mean score {mean}. Weakest subtopic: {weakest}. "
        "Send /stats for the full picture, or /drill to keep going.",
        "zh": "本周回顾：作答 {reviews} 次，平均分 {mean}。最薄弱的子主题：{weakest}。发送 /stats 查看详情，或 /drill 继续练习。",
    },
    "push.weekly_empty": {
        "en": "No answers this week. Ten minutes a day is enough: send /drill to start.",
        "zh": "本周还没有作答。每天十分钟就够了：发送 /drill 开始。",
    },
    "post_interview_again": {
        "en": "Did you get to log the questions from {company}? Even two or three help: "
        "/review {company} | question. They join your deck so you can practise them.",
        "zh": "{company} 的面试题记录了吗？哪怕两三道也有用：/review {company} | 问题。它们会加入你的题组供你练习。",
    },
    "transcript": {"en": "I heard:\n{text}", "zh": "识别结果：\n{text}"},
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
        "en": "Press Answer to reply. Only you will see your grade, and its points count toward this "
        "server's /leaderboard.",
        "zh": "点击“回答”作答。评分只有你自己能看到，得分计入本服务器的 /leaderboard 排行榜。",
    },
    "server.question_gone": {
        "en": "That question is no longer in the question bank.",
        "zh": "这道题已经不在题库里了。",
    },
    "tag.server": {"en": "", "zh": ""},
    "btn.answer": {"en": "Answer", "zh": "回答"},
    "modal.title": {"en": "Your answer", "zh": "你的回答"},
    "modal.label": {"en": "Answer in your own words", "zh": "用你自己的话回答"},
    "modal.placeholder": {
        "en": "Diagnose, act, verify: give numbers and a real case.",
        "zh": "按“定位 → 处理 → 验证”来答，给出具体数字和真实案例。",
    },
    "board.week": {"en": "This week in this server (since {since}):", "zh": "本服务器本周排行（自 {since} 起）："},
    "board.month": {"en": "This month (since {since}):", "zh": "本月排行（自 {since} 起）："},
    "board.line": {
        "en": "{rank}. {name}: {points} points ({answers} answers)",
        "zh": "{rank}. {name}：{points} 分（作答 {answers} 次）",
    },
    "board.empty": {"en": "No graded answers yet.", "zh": "还没有人作答。"},
    "board.someone": {"en": "a former member", "zh": "已离开的成员"},
    "answer.usage": {
        "en": "Give your answer as text, or attach a recording of it as audio.",
        "zh": "请填写文字回答，或在 audio 里附上你的回答录音。",
    },
    "bad_switch": {"en": "Use on or off.", "zh": "请填写 on（开启）或 off（关闭）。"},
    "dm_on": {
        "en": "Your daily drill will come by direct message at {daily_time} ({timezone}).",
        "zh": "每天 {daily_time}（{timezone}）会通过私信给你推送练习。",
    },
    "dm_off": {
        "en": "No more daily drills by direct message. Use /drill whenever you like.",
        "zh": "已关闭私信推送。想练的时候随时用 /drill。",
    },
    "help.discord": {
        "en": "On Discord: answer with /answer (text or an audio file), or type or send a voice message in "
        "our direct messages. /settings daily_dm: True sends your daily drill by direct message. In a study "
        "server, admins pick the channel and time of the question of the day with /setup, and /leaderboard "
        "shows the week's and the month's points.",
        "zh": "在 Discord 上：用 /answer 作答（文字或音频文件），也可以在私信里直接打字或发语音。"
        "/settings 里把 daily_dm 设为 True，每天就会私信推送练习。在学习服务器里，管理员用 /setup "
        "设置每日一题的频道和时间，/leaderboard 查看本周和本月的积分。",
    },
    # Discord slash commands: names (1-32 lowercase characters) and descriptions (1-100 characters)
    "cmd.drill": {"en": "drill", "zh": "练习"},
    "cmd.drill.desc": {
        "en": "The next question: due reviews first, then new ones",
        "zh": "下一题：先复习到期的题，再出新题",
    },
    "cmd.answer": {"en": "answer", "zh": "回答"},
    "cmd.answer.desc": {
        "en": "Answer the open question by text or with an audio recording",
        "zh": "用文字或录音回答当前的题目",
    },
    "opt.text": {"en": "text", "zh": "文字"},
    "opt.text.desc": {"en": "Your answer", "zh": "你的回答"},
    "opt.audio": {"en": "audio", "zh": "录音"},
    "opt.audio.desc": {
        "en": "A recording of your answer (ogg, mp3, m4a, wav)",
        "zh": "你的回答录音（ogg、mp3、m4a、wav）",
    },
    "cmd.review": {"en": "review", "zh": "复盘"},
    "cmd.review.desc": {
        "en": "Log a question from a real interview; it joins your deck",
        "zh": "记录真实面试中被问到的题，它会加入你的题组",
    },
    "opt.company": {"en": "company", "zh": "公司"},
    "opt.company.desc": {"en": "The company", "zh": "面试的公司"},
    "opt.question": {"en": "question", "zh": "问题"},
    "opt.question.desc": {"en": "The question you were asked", "zh": "被问到的问题"},
    "opt.your_answer": {"en": "answer", "zh": "回答"},
    "opt.your_answer.desc": {"en": "How you answered (optional)", "zh": "你当时是怎么回答的（可选）"},
    "cmd.interview": {"en": "interview", "zh": "面试"},
    "cmd.interview.desc": {
        "en": "Log an interview; afterwards I will ask which questions came up",
        "zh": "记录一场面试，结束后我会提醒你复盘被问到的题",
    },
    "opt.when": {"en": "when", "zh": "时间"},
    "opt.when.desc": {
        "en": "Your local date and time, e.g. 2026-12-03 14:00 or tomorrow 14:00",
        "zh": "本地日期和时间，如 2026-12-03 14:00 或 明天 14:00",
    },
    "opt.role": {"en": "role", "zh": "岗位"},
    "opt.role.desc": {"en": "The role (optional)", "zh": "应聘的岗位（可选）"},
    "cmd.stats": {"en": "stats", "zh": "统计"},
    "cmd.stats.desc": {
        "en": "Your progress: reviews, streak, scores by topic",
        "zh": "学习进度：作答次数、连续天数、各主题得分",
    },
    "cmd.settings": {"en": "settings", "zh": "设置"},
    "cmd.settings.desc": {
        "en": "Show your settings, or change the ones you fill in",
        "zh": "查看设置，或修改你填写的项",
    },
    "opt.timezone": {"en": "timezone", "zh": "时区"},
    "opt.timezone.desc": {"en": "An IANA timezone, e.g. Asia/Shanghai", "zh": "IANA 时区名，如 Asia/Shanghai"},
    "opt.daily_time": {"en": "daily_time", "zh": "推送时间"},
    "opt.daily_time.desc": {"en": "Local time of your daily drill, HH:MM", "zh": "每天推送练习的本地时间，HH:MM"},
    "opt.level": {"en": "level", "zh": "级别"},
    "opt.level.desc": {"en": "The level you are preparing for", "zh": "你准备的面试级别"},
    "opt.topics": {"en": "topics", "zh": "主题"},
    "opt.topics.desc": {"en": "Which topics to drill", "zh": "要练习的主题"},
    "opt.new_per_day": {"en": "new_per_day", "zh": "每日新题"},
    "opt.new_per_day.desc": {"en": "New questions per day (0-50)", "zh": "每天的新题数量（0-50）"},
    "opt.daily_dm": {"en": "daily_dm", "zh": "私信推送"},
    "opt.daily_dm.desc": {"en": "Send your daily drill by direct message", "zh": "每天通过私信给你推送练习"},
    "cmd.lang": {"en": "lang", "zh": "语言"},
    "cmd.lang.desc": {"en": "Choose my language", "zh": "选择机器人使用的语言"},
    "opt.language": {"en": "language", "zh": "语言"},
    "opt.language.desc": {"en": "Chinese or English", "zh": "中文或英文"},
    "cmd.leaderboard": {"en": "leaderboard", "zh": "排行榜"},
    "cmd.leaderboard.desc": {
        "en": "This server's points this week and this month",
        "zh": "本服务器本周和本月的积分排行",
    },
    "cmd.forget": {"en": "forget", "zh": "删除数据"},
    "cmd.forget.desc": {"en": "Delete all your data (asks first)", "zh": "删除你的全部数据（会先确认）"},
    "cmd.export": {"en": "export", "zh": "导出"},
    "cmd.export.desc": {"en": "All your data as a JSON file", "zh": "把你的全部数据导出为 JSON 文件"},
    "cmd.pause": {"en": "pause", "zh": "暂停推送"},
    "cmd.pause.desc": {"en": "Stop the daily pushes for now", "zh": "暂停每日推送"},
    "cmd.resume": {"en": "resume", "zh": "恢复推送"},
    "cmd.resume.desc": {"en": "Turn the daily pushes back on", "zh": "恢复每日推送"},
    "cmd.help": {"en": "help", "zh": "帮助"},
    "cmd.help.desc": {"en": "What I can do", "zh": "查看我能做什么"},
    "cmd.setup": {"en": "setup", "zh": "每日一题设置"},
    "cmd.setup.desc": {
        "en": "Set the channel, time and timezone of this server's question of the day",
        "zh": "设置本服务器每日一题的频道、时间和时区",
    },
    "opt.channel": {"en": "channel", "zh": "频道"},
    "opt.channel.desc": {"en": "Where the question of the day is posted", "zh": "每日一题发布的频道"},
    "opt.time": {"en": "time", "zh": "时间"},
    "opt.time.desc": {"en": "Local time of the post, HH:MM", "zh": "每天发布的本地时间，HH:MM"},
    "opt.server_language": {"en": "language", "zh": "语言"},
    "opt.server_language.desc": {"en": "Language of the post", "zh": "每日一题使用的语言"},
    "opt.enabled": {"en": "enabled", "zh": "开启"},
    "opt.enabled.desc": {"en": "False turns the question of the day off", "zh": "设为 False 可关闭每日一题"},
    "lang.zh": {"en": "Chinese (中文)", "zh": "中文"},
    "lang.en": {"en": "English", "zh": "英文 (English)"},
    "error": {
        "en": "Something went wrong on my side; nothing you sent was lost. Please try again.",
        "zh": "出了点问题，你发送的内容没有丢失。请重试。",
    },
    "review_due_nudge": {
        "en": "{count} questions are due for review. Send /drill when you have ten minutes.",
        "zh": "有 {count} 道题到期待复习。有十分钟的时候发送 /drill 吧。",
    },
    "post_interview": {
        "en": "How did your interview at {company} go? Log the questions you were asked with "
        "/review {company} | question, and they will join your deck.",
        "zh": "{company} 的面试怎么样？用 /review {company} | 问题 记录被问到的题目，它们会加入你的题组。",
    },
}


def t(lang: Lang, key: str, **kwargs: Any) -> str:
    """Look up `key` in `lang` and format it; a missing key is a bug, so it raises."""
    entry = MESSAGES[key]
    text = entry.get(lang) or entry["en"]
    return text.format(**kwargs) if kwargs else text
