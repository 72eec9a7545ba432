"""Messages of the answer notebook (/notes: bot/features/notebook/notebook.py, notebook_versions.py, notebook_view.py)."""

from __future__ import annotations

NOTES_PLURALS: dict[str, dict[str, dict[str, str]]] = {
    "count.version": {"en": {"one": "{n} version", "other": "{n} versions"}, "zh": {"other": "{n} 个版本"}},
    "count.note": {"en": {"one": "{n} notebook entry", "other": "{n} notebook entries"}, "zh": {"other": "{n} 条记录"}},
}

NOTES_MESSAGES: dict[str, dict[str, str]] = {
    "help.notes": {
        "en": "\n/notes - your answer notebook: answers you saved after a grade, side by side "
        "(/notes 2, or /notes and words of a question, opens one; /notes export gives a Markdown file)",
        "zh": "\n/notes（/笔记）- 答案本：评分后保存下来的回答，按题对比各个版本"
        "（/notes 2 或 /notes 关键词 打开某道题，/notes export 导出 Markdown 文件）",
    },
    "cmd.notes": {"en": "notes", "zh": "答案本"},
    "cmd.notes.desc": {
        "en": "Your answer notebook: saved answers, versions side by side",
        "zh": "答案本：保存的回答，按版本对比",
    },
    "opt.notes_question": {"en": "question", "zh": "题目"},
    "opt.notes_question.desc": {
        "en": 'A number from the list, or words of the question ("export" for a Markdown file)',
        "zh": "列表里的编号，或题目中的词（填 export 导出 Markdown 文件）",
    },
    "notes.btn.save": {"en": "Save to notebook", "zh": "存入答案本"},
    "notes.btn.save_q": {"en": "Save Q{n}", "zh": "保存第 {n} 题"},
    "notes.btn.tag": {"en": "Tag a company", "zh": "标注公司"},
    "notes.btn.best": {"en": "Mark as best", "zh": "设为最佳"},
    "notes.btn.open": {"en": "Open notebook", "zh": "打开答案本"},
    "notes.btn.all": {"en": "All versions", "zh": "全部版本"},
    "notes.btn.write": {"en": "Write a new version", "zh": "写一个新版本"},
    "notes.btn.delete": {"en": "Delete", "zh": "删除"},
    "notes.btn.delete_yes": {"en": "Yes, delete it", "zh": "确认删除"},
    "notes.btn.star": {"en": "Rewrite with STAR", "zh": "用 STAR 改写"},
    "notes.btn.tighten": {"en": "Tighten to 2 minutes", "zh": "压缩到 2 分钟"},
    "notes.btn.keep": {"en": "Keep as new version", "zh": "存为新版本"},
    "notes.btn.discard": {"en": "Discard", "zh": "不要了"},
    "notes.btn.export": {"en": "Export as Markdown", "zh": "导出 Markdown"},
    "notes.version": {"en": "v{n}", "zh": "v{n}"},
    "notes.score": {"en": "{score}/100", "zh": "{score} 分"},
    "notes.checked": {"en": "key points {found}/{total}, offline check", "zh": "要点 {found}/{total}（离线检查）"},
    "notes.ungraded": {"en": "not graded", "zh": "未评分"},
    "notes.for_company": {"en": "for {company}", "zh": "面向{company}"},
    "notes.origin.graded": {"en": "from a drill", "zh": "来自练习"},
    "notes.origin.hand": {"en": "written by hand", "zh": "手写"},
    "notes.origin.star": {"en": "STAR rewrite", "zh": "STAR 改写"},
    "notes.origin.tighten": {"en": "2-minute version", "zh": "2 分钟版"},
    "notes.kp.hit": {"en": "Covered: {points}", "zh": "已覆盖：{points}"},
    "notes.kp.partial": {"en": "Partly: {points}", "zh": "部分覆盖：{points}"},
    "notes.kp.missed": {"en": "Missed: {points}", "zh": "遗漏：{points}"},
    "notes.md.hit": {"en": "Covered:", "zh": "已覆盖："},
    "notes.md.partial": {"en": "Partly covered:", "zh": "部分覆盖："},
    "notes.md.missed": {"en": "Missed:", "zh": "遗漏："},
    "notes.empty": {
        "en": 'Your notebook is empty. After a graded answer, press "Save to notebook" to keep it here as a '
        "version you can compare and improve.",
        "zh": "答案本还是空的。答完题拿到评分后，点“存入答案本”，就能把这次回答存为一个版本，之后对比、改进。",
    },
    "notes.list.title": {
        "en": "Your answer notebook: {questions}, {versions}.",
        "zh": "你的答案本：{questions}，共 {versions}。",
    },
    "notes.list.best": {"en": "best {score}", "zh": "最高 {score} 分"},
    "notes.list.best_checked": {"en": "best: key points {found}/{total}", "zh": "最好：要点 {found}/{total}"},
    "notes.list.more": {
        "en": "…and {n} more: /notes and words of the question finds one.",
        "zh": "……还有 {n} 道，用 /notes 关键词 查找。",
    },
    "notes.list.hint": {
        "en": "Send /notes and a number to see that question's versions side by side.",
        "zh": "发送 /notes 编号，查看这道题各个版本的对比。",
    },
    "notes.compare.title": {"en": "Your versions of: {prompt}", "zh": "这道题的各个版本：{prompt}"},
    "notes.compare.none": {
        "en": "No version yet. Write one below, or save one after a graded answer.",
        "zh": "还没有版本。可以在下面手写一个，或在答题评分后保存。",
    },
    "notes.compare.no_points": {
        "en": "This question has no key points, so versions are compared by score only.",
        "zh": "这道题没有评分要点，各版本只按分数对比。",
    },
    "notes.open.title": {"en": "Version of: {prompt}", "zh": "回答版本：{prompt}"},
    "notes.md.title": {
        "en": "Answer notebook, {date} ({questions}, {versions})",
        "zh": "答案本，{date}（{questions}，{versions}）",
    },
    "notes.export.done": {
        "en": "Your notebook as Markdown: one section per question, the best version first.",
        "zh": "答案本已导出为 Markdown：每道题一节，最佳版本排在最前。",
    },
    "notes.saved": {
        "en": 'Saved as version {n} of "{prompt}" ({score}).',
        "zh": "已存为“{prompt}”的第 {n} 版（{score}）。",
    },
    "notes.saved.already": {
        "en": 'This answer is already version {n} of "{prompt}" ({score}).',
        "zh": "这次回答已经是“{prompt}”的第 {n} 版（{score}）。",
    },
    "notes.saved.updated": {
        "en": 'This answer is version {n} of "{prompt}"; its grade is now the new one ({score}).',
        "zh": "这次回答是“{prompt}”的第 {n} 版，已更新为新的评分（{score}）。",
    },
    "notes.save.ungraded": {
        "en": "That answer has no grade yet, so there is nothing to save. Try again once it is graded.",
        "zh": "这次回答还没有评分，暂时不能保存。评分出来后再试。",
    },
    "notes.save.follow_up": {
        "en": "Follow-up answers are not kept in the notebook: it holds answers to the main question.",
        "zh": "追问的回答不存入答案本：答案本只保存对主问题的回答。",
    },
    "notes.not_found": {
        "en": "I could not find that in your notebook.",
        "zh": "答案本里找不到这一项。",
    },
    "notes.limit.total": {
        "en": "Your notebook is full ({entries}). Delete versions you no longer need, then save again.",
        "zh": "答案本已满（{entries}）。删掉不需要的版本后再保存。",
    },
    "notes.limit.versions": {
        "en": "This question already has {versions}, the most I keep. Delete one you no longer need first.",
        "zh": "这道题已有 {versions}，已达上限。请先删掉一个不需要的版本。",
    },
    "notes.write.ask": {
        "en": "Write your new version of:\n{prompt}\n\nSend it as text or a voice message; it will be graded and kept "
        "as a version (your review schedule is not changed).",
        "zh": "请写出这道题的新版本：\n{prompt}\n\n用文字或语音发送，评分后会存为一个版本（不影响复习计划）。",
    },
    "notes.write.empty": {
        "en": "That version is empty. Send your answer as text or a voice message.",
        "zh": "内容是空的。请用文字或语音发送你的回答。",
    },
    "notes.write.too_long": {
        "en": "That version is {length} characters; a version can be up to {limit}. Send a shorter one.",
        "zh": "这个版本有 {length} 个字符，上限是 {limit}。请发一个更短的。",
    },
    "notes.grade_failed": {
        "en": "I could not grade it just now, so it is kept without a score.",
        "zh": "暂时没能评分，这个版本先不带分数保存。",
    },
    "notes.best.done": {
        "en": 'Version {n} is now your best answer to "{prompt}".',
        "zh": "第 {n} 版已设为“{prompt}”的最佳回答。",
    },
    "notes.tag.ask": {
        "en": 'Which company is version {n} for? Send its name (e.g. ByteDance), or "-" to remove the tag.',
        "zh": "第 {n} 版是为哪家公司准备的？请发送公司名（例如 字节跳动），发送“-”可去掉标注。",
    },
    "notes.tag.empty": {
        "en": 'Send a company name, or "-" to remove the tag.',
        "zh": "请发送公司名，或发送“-”去掉标注。",
    },
    "notes.tag.too_long": {
        "en": "That name is too long (up to {chars}). Send a shorter one.",
        "zh": "公司名太长了（最多 {chars}），请发短一点的。",
    },
    "notes.tag.done": {"en": "Version {n} is tagged for {company}.", "zh": "第 {n} 版已标注为面向{company}。"},
    "notes.tag.cleared": {"en": "Version {n} has no company tag now.", "zh": "第 {n} 版的公司标注已去掉。"},
    "notes.delete.ask": {
        "en": "Delete version {n}? This cannot be undone.",
        "zh": "删除第 {n} 版？删除后无法恢复。",
    },
    "notes.delete.done": {"en": "Version {n} is deleted.", "zh": "第 {n} 版已删除。"},
    "notes.find.no_number": {
        "en": "There is no question {n} in your notebook (it lists {count}). /notes shows the list.",
        "zh": "答案本里没有第 {n} 道题（一共 {count} 道）。发送 /notes 查看列表。",
    },
    "notes.find.none": {
        "en": 'No question in your notebook matches "{words}". /notes shows the list.',
        "zh": "答案本里没有和“{words}”匹配的题目。发送 /notes 查看列表。",
    },
    "notes.find.several": {
        "en": "Several questions match; which one?",
        "zh": "有几道题都匹配，是哪一道？",
    },
    "notes.llm.none": {
        "en": "That rewrite needs the AI, which is not available for this question here.",
        "zh": "这种改写需要 AI，而这道题目前用不了。",
    },
    "notes.llm.limit": {
        "en": "You have used your AI calls for the last 24 hours; rewrites are available again as the earliest of "
        "them pass 24 hours.",
        "zh": "最近 24 小时的 AI 次数已用完；最早的一次满 24 小时后就可以再改写。",
    },
    "notes.llm.failed": {
        "en": "The AI could not write a rewrite just now. Try again later.",
        "zh": "AI 暂时没能写出改写，请稍后再试。",
    },
    "notes.proposal.star": {
        "en": "Version {n} rewritten in STAR from your own facts (fill in anything in brackets):",
        "zh": "用你自己的事实把第 {n} 版改写成 STAR 结构（方括号里的内容请自己补上）：",
    },
    "notes.proposal.tighten": {
        "en": "Version {n} tightened to about two minutes, with your own facts:",
        "zh": "把第 {n} 版压缩到两分钟左右，只用你自己的事实：",
    },
    "notes.proposal.ask": {
        "en": "Keep it as a new version (it will be graded), or discard it?",
        "zh": "存为新版本（会重新评分），还是不要？",
    },
    "notes.proposal.waiting": {
        "en": "A rewrite is waiting: keep it as a new version or discard it first.",
        "zh": "还有一个改写等你决定：先选择存为新版本或不要。",
    },
    "notes.proposal.discarded": {"en": "Discarded; nothing was saved.", "zh": "已放弃，没有保存。"},
}
