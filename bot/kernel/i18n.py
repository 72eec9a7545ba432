"""The zh / en message catalogue. Every user-facing string of the core lives here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.kernel.i18n_counts import PLURALS
from bot.kernel.i18n_features import CONSOLE_MESSAGES, FEATURE_MESSAGES
from bot.kernel.i18n_guidance import GUIDANCE_MESSAGES
from bot.kernel.i18n_names import NAMES
from bot.kernel.i18n_verdicts import VERDICT_MESSAGES
from bot.kernel.models import Lang

MESSAGES: dict[str, dict[str, str]] = {
    "welcome": {
        "en": "Welcome! I drill you on LLM training interview questions: training stability and the "
        "training pipeline. Answer in your own words; I grade against a rubric and bring weak questions "
        "back with spaced repetition.\nFirst, pick your language. (请先选择语言：中文请选“中文”。)",
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
        "en": "At what local time should the daily drill arrive? For example 08:30, 8pm or 早上八点.",
        "zh": "每天几点推送练习？例如 08:30、早上八点、晚上9点半。",
    },
    "onboarded": {
        "en": "All set: {level}, topics {topics}, {timezone}, daily drill at {daily_time}, "
        "{new} a day. Send /drill for your first question.",
        "zh": "设置完成：{level}，主题 {topics}，时区 {timezone}，每天 {daily_time} 推送，每天 {new}。"
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
    "bad_timezone.suggest": {
        "en": "'{value}' is not a timezone I know. Did you mean {suggestion}? Press it, or type another IANA name "
        "such as Europe/London.",
        "zh": "“{value}”不是有效的时区。你是不是想用 {suggestion}？点它即可，或输入其他 IANA 时区名，例如 Europe/London。",
    },
    "bad_time": {
        "en": "'{value}' is not a time of day I can read. Try 08:30, 21:00, 8pm or 早上八点.",
        "zh": "无法识别时间“{value}”。可以写 08:30、21:00、早上八点 或 晚上9点半。",
    },
    "bad_level": {
        "en": "Level must be one of: campus, engineer, researcher (or 校招, 工程师, 研究员).",
        "zh": "级别只能是 校招（campus）、工程师（engineer）或 研究员（researcher）。",
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
        "en": "/settings tz Asia/Shanghai | time 08:30 | level engineer | topics both | new 5 | "
        "quiet 23:00-08:00 | weekly sun",
        "zh": "/settings tz Asia/Shanghai | time 08:30 | level engineer | topics both | new 5 | "
        "quiet 23:00-08:00 | weekly 周日",
    },
    "setting_saved": {"en": "Saved: {name} is now {value}.", "zh": "已保存{name}：{value}。"},
    "setting.timezone": {"en": "timezone", "zh": "时区"},
    "setting.daily_time": {"en": "daily drill time", "zh": "每日推送时间"},
    "setting.level": {"en": "level", "zh": "级别"},
    "setting.topics": {"en": "topics", "zh": "主题"},
    "setting.new_per_day": {"en": "new questions per day", "zh": "每天新题数"},
    "setting.quiet_hours": {"en": "quiet hours", "zh": "免打扰时段"},
    "setting.weekly_day": {"en": "weekly summary", "zh": "每周回顾"},
    "setting.off": {"en": "off", "zh": "关闭"},
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
        "/stats - your progress\n/company - your companies; /company OLD = NEW merges two names of one company\n"
        "/settings - view or change settings\n/lang zh|en - language\n"
        "/pause, /resume - stop or restart the daily pushes\n"
        "/export - all your data as JSON, and your answers as Markdown\n/forget - delete all your data\n"
        "/privacy - what I store, for how long, where it goes\n"
        "/start - set up again (language, level, topics, timezone, daily time)\n/help - this list\n"
        "Any other text while a question is open is your answer. Every command has a Chinese name too "
        "(/帮助 is /help, /练习 is /drill): /lang zh, then /help lists them.",
        "zh": "命令：（括号里是中文命令名，两种写法都可以）\n/drill（/练习）- 下一题\n/skip（/跳过）- 跳过当前题\n"
        "/reveal（/答案）- 查看参考答案\n"
        "/review（/记题）公司 | 问题 | 你的回答 - 记录真实面试中被问到的问题\n"
        "/interview（/面试）公司 | 岗位 | 2026-12-03 14:00 - 记录一场面试\n（只发 /review 或 /interview 会逐项询问）\n"
        "/stats（/统计）- 学习进度\n"
        "/company（/公司）- 你记录的公司；/company 旧名 = 新名 合并同一家公司的两个名字\n"
        "/settings（/设置）- 查看或修改设置\n/lang（/语言）zh|en - 切换语言\n"
        "/pause（/暂停）、/resume（/恢复）- 暂停或恢复每日推送\n"
        "/export（/导出）- 导出你的全部数据（JSON）和作答记录（Markdown）\n/forget（/删除数据）- 删除你的全部数据\n"
        "/privacy（/隐私）- 我保存什么、保存多久、发往哪里\n"
        "/start（/开始）- 重新设置（语言、级别、主题、时区、每日时间）\n/help（/帮助）- 本帮助\n"
        "有题目未作答时，发送的其他文字即为你的回答。",
    },
    "qtype.open": {"en": "open", "zh": "开放题"},
    "qtype.fault": {"en": "fault", "zh": "故障排查"},
    "qtype.compare": {"en": "compare", "zh": "对比"},
    "qtype.concept": {"en": "concept", "zh": "概念"},
    "qtype.case": {"en": "case", "zh": "经历"},
    "qtype.code": {"en": "code", "zh": "手写代码"},
    "question": {
        "en": "[{topic} / {subtopic} · {qtype} · difficulty {difficulty} · {qid}]{tag}\n{prompt}",
        "zh": "[{topic} / {subtopic} · {qtype} · 难度 {difficulty} · {qid}]{tag}\n{prompt}",
    },
    "tag.personal": {"en": " (from your interview)", "zh": "（来自你的面试）"},
    "question.asked_as": {
        "en": "{asked}\n(Graded with the rubric of bank question {qid}: “{prompt}”)",
        "zh": "{asked}\n（按题库题 {qid} 的评分要点评分：“{prompt}”）",
    },
    "tag.due": {"en": " (review)", "zh": "（复习）"},
    "tag.new": {"en": " (new)", "zh": "（新题）"},
    "answer_hint": {
        "en": "Answer in your own words (text or voice). /skip to skip, /reveal for the reference answer.",
        "zh": "用你自己的话回答（文字或语音）。/skip 跳过，/reveal 查看参考答案。",
    },
    "answer_hint.code": {
        "en": "Write the code, then a line or two on what it must get right. Send it as a code block "
        '(in the terminal, between two lines of """). /skip to skip, /reveal for the reference answer.',
        "zh": '写出代码，再用一两句话说明它必须做对的地方。用代码块发送（终端里把代码放在两行 """ 之间）。'
        "/skip 跳过，/reveal 查看参考答案。",
    },
    "nothing_due": {
        "en": "Nothing is due and you have had today's {new}. Next review: {next}. "
        "Log a real interview question with /review, or raise the limit with /settings new {suggest}.",
        "zh": "目前没有到期的题目，今天的 {new}也已完成。下次复习：{next}。"
        "可以用 /review 记录真实面试题，或用 /settings new {suggest} 提高每日新题数。",
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
        "en": "You have used your AI gradings for the last 24 hours; this is the offline estimate. Each one "
        "counts for 24 hours from when it was made.",
        "zh": "最近 24 小时的 AI 评分次数已用完，以上为离线估算。每次评分从发生起计 24 小时，之后自动恢复。",
    },
    "llm_budget": {
        "en": "The AI grader has reached today's budget for everyone; this is the offline estimate. "
        "It resets at midnight UTC.",
        "zh": "今天所有用户的 AI 评分额度已用完，以上为离线估算，UTC 零点恢复。",
    },
    "checked_twice": {
        "en": "Checked twice: the AI grade was far above the offline estimate, so the answer was graded again "
        "and the lower grade is kept.",
        "zh": "已复核：AI 评分远高于离线估算，因此重新评了一次，保留较低的分数。",
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
    "regraded.overtaken": {
        "en": "You have answered this question again since, so its next review follows that newer answer.",
        "zh": "你之后又答过这道题，所以下次复习按那次较新的作答来安排。",
    },
    "grade.dimensions": {"en": "Dimensions: {items}", "zh": "分项：{items}"},
    "grade.dimension": {"en": "{name} {score}", "zh": "{name} {score}"},
    "dim.coverage": {"en": "coverage", "zh": "要点覆盖"},
    "dim.structure": {"en": "structure", "zh": "结构"},
    "dim.specificity": {"en": "specificity", "zh": "具体程度"},
    "dim.evidence": {"en": "evidence", "zh": "实例"},
    "dim.correctness": {"en": "correctness", "zh": "正确性"},
    "grade.hit": {"en": "Covered:", "zh": "已覆盖："},
    "grade.partial": {"en": "Partly covered:", "zh": "部分覆盖："},
    "grade.missed": {"en": "Missed:", "zh": "遗漏："},
    "grade.mistakes": {"en": "Mistakes:", "zh": "问题："},
    "grade.feedback": {"en": "Feedback: {text}", "zh": "点评：{text}"},
    "grade.follow_up": {"en": "Follow-up: {text}", "zh": "追问：{text}"},
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
    "progress": {"en": "Working on it...", "zh": "正在处理，请稍候…"},
    "progress.grading": {"en": "Reading your answer…", "zh": "正在看你的回答……"},
    "slow_down": {
        "en": "That is more messages than I can read at once, so I did not read this one. "
        "Please send it again in {seconds} s.",
        "zh": "消息发得太快了，这条我没有读取。请 {seconds} 秒后再发一次。",
    },
    "already_grading": {
        "en": "Your answer to this question is being graded already; the result comes in a moment.",
        "zh": "这道题你的回答已经在评分了，结果马上就到。",
    },
    "busy_chat": {
        "en": "I am still working through your earlier messages, so I skipped the ones you sent since. "
        "Wait for my reply, then send them again.",
        "zh": "我还在处理你之前发的消息，之后发来的这几条我跳过了。请等我回复后再发一次。",
    },
    "unsupported_message": {
        "en": "I can read text and voice messages. Send your answer as text or as a voice note.",
        "zh": "我能读取文字和语音消息。请用文字或语音发送你的回答。",
    },
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
        # no {seconds}: the length is counted only just past the limit (a longer file is not read to its end)
        "en": "That recording is longer than the limit of {limit_seconds}. Please keep it shorter, or type your answer.",
        "zh": "这段录音超过了 {limit_seconds}的上限。请缩短后再发，或直接输入文字回答。",
    },
    "voice_timing": {
        # a file whose container timestamps disagree with its audio frames (it misstates its length)
        "en": "That recording's timing information does not match its audio, so I cannot tell how long it is. "
        "Please record it again or export it once more, or type your answer.",
        "zh": "这段录音的时间信息和实际音频对不上，无法判断它有多长。请重新录制或重新导出后再发，或直接输入文字回答。",
    },
    "voice_unreadable": {
        "en": "I could not read that audio file. I read voice messages and OGG, WebM, MP3, WAV, FLAC or M4A files. "
        "Please send it again, or type your answer.",
        "zh": "无法读取这段音频。支持语音消息，以及 OGG、WebM、MP3、WAV、FLAC、M4A 格式的音频文件。"
        "请重新发送，或直接输入文字回答。",
    },
    "voice_silent": {
        "en": "I could not hear any words in that recording. Please try again, or type your answer.",
        "zh": "这段录音里没有识别到语音。请重试，或直接输入文字回答。",
    },
    "voice_limit": {
        "en": "This recording ({length}) would take you past {limit} of voice answers in 24 hours ({left} left), so "
        "I did not transcribe it. Please type your answer (typed answers have no such limit), or send a shorter "
        "recording.",
        "zh": "这段录音（{length}）会超出 24 小时内 {limit}的语音作答上限（还剩 {left}），所以没有转写。"
        "请直接输入文字回答（文字作答不受这个限制），或发一段更短的录音。",
    },
    "voice_budget": {
        "en": "Voice transcription has reached today's budget for everyone, so I did not transcribe this "
        "recording. Please type your answer; voice answers are back after midnight UTC.",
        "zh": "今天所有用户的语音转写额度已用完，这段录音没有转写。请直接输入文字回答；UTC 零点后可以再用语音作答。",
    },
    "voice_service_down": {
        "en": "Speech recognition is not working right now. Please try again in a few minutes, or type your answer.",
        "zh": "语音识别服务暂时不可用。请过几分钟再试，或直接输入文字回答。",
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
        "en": "'{value}' is not a quiet-hours window. Use start-end, e.g. 23:00-08:00 or 11pm-8am, or 'off'.",
        "zh": "“{value}”不是有效的免打扰时段。请写“开始-结束”，例如 23:00-08:00 或 晚上11点到早上8点，或 off 关闭。",
    },
    "bad_weekday": {
        "en": "'{value}' is not a day of the week. Use mon, tue, ..., sun, or 'off'.",
        "zh": "“{value}”不是星期几。请用 周一 到 周日（或 mon ... sun），或 off 关闭。",
    },
    "post_interview_again": {
        "en": "Did you get to log the questions from {company}? Even two or three help: "
        "/review {company} | question. They join your deck so you can practise them.",
        "zh": "{company} 的面试题记录了吗？哪怕两三道也有用：/review {company} | 问题。它们会加入你的题组供你练习。",
    },
    "transcript": {"en": "I heard:\n{text}", "zh": "识别结果：\n{text}"},
    "tag.server": {"en": "", "zh": ""},
    "btn.answer": {"en": "Answer", "zh": "回答"},
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
    "discord.private_here": {
        "en": "Only you can see this: you can't send messages in this channel.",
        "zh": "这条只有你能看到：你在这个频道没有发言权限。",
    },
    "lang.zh": {"en": "Chinese (中文)", "zh": "中文"},
    "lang.en": {"en": "English", "zh": "英文 (English)"},
    "error": {
        "en": "Something went wrong on my side, so this may not have been saved. Please send it again.",
        "zh": "我这边出了点问题，这条内容可能没有保存，请再发一次。",
    },
    "error.not_saved": {
        "en": "Saving failed on my side, so this was NOT saved. Please send it again.",
        "zh": "我这边保存失败，这条内容没有保存，请再发一次。",
    },
    "post_interview": {
        "en": "How did your interview at {company} go? Log the questions you were asked with "
        "/review {company} | question, and they will join your deck.",
        "zh": "{company} 的面试怎么样？用 /review {company} | 问题 记录被问到的题目，它们会加入你的题组。",
    },
}


