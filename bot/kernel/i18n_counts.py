"""Messages that take a count, in plural forms: English has "one" and "other", Chinese one form ("other").

`bot.kernel.i18n.tn(lang, key, n)` picks the form for `n` (CLDR: English "one" is exactly 1) and formats
it with `n`. Most entries are counted nouns ("3 questions", "3 道题") that the sentences of the catalogue
take as placeholders, so a sentence with two counts ("1 interview, 2 questions") agrees with both; a
sentence whose verb follows the count ("1 question is due") is an entry of its own.
"""

from __future__ import annotations

PLURALS: dict[str, dict[str, dict[str, str]]] = {
    "count.day": {"en": {"one": "{n} day", "other": "{n} days"}, "zh": {"other": "{n} 天"}},
    "count.answer": {"en": {"one": "{n} answer", "other": "{n} answers"}, "zh": {"other": "{n} 次作答"}},
    "count.review": {"en": {"one": "{n} review", "other": "{n} reviews"}, "zh": {"other": "作答 {n} 次"}},
    "count.interview": {"en": {"one": "{n} interview", "other": "{n} interviews"}, "zh": {"other": "{n} 场面试"}},
    "count.question": {"en": {"one": "{n} question", "other": "{n} questions"}, "zh": {"other": "{n} 道题"}},
    "count.new_question": {
        "en": {"one": "{n} new question", "other": "{n} new questions"},
        "zh": {"other": "{n} 道新题"},
    },
    "count.interview_question": {
        "en": {"one": "{n} interview question", "other": "{n} interview questions"},
        "zh": {"other": "{n} 道面试题"},
    },
    "count.reminder": {"en": {"one": "{n} reminder", "other": "{n} reminders"}, "zh": {"other": "{n} 条提醒"}},
    "count.card": {
        "en": {"one": "{n} card in your deck", "other": "{n} cards in your deck"},
        "zh": {"other": "题组里 {n} 张卡片"},
    },
    "count.mock": {
        "en": {"one": "{n} mock interview", "other": "{n} mock interviews"},
        "zh": {"other": "{n} 场模拟面试"},
    },
    "count.jd": {
        "en": {"one": "{n} job description", "other": "{n} job descriptions"},
        "zh": {"other": "{n} 份职位描述"},
    },
    "count.application": {"en": {"one": "{n} application", "other": "{n} applications"}, "zh": {"other": "{n} 条投递"}},
    "count.notebook": {
        "en": {"one": "{n} notebook entry", "other": "{n} notebook entries"},
        "zh": {"other": "答案本里 {n} 条记录"},
    },
    "count.subtopic": {"en": {"one": "{n} subtopic", "other": "{n} subtopics"}, "zh": {"other": "{n} 个方向"}},
    "count.saved_file": {"en": {"one": "{n} file", "other": "{n} files"}, "zh": {"other": "{n} 个文件"}},
    "count.second": {"en": {"one": "{n} second", "other": "{n} seconds"}, "zh": {"other": "{n} 秒"}},
    "count.minute": {"en": {"one": "{n} minute", "other": "{n} minutes"}, "zh": {"other": "{n} 分钟"}},
    "count.word": {"en": {"one": "{n} word", "other": "{n} words"}, "zh": {"other": "{n} 词"}},
    "count.character": {"en": {"one": "{n} character", "other": "{n} characters"}, "zh": {"other": "{n} 字"}},
    "count.filler_word": {
        "en": {"one": "{n} filler word", "other": "{n} filler words"},
        "zh": {"other": "{n} 个填充词"},
    },
    "count.point": {"en": {"one": "{n} point", "other": "{n} points"}, "zh": {"other": "{n} 分"}},
    "count.company_more": {
        "en": {"one": "- and {n} more company: {names}", "other": "- and {n} more companies: {names}"},
        "zh": {"other": "- 另有 {n} 家公司：{names}"},
    },
    "review_due_nudge": {
        "en": {
            "one": "{n} question is due for review. Send /drill when you have ten minutes.",
            "other": "{n} questions are due for review. Send /drill when you have ten minutes.",
        },
        "zh": {"other": "有 {n} 道题到期待复习。有十分钟的时候发送 /drill 吧。"},
    },
}
