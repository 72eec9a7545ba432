"""Messages of /debrief (bot/features/debrief/debrief.py): interview notes split into the questions asked, then logged."""

from __future__ import annotations

DEBRIEF_MESSAGES: dict[str, dict[str, str]] = {
    "help.debrief": {
        "en": "\n/debrief [company] - after a real interview, paste your notes or the transcript (or send the "
        "file): I find the questions asked and log them all for review, your recalled answers graded",
        "zh": "\n/debrief（/复盘）[公司] - 面试结束后，粘贴你的笔记或文字记录（或直接发文件）：我找出被问到的题，"
        "全部记录下来复习，并给你记得的回答打分",
    },
    "cmd.debrief": {"en": "debrief", "zh": "面经"},
    "cmd.debrief.desc": {
        "en": "Log every question of a real interview from your notes or transcript",
        "zh": "从面试笔记或文字记录中一次记录所有被问到的题",
    },
    "opt.notes_text": {"en": "notes", "zh": "笔记"},
    "opt.notes_text.desc": {
        "en": "Your notes (number the questions or end them with ?), or leave empty and send a file",
        "zh": "你的笔记（题目编号或以问号结尾），也可以留空改发文件",
    },
    "opt.notes_file": {"en": "file", "zh": "文件"},
    "opt.notes_file.desc": {
        "en": "Your notes or transcript (.txt, .md, .pdf)",
        "zh": "笔记或文字记录（.txt、.md、.pdf）",
    },
    "opt.debrief_company.desc": {
        "en": "The company (leave empty to pick one of your logged interviews)",
        "zh": "面试的公司（留空则从你记录的面试中选）",
    },
    "debrief.which": {
        "en": "Which interview are the notes from? Pick one, or type the company.",
        "zh": "这是哪场面试的记录？选一场，或直接输入公司名。",
    },
    "debrief.which_none": {
        "en": "Which company was the interview with? Type its name.",
        "zh": "这是和哪家公司的面试？请输入公司名。",
    },
    "debrief.have_notes": {
        "en": "I have your notes ({chars}).",
        "zh": "笔记已收到（{chars}）。",
    },
    "debrief.company_too_long": {
        "en": "That company name is too long (the limit is {limit}). Type a shorter one.",
        "zh": "公司名最多 {limit} 个字符，请重新输入一个短一点的。",
    },
    "debrief.paste": {
        "en": "Paste your notes or the transcript of your {company} interview, or send the file (.txt, .md, .pdf). "
        "I find the questions by their numbers (1. 2.), question marks, or turns labelled Interviewer: / Q:; "
        "what you answered goes under each question (or after Me: / A:).",
        "zh": "请粘贴你在 {company} 面试的笔记或文字记录，或直接发文件（.txt、.md、.pdf）。"
        "我按编号（1. 2. 或 一、）、问号，或“面试官：”“问：”这样的标注找题；你的回答写在每道题下面（或写在“我：”“答：”后面）。",
    },
    "debrief.empty": {
        "en": "That message is empty. Paste your notes, or send the file.",
        "zh": "消息是空的。请粘贴笔记，或直接发文件。",
    },
    "debrief.none_found": {
        "en": "I found no questions in that text. I take a line as a question only when it is numbered "
        "(1. 2. or Q1:), has a question mark, or is labelled Interviewer: or Q:. Mark the questions and send "
        "the notes again, or Cancel.",
        "zh": "这段文字里没有找到题目。只有带编号（1. 2. 或 第一题）、带问号，或标了“面试官：”“问：”的行，"
        "我才当作题目。请标出题目后重新发送，或点“取消”。",
    },
    "debrief.found": {
        "en": "{company}: I found {questions} in your notes. Check the list:",
        "zh": "{company}：从你的笔记里找到 {questions}，请核对：",
    },
    "debrief.by_llm": {
        "en": "(The LLM split your notes; the answers are your own lines.)",
        "zh": "（笔记由大模型拆分；回答取自你自己的原文。）",
    },
    "debrief.by_rules": {
        "en": "(Split offline, by numbering, question marks and speaker labels: check that nothing is missing.)",
        "zh": "（离线拆分，依据编号、问号和说话人标注，请检查有没有漏掉的题。）",
    },
    "debrief.by_rules_llm_failed": {
        "en": "(The LLM could not split them now, so I split them offline, by numbering, question marks and "
        "speaker labels: check that nothing is missing.)",
        "zh": "（大模型暂时无法拆分，已改为离线拆分，依据编号、问号和说话人标注，请检查有没有漏掉的题。）",
    },
    "debrief.match_bank": {"en": "bank: {title}", "zh": "题库：{title}"},
    "debrief.match_maybe": {
        "en": "your own question; maybe bank: {title} (“bank {n}” grades it with that rubric)",
        "zh": "你自己的题目；也许是题库：{title}（输入“题库 {n}”则按那道题的评分要点来评）",
    },
    "debrief.match_new": {"en": "new personal question", "zh": "新的个人题目"},
    "debrief.answer_yes": {"en": "your answer: {chars}", "zh": "你的回答：{chars}"},
    "debrief.answer_no": {"en": "no answer recalled", "zh": "没有记下回答"},
    "debrief.dropped": {"en": "(dropped)", "zh": "（已去掉）"},
    "debrief.more": {
        "en": "I kept the first {limit}; {more} after them were left out.",
        "zh": "只保留了前 {limit} 道，后面的 {more} 没有列入。",
    },
    "debrief.confirm": {
        "en": "Log all adds them to your deck as /review items and grades the answers you recalled. Drop any "
        "wrong one first (a button, or type “drop 2 5”). More notes? Send them and I add them to the list.",
        "zh": "点“全部记录”会把它们作为 /review 记录加入题组，并给你记得的回答打分。记录前可以先去掉不对的题"
        "（点按钮，或输入“删 2 5”）。还有笔记？直接发来，我会补进列表。",
    },
    "debrief.confirm_own": {
        "en": "A question marked “maybe bank” is logged as your own unless you say it is that bank question: "
        "type “bank 2” to grade question 2 with its rubric (“own 2” undoes it).",
        "zh": "标为“也许是题库”的题默认记为你自己的题目；如果确实是那道题库题目，输入“题库 2”就按它的评分要点"
        "来评第 2 题（输入“自己 2”可撤销）。",
    },
    "debrief.btn.log": {"en": "Log all", "zh": "全部记录"},
    "debrief.btn.drop": {"en": "Drop {n}", "zh": "去掉 {n}"},
    "debrief.confirm_help": {
        "en": "Press Log all, drop a question (type “drop 2 5”), or Cancel. To add notes, send them.",
        "zh": "请点“全部记录”，或去掉某道题（输入“删 2 5”），或点“取消”。要补充笔记，直接发来即可。",
    },
    "debrief.drop_bad": {
        "en": "The list has questions 1 to {count}; there is no {value}.",
        "zh": "列表里的题号是 1 到 {count}，没有 {value}。",
    },
    "debrief.all_dropped": {
        "en": "Every question is dropped, so there is nothing to log. Send the notes again, or Cancel.",
        "zh": "所有题目都去掉了，没有可记录的。请重新发送笔记，或点“取消”。",
    },
    "debrief.added": {
        "en": "I added your message to the notes and split them again.",
        "zh": "已把这条消息并入笔记，并重新拆分。",
    },
    "debrief.cancelled": {"en": "Cancelled; nothing was logged.", "zh": "已取消，没有记录任何内容。"},
    "debrief.logged": {
        "en": "Logged {questions} from {company} for review. Matched to a bank question: {matched}; filed as "
        "your own: {personal}. Each one comes up in /drill.",
        "zh": "已记录 {company} 的 {questions}，等待复习。匹配到题库的：{matched} 道；作为你自己的题目保存的："
        "{personal} 道。它们都会出现在 /drill 里。",
    },
    "debrief.graded": {
        "en": "Your recalled answers, graded ({answers}):",
        "zh": "你记得的回答的得分（{answers}）：",
    },
    "debrief.grade_line": {"en": "{n}. {score}/100 {question}", "zh": "{n}. {score}/100 {question}"},
    "debrief.estimate": {"en": "(offline estimate)", "zh": "（离线估算）"},
    "debrief.ungraded": {
        "en": "Not graded (no rubric for them yet; rate yourself when they come up): {numbers}.",
        "zh": "未打分（这些题还没有评分要点，出现时请自评）：{numbers}。",
    },
    "debrief.capped_day": {
        "en": "Today's limit of {logged} is reached, so these were not logged (log them tomorrow with /review):",
        "zh": "今天已达到 {logged} 的上限，以下题目没有记录（请明天用 /review 记录）：",
    },
    "debrief.capped_total": {
        "en": "You have logged {logged}, the most I keep for one person, so these were not logged:",
        "zh": "你已经记录了 {logged}，达到每人的上限，以下题目没有记录：",
    },
    "debrief.failed": {
        "en": "Logging stopped at question {n}: {logged} logged before it; the rest are still in the list. "
        "Press Log all to try them again.",
        "zh": "记录到第 {n} 道时出错：之前的 {logged} 已记录，其余的还在列表里。点“全部记录”重试。",
    },
    "debrief.nothing_logged": {
        "en": "Nothing was logged.",
        "zh": "没有记录任何内容。",
    },
}