def register(
    messages: Mapping[str, Mapping[str, str]], plurals: Mapping[str, Mapping[str, Mapping[str, str]]] | None = None
) -> None:
    """Add a catalogue (a feature's messages register themselves when its package is imported); a key that is
    already there is a bug, so it raises."""
    taken = sorted(set(messages) & set(MESSAGES)) + sorted(set(plurals or {}) & set(PLURALS))
    if taken:
        raise ValueError(f"message keys registered twice: {', '.join(taken[:10])}")
    MESSAGES.update({key: dict(texts) for key, texts in messages.items()})
    PLURALS.update(
        {key: {lang: dict(forms) for lang, forms in by_lang.items()} for key, by_lang in (plurals or {}).items()}
    )


for _catalogue in (NAMES, FEATURE_MESSAGES, GUIDANCE_MESSAGES, CONSOLE_MESSAGES, VERDICT_MESSAGES):
    register(_catalogue)
LIST_SEPARATOR = {"en": ", ", "zh": "、"}


def t(lang: Lang, key: str, **kwargs: Any) -> str:
    """Look up `key` in `lang` and format it; a missing key is a bug, so it raises."""
    entry = MESSAGES[key]
    text = entry.get(lang) or entry["en"]
    return text.format(**kwargs) if kwargs else text


def plural_form(lang: Lang, n: int) -> str:
    """The CLDR plural category of a whole number: English "one" for exactly 1, Chinese has only "other"."""
    return "one" if lang == "en" and n == 1 else "other"


def tn(lang: Lang, key: str, n: int, **kwargs: Any) -> str:
    """Look up a counted message (bot/kernel/i18n_counts.py) in the form `n` takes and format it with `n`."""
    forms = PLURALS[key].get(lang) or PLURALS[key]["en"]
    return forms.get(plural_form(lang, n), forms["other"]).format(n=n, **kwargs)


def listing(lang: Lang, items: Iterable[str]) -> str:
    """Items as one list: "a, b, c" in English, "a、b、c" in Chinese."""
    return LIST_SEPARATOR[lang].join(items)
