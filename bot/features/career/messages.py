"""Messages shared by the career tools (bot/features/career/router.py): sent files and their limits."""

from __future__ import annotations

CAREER_MESSAGES: dict[str, dict[str, str]] = {
    "menu.debrief": {"en": "Log an interview's questions from your notes", "zh": "从面试记录里整理出被问到的题"},
    "menu.jd": {"en": "Tailor practice to a job description", "zh": "按职位描述（JD）调整练习重点"},
    "menu.notes": {"en": "Your answer notebook: versions of your answers", "zh": "答案笔记本：保存和比较你的回答版本"},
    "menu.apps": {"en": "Your application board and its insights", "zh": "投递看板和面试规律"},
    "career.file_too_big": {
        "en": "That file is {size} MB; I take files up to {limit} MB. Paste the text instead, or send a shorter file.",
        "zh": "这个文件有 {size} MB，我最多接收 {limit} MB。请直接粘贴文字，或发一个更小的文件。",
    },
    "career.file_too_long": {
        "en": "That text is {length} characters; I take up to {limit}. Send the part that matters.",
        "zh": "这段文字有 {length} 个字符，上限是 {limit}。请只发相关的部分。",
    },
    "career.file_type": {
        "en": "I can read .txt, .md and .pdf files. Send one of those, or paste the text.",
        "zh": "我能读取 .txt、.md 和 .pdf 文件。请发这几种格式，或直接粘贴文字。",
    },
    "career.file_empty": {
        "en": "I found no text in that file (a scanned PDF has only images). Paste the text instead.",
        "zh": "这个文件里没有可读的文字（扫描版 PDF 只有图片）。请直接粘贴文字。",
    },
    "career.file_unreadable": {
        "en": "I could not read that file. Paste the text instead.",
        "zh": "这个文件读不出来。请直接粘贴文字。",
    },
    "career.file_unused": {
        "en": "I only read files as job descriptions (/jd) or interview notes (/debrief), and neither is on here.",
        "zh": "我只把文件当作职位描述（/jd）或面试记录（/debrief）来读，但这两个功能目前都没有开启。",
    },
    "career.file_what": {
        "en": "I read {chars} from your file. What is it?",
        "zh": "从文件里读到 {chars}。这是什么内容？",
    },
    "career.file_for.jd": {"en": "A job description", "zh": "职位描述（JD）"},
    "career.file_for.debrief": {"en": "My interview notes", "zh": "我的面试记录"},
    "career.file_dropped": {
        "en": "I set the file aside. Send it again with /jd or /debrief when you need it.",
        "zh": "这个文件先不处理了。需要时配合 /jd 或 /debrief 再发一次。",
    },
    "career.expired": {
        "en": "That button belongs to a step that is over; nothing was done.",
        "zh": "这个按钮对应的步骤已经结束，没有做任何操作。",
    },
    "console.no_file": {
        "en": "No file I can read at {path}.",
        "zh": "{path} 没有可读取的文件。",
    },
}
