"""Messages of /jd (bot/features/jd/jd.py, bot/features/jd/read.py): tailoring the practice to a job description."""

from __future__ import annotations

JD_MESSAGES: dict[str, dict[str, str]] = {
    "help.jd": {
        "en": "\n/jd - tailor your practice to a job description: paste it (or send a .txt/.md/.pdf file); "
        "/jd list, /jd use N, /jd off",
        "zh": "\n/jd（/职位）- 按职位描述（JD）调整练习重点：粘贴 JD（或发送 .txt/.md/.pdf 文件）；/jd list、/jd use N、/jd off",
    },
    "cmd.jd": {"en": "jd", "zh": "职位描述"},
    "cmd.jd.desc": {
        "en": "Tailor your practice to a job description (paste it, or attach a file)",
        "zh": "按职位描述调整练习重点（粘贴 JD 或附上文件）",
    },
    "opt.jd_text": {"en": "text", "zh": "内容"},
    "opt.jd_text.desc": {
        "en": "The job description, or: list, use N, delete N, off",
        "zh": "JD 全文，或者：list、use N、delete N、off",
    },
    "opt.jd_file": {"en": "file", "zh": "文件"},
    "opt.jd_file.desc": {"en": "The job description as a .txt, .md or .pdf file", "zh": "JD 文件（.txt、.md 或 .pdf）"},
    "jd.paste": {
        "en": "Paste a job description (or send it as a .txt, .md or .pdf file). I will find the skills it asks "
        "for, show how well you hold each one, and focus your practice on them for the days you choose.",
        "zh": "请粘贴一份职位描述（也可以发送 .txt、.md 或 .pdf 文件）。我会找出它要求的技能，告诉你每项的掌握情况，"
        "并在你选定的天数里把练习重点放在这些技能上。",
    },
    "jd.kept_header": {"en": "Your job descriptions:", "zh": "你保存的职位描述："},
    "jd.kept_line": {"en": "{n}. {title}: {subtopics}", "zh": "{n}. {title}：{subtopics}"},
    "jd.active_mark": {"en": " - focus until {until}", "zh": " - 练习重点，至 {until}"},
    "jd.none_kept": {
        "en": "You have no job descriptions yet. Send /jd and paste one.",
        "zh": "你还没有保存职位描述。发送 /jd 然后粘贴一份。",
    },
    "jd.list_hint": {
        "en": "/jd N shows what was read from one; /jd use N [days] focuses your practice on it; /jd delete N "
        "removes it; /jd off ends the focus.",
        "zh": "/jd N 查看第 N 份读出的全部内容；/jd use N [天数] 把练习重点设为第 N 份；/jd delete N 删除；"
        "/jd off 取消练习重点。",
    },
    "jd.usage": {
        "en": "/jd (paste a job description), /jd list, /jd use N [days], /jd delete N, /jd off, /jd N (what was "
        "read from N)",
        "zh": "/jd（粘贴职位描述）、/jd list、/jd use N [天数]、/jd delete N、/jd off、/jd N（查看第 N 份读出的内容）",
    },
    "jd.not_found": {
        "en": "I have no job description {n}. /jd list shows yours.",
        "zh": "没有第 {n} 份职位描述。/jd list 可以查看你保存的。",
    },
    "jd.bad_days": {
        "en": "The number of days must be between 1 and {most}. For example: /jd use 1 14",
        "zh": "练习重点可以持续 1 到 {most} 天。例如：/jd use 1 14",
    },
    "jd.empty": {
        "en": "That was empty. Paste the job description's text, or send it as a file.",
        "zh": "内容是空的。请粘贴职位描述的文字，或以文件形式发送。",
    },
    "jd.too_many": {
        "en": "You already keep as many job descriptions as I can keep ({most}). Delete one first (/jd list, "
        "then /jd delete N).",
        "zh": "你已经保存了 {most} 份职位描述，这是上限。请先删除一份（/jd list 查看，再 /jd delete N）。",
    },
    "jd.no_skills": {
        "en": "I found no skills I can match to the question bank in that text. Is it a job description? "
        "Paste the part with the responsibilities and requirements.",
        "zh": "这段文字里没有找到能和题库对应的技能。这是职位描述吗？请粘贴包含岗位职责和任职要求的部分。",
    },
    "jd.no_skills_uncovered": {
        "en": "The skills I found are ones the bank does not cover: {skills}. There is nothing in the bank to "
        "focus on, so I did not keep it.",
        "zh": "找到的技能都不在题库覆盖范围内：{skills}。题库里没有可以作为练习重点的内容，所以没有保存。",
    },
    "jd.read_offline": {"en": "Read offline (matching the bank's topics).", "zh": "离线读取（按题库的主题匹配）。"},
    "jd.read_llm": {"en": "Read by the AI.", "zh": "由 AI 读取。"},
    "jd.llm_failed": {
        "en": "The AI could not read it just now, so I read it offline (matching the bank's topics, no "
        "questions written for this job).",
        "zh": "AI 暂时无法读取，已改为离线读取（只按题库的主题匹配，不会为这个职位出题）。",
    },
    "jd.llm_limit": {
        "en": "You have used your AI calls for the last 24 hours, so I read it offline (matching the bank's topics, "
        "no questions written for this job). Each call counts for 24 hours from when it was made.",
        "zh": "最近 24 小时的 AI 调用次数已用完，已改为离线读取（只按题库的主题匹配，不会为这个职位出题）。"
        "每次调用从发生起计 24 小时。",
    },
    "jd.llm_budget": {
        "en": "The AI has reached today's budget for everyone, so I read it offline (matching the bank's topics, "
        "no questions written for this job). It resets at midnight UTC.",
        "zh": "今天所有用户的 AI 额度已用完，已改为离线读取（只按题库的主题匹配，不会为这个职位出题），UTC 零点恢复。",
    },
    "jd.matched_header": {"en": "What it asks for, from the bank:", "zh": "题库中对应的技能："},
    "jd.line_mastery": {
        "en": "- {subtopic}: mastery {mastery}, {due} due",
        "zh": "- {subtopic}：掌握度 {mastery}，{due}待复习",
    },
    "jd.line_new": {
        "en": "- {subtopic}: not practised yet ({questions} in the bank)",
        "zh": "- {subtopic}：还没练过（题库里有 {questions}）",
    },
    "jd.also_mentioned": {
        "en": "Also mentioned (not your focus, still in your practice): {subtopics}",
        "zh": "也提到了（不作为练习重点，照常练习）：{subtopics}",
    },
    "jd.kept_mentioned": {
        "en": " (and {subtopics} also mentioned, shown by /jd {n})",
        "zh": "（另提到 {subtopics}：/jd {n} 查看）",
    },
    "jd.uncovered": {
        "en": "Not in the bank (practise these elsewhere): {skills}",
        "zh": "题库未覆盖（需要另外准备）：{skills}",
    },
    "jd.generated": {
        "en": "I wrote {questions} for this job (marked generated, with rubrics where the AI gave one); they are "
        "in your deck as personal cards.",
        "zh": "我为这个职位写了 {questions}（标记为生成题，AI 给出评分要点的附有要点），已作为个人题加入你的题库。",
    },
    "jd.choose_days": {
        "en": "Kept as number {n}. Focus your practice on it for how long? (Or later: /jd use {n})",
        "zh": "已保存为第 {n} 份。要把练习重点放在它上面多久？（也可以之后再用 /jd use {n}。）",
    },
    "jd.focus_set": {
        "en": "Focus set on \u201c{title}\u201d until {until}. /drill, the daily push and /mock now favour its "
        "subtopics ({subtopics}); due reviews still come first, and the rest of the bank still comes up. "
        "/jd off ends it.",
        "zh": "练习重点已设为“{title}”，至 {until}。/drill、每日推送和 /mock 会优先出这些方向的题（{subtopics}）；"
        "到期复习仍然最先，题库其他内容也照常出现。/jd off 可取消。",
    },
    "jd.off": {
        "en": "The focus on \u201c{title}\u201d is off; your practice covers the whole bank again. The job "
        "description is still kept (/jd list).",
        "zh": "已取消“{title}”的练习重点，练习恢复覆盖整个题库。这份职位描述仍然保留（/jd list）。",
    },
    "jd.off_none": {
        "en": "No job description is focusing your practice now.",
        "zh": "目前没有设置职位描述作为练习重点。",
    },
    "jd.deleted": {"en": "Deleted {n}. {title}.", "zh": "已删除第 {n} 份：{title}。"},
    "jd.deleted_active": {
        "en": "Deleted {n}. {title}; it was your focus, so your practice covers the whole bank again.",
        "zh": "已删除第 {n} 份：{title}。它原来是练习重点，现在练习恢复覆盖整个题库。",
    },
    "jd.cancelled": {"en": "OK, nothing was read or kept.", "zh": "好的，没有读取或保存任何内容。"},
    "jd.gone": {
        "en": "That job description is gone (deleted, or not yours). /jd list shows yours.",
        "zh": "这份职位描述已经不存在（已删除或不属于你）。/jd list 可以查看你保存的。",
    },
    "jd.untitled": {"en": "Job description", "zh": "职位描述"},
}
