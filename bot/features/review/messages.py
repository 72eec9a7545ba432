"""Messages about what users record and keep: /review and /interview, their caps, /forget and /export.
Merged into the catalogue in bot/kernel/i18n.py."""

from __future__ import annotations

RECORD_MESSAGES: dict[str, dict[str, str]] = {
    "review.usage": {
        "en": "/review company | the question you were asked | how you answered (optional)",
        "zh": "/review 公司 | 被问到的问题 | 你当时的回答（可选）",
    },
    "review.no_question": {
        "en": "Please include the question you were asked: /review company | question",
        "zh": "请写上被问到的问题：/review 公司 | 问题",
    },
    "review.matched": {
        "en": "Logged for {company}: your question, in your words, graded with the rubric of the bank question "
        "“{rubric}” ({subtopic}).",
        "zh": "已记录（{company}）：题目保留你的原话，按题库中“{rubric}”（{subtopic}）这道题的评分要点来评。",
    },
    "review.offered": {
        "en": "Logged for {company} as your own question for now.",
        "zh": "已记录（{company}），先作为你自己的题目保存。",
    },
    "review.pick": {
        "en": "It may be one of these bank questions: pick it and its rubric grades your question, or keep it "
        "as your own.\n{listing}",
        "zh": "它可能是下面某道题库题目：选中后就用那道题的评分要点来评你的题；也可以保留为你自己的题目。\n{listing}",
    },
    "review.graded_after_pick": {
        "en": "\nYour answer is graded once you choose.",
        "zh": "\n选好之后，我会给你当时的回答评分。",
    },
    "review.pick_none": {"en": "Keep it as my own", "zh": "保留为我自己的题"},
    "review.kept_personal": {
        "en": "Kept as your own question. It is in your deck: send /drill to practise it.",
        "zh": "已保留为你的个人题目，在题组里，发送 /drill 练习。",
    },
    "review.kept_personal_graded": {
        "en": "Kept as your own question. Your answer is graded below, as a review of its card.",
        "zh": "已保留为你的个人题目。下面是你当时回答的评分，计入这张卡片的复习。",
    },
    "review.personal": {
        "en": "Logged for {company} as a personal question (no close match in the bank).",
        "zh": "已记录（{company}），作为个人题目加入题组（题库中没有相近的题）。",
    },
    "review.generated": {
        "en": "Logged for {company} as a personal question, with a rubric written by the AI grader (no close "
        "match in the bank).",
        "zh": "已记录（{company}），作为个人题目加入题组，评分要点由 AI 生成（题库中没有相近的题）。",
    },
    "review.due_now": {
        "en": "It is in your deck and due now: send /drill to practise it.",
        "zh": "它已立即到期，发送 /drill 练习。",
    },
    "review.answer_graded": {
        "en": "Your answer is graded below, as a review of its card: the card comes back when the grade says.",
        "zh": "下面是你当时回答的评分，计入这张卡片的复习：下次什么时候再练由这次评分决定。",
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
    "cap.review_day": {
        "en": "You have logged {logged} today, the most for one day, so this one was not "
        "saved. Please log it again tomorrow.",
        "zh": "你今天已经记录了 {logged}，达到了每天的上限，这一道没有保存。请明天再记录。",
    },
    "cap.review_total": {
        "en": "You have logged {logged}, the most I keep for one person, so this one was not "
        "saved. /export gives you a copy of everything; /forget deletes it all so you can start over.",
        "zh": "你已经记录了 {logged}，达到了每人的上限，这一道没有保存。/export 可以导出你的全部数据；"
        "/forget 会删除全部数据，之后可以重新开始。",
    },
    "cap.interview_day": {
        "en": "You have logged {logged} today, the most for one day, so this one was not saved. "
        "Please log it again tomorrow.",
        "zh": "你今天已经记录了 {logged}，达到了每天的上限，这一场没有保存。请明天再记录。",
    },
    "cap.interview_total": {
        "en": "You have logged {logged}, the most I keep for one person, so this one was not saved. "
        "/export gives you a copy of everything; /forget deletes it all so you can start over.",
        "zh": "你已经记录了 {logged}，达到了每人的上限，这一场没有保存。/export 可以导出你的全部数据；"
        "/forget 会删除全部数据，之后可以重新开始。",
    },
    "forget.confirm": {
        "en": "This deletes ALL your data: settings, deck, answers, interview logs. It cannot be undone. Are you sure?",
        "zh": "这将删除你的全部数据：设置、题组、作答记录、面试记录，且无法恢复。确定吗？",
    },
    "forget.done": {
        "en": "All your data has been deleted: {what}. Your next message starts afresh. So that the daily limits "
        "still hold, all that is kept is how many AI calls and seconds of voice transcription this account used "
        "(no content, the account only under a one-way key), erased within two days.",
        "zh": "你的全部数据已删除：{what}。你的下一条消息会重新开始。为了让每日限额继续有效，仅保留这个账号用过多少次 "
        "AI 调用和多少秒语音转写（不含任何内容，账号只以单向哈希保存），两天内自动清除。",
    },
    "forget.settings": {"en": "your settings", "zh": "你的设置"},
    "forget.cancelled": {"en": "Nothing was deleted.", "zh": "已取消，没有删除任何数据。"},
    "export.done": {
        "en": "Here is all your data as JSON ({answers}).",
        "zh": "这是你的全部数据（JSON，共 {answers}）。",
    },
    "export.zipped": {
        "en": "Here is all your data ({answers}): {mb} MB of JSON, zipped to fit the {limit} MB upload limit.",
        "zh": "这是你的全部数据（共 {answers}）：JSON 有 {mb} MB，为了不超过 {limit} MB 的上传上限，已压缩为 zip。",
    },
    "export.split": {
        "en": "Here is all your data ({answers}): {mb} MB of JSON, more than fits under the {limit} MB upload "
        "limit even zipped, so it comes in {parts} zip files. Each holds one complete JSON file with part of the "
        "records; this is part 1.",
        "zh": "这是你的全部数据（共 {answers}）：JSON 有 {mb} MB，压缩后仍超过 {limit} MB 的上传上限，"
        "所以分成 {parts} 个 zip 文件发送。每个文件都是完整的 JSON，包含一部分记录；这是第 1 部分。",
    },
    "privacy": {
        "en": "Your data and privacy\n"
        "What I store: your settings (language, level, topics, timezone, daily time), your deck and its review "
        "history, every answer you send with its grade, the transcript of each voice answer (not the audio), "
        "your interviews and the questions you log with /review or /debrief, mock interviews, job descriptions "
        "(/jd), your answer notebook (/notes) and applications (/apps). They are kept in {database}.\n"
        "For how long: until you delete them; nothing expires on its own. (The ids of the messages I handled "
        "are kept {days}, so a message delivered twice is handled once.)\n"
        "Where your answers go: {llm} {voice}\n"
        "A copy: /export sends all of it as JSON, and your answers as Markdown.\n"
        "Delete: /forget deletes all of it, at once and for good; so that the daily limits still hold, it keeps "
        "only how many AI calls and seconds of voice transcription the account used (no content, the account "
        "under a one-way key), erased within two days.",
        "zh": "你的数据与隐私\n"
        "我保存的内容：你的设置（语言、级别、主题、时区、每日时间）、题组及复习记录、你发来的每个回答及其评分、"
        "语音回答的转写文字（不保存音频本身）、面试记录和你用 /review 或 /debrief 记下的题目、模拟面试、"
        "职位描述（/jd）、答案本（/notes）和投递记录（/apps）。这些都存放在{database}。\n"
        "保存多久：直到你删除为止，不会自动过期。（我处理过的消息编号会保留 {days}，"
        "避免同一条消息被重复处理。）\n"
        "回答会发到哪里：{llm}{voice}\n"
        "导出副本：/export 会把全部数据导出为 JSON，并把你的回答导出为 Markdown。\n"
        "删除：/forget 会立即、彻底删除全部数据；为了让每日限额继续有效，只保留这个账号用过多少次 AI 调用和多少秒"
        "语音转写（不含任何内容，账号只以单向哈希保存），两天内自动清除。",
    },
    "privacy.db.SQLite": {
        "en": "a SQLite file on the server that runs this bot",
        "zh": "运行这个机器人的服务器上的一个 SQLite 文件里",
    },
    "privacy.db.PostgreSQL": {
        "en": "the PostgreSQL database of the servers that run this bot",
        "zh": "运行这个机器人的服务器的 PostgreSQL 数据库里",
    },
    "privacy.llm": {
        "en": "each answer is graded by the LLM at {llm}: it is sent there with its question and rubric, and that "
        "provider's own data policy applies.",
        "zh": "每个回答由 {llm} 上的大模型评分：回答会连同题目和评分要点一起发送过去，适用该服务商自己的数据政策。",
    },
    "privacy.no_llm": {
        "en": "answers are graded on this server (the offline checklist); none is sent to an LLM.",
        "zh": "回答在本服务器上评分（离线要点核对），不会发给任何大模型。",
    },
    "privacy.voice.local": {
        "en": "Voice answers are transcribed on this server.",
        "zh": "语音回答在本服务器上转写。",
    },
    "privacy.voice.none": {"en": "Voice answers are turned off.", "zh": "语音回答未开启。"},
    "privacy.voice.host": {
        "en": "Voice answers are sent to {host} to be transcribed.",
        "zh": "语音回答会发送到 {host} 转写。",
    },
    "export.part": {"en": "Your data, part {part} of {parts}.", "zh": "你的数据，第 {part} 部分，共 {parts} 部分。"},
}
