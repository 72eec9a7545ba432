"""Messages of honest verdicts (bot/kernel/verdicts.py): the offline checklist the user rates from, the LLM grade the
user may disagree with, and non-answers. Merged into the catalogue in bot/kernel/i18n.py."""

from __future__ import annotations

VERDICT_MESSAGES: dict[str, dict[str, str]] = {
    "check.header": {
        "en": "Offline check, not a verdict: it looks for the key points you made, not whether what you said "
        "is right. Found {found} of {total}:",
        "zh": "离线检查，不是评分结论：它只看你讲到了哪些要点，判断不了说得对不对。找到 {found}/{total} 个要点：",
    },
    "check.header.reference": {
        "en": "Offline check, not a verdict: your answer shares about {share}% of the reference answer's content. "
        "It cannot tell whether what you said is right.",
        "zh": "离线检查，不是评分结论：你的回答与参考答案的内容重合约 {share}%。它判断不了你说得对不对。",
    },
    "check.hit": {"en": "  ✓ {point}: “{quote}”", "zh": "  ✓ {point}：“{quote}”"},
    "check.hit.bare": {"en": "  ✓ {point}", "zh": "  ✓ {point}"},
    "check.partial": {"en": "  ~ {point}, in part: “{quote}”", "zh": "  ~ {point}，只讲到一部分：“{quote}”"},
    "check.partial.bare": {"en": "  ~ {point}, in part", "zh": "  ~ {point}，只讲到一部分"},
    "check.missed": {"en": "  ✗ {point}", "zh": "  ✗ {point}"},
    "check.ticked": {"en": "  ✓ {point} (you ticked it)", "zh": "  ✓ {point}（你标记为已讲到）"},
    "check.mistakes": {
        "en": "It spotted what looks like a mistake:",
        "zh": "它发现了疑似错误：",
    },
    "check.rate": {
        "en": "Suggested rating: {rating} ({why}), if what you said is right. You are the judge: compare your "
        "answer with the reference and rate yourself; the first button (or Enter in the terminal) accepts the "
        "suggestion. Until you rate, this card comes back tomorrow.",
        "zh": "建议评级：{rating}（{why}），前提是你说的内容是对的。由你来判断：对照参考答案给自己评级；"
        "第一个按钮（终端里直接回车）就是接受建议。评级之前，这道题明天会再出现。",
    },
    "check.rate.follow_up": {
        "en": "Compare your answer with the reference above; a follow-up does not change the schedule.",
        "zh": "请对照上面的参考答案看看自己答得如何；追问不影响复习计划。",
    },
    "check.why.mistake": {"en": "it spotted a possible mistake", "zh": "发现了疑似错误"},
    "check.why.coverage": {
        "en": "about {share}% of the key points found",
        "zh": "找到约 {share}% 的要点",
    },
    "check.tick_hint": {
        "en": "If you made a point it did not find, tick it with its “I said” button.",
        "zh": "如果你讲到了某个要点但它没找到，可以点对应的“我讲了”按钮标记。",
    },
    "check.ticked_now": {
        "en": "Ticked: {point}. Suggested rating now: {rating}.",
        "zh": "已标记：{point}。现在的建议评级：{rating}。",
    },
    "check.tick_stale": {
        "en": "That checklist belongs to an answer you have rated or answered again since; nothing changed.",
        "zh": "这份检查清单对应的回答已经评过级或已重新作答，没有改动。",
    },
    "btn.accept": {"en": "✓ {rating} (suggested)", "zh": "✓ {rating}（建议）"},
    "btn.tick": {"en": "I said: {point}", "zh": "我讲了：{point}"},
    "btn.disagree": {"en": "Disagree", "zh": "我有异议"},
    "btn.second_look": {"en": "Ask for a second look", "zh": "请 AI 再看一遍"},
    "btn.dont_know": {"en": "I don't know: show the answer", "zh": "不会，看参考答案"},
    "grade.header.llm": {"en": "Score: {score}/100 ({rating})", "zh": "得分：{score}/100（{rating}）"},
    "grade.confirm": {
        "en": "This one is borderline ({why}), so please confirm the rating: the first button keeps {rating}, "
        "or pick yours.",
        "zh": "这次评分处在边界（{why}），请确认评级：第一个按钮保留“{rating}”，或选择你自己的评级。",
    },
    "confirm.why.gap": {
        "en": "the AI grade of {score} and the offline check's {offline} are far apart",
        "zh": "AI 评分 {score} 与离线检查的 {offline} 相差较大",
    },
    "confirm.why.partial": {
        "en": "most key points are only partly covered",
        "zh": "大部分要点只讲到一部分",
    },
    "btn.keep": {"en": "✓ Keep {rating}", "zh": "✓ 保留{rating}"},
    "disagree.prompt": {
        "en": "Pick your own rating: it schedules this card instead of the grader's {rating}. "
        "Both are kept, and /export shows them.",
        "zh": "选择你自己的评级：它会代替评分器给出的“{rating}”来安排复习。两者都会保留，/export 里可以看到。",
    },
    "disagree.second": {
        "en": "Or ask the AI grader for a second look at the same answer.",
        "zh": "也可以请 AI 评分器把同一个回答再看一遍。",
    },
    "second.none": {
        "en": "A second look needs the AI grader, which is not available for this answer.",
        "zh": "再看一遍需要 AI 评分器，这个回答目前用不了。",
    },
    "second.done_before": {
        "en": "This answer has had its second look already.",
        "zh": "这个回答已经复核过一次了。",
    },
    "second.limit": {
        "en": "You have used your AI gradings for the last 24 hours, so the grade stays as it is; each one counts "
        "for 24 hours from when it was made. You can still pick your own rating.",
        "zh": "最近 24 小时的 AI 评分次数已用完，评分保持不变；每次评分从发生起计 24 小时。你仍然可以选择自己的评级。",
    },
    "second.budget": {
        "en": "The AI grader has reached today's budget for everyone, so the grade stays as it is; it resets at "
        "midnight UTC. You can still pick your own rating.",
        "zh": "今天所有用户的 AI 评分额度已用完，评分保持不变，UTC 零点恢复。你仍然可以选择自己的评级。",
    },
    "second.failed": {
        "en": "The AI grader did not answer, so the grade stays as it was. Try again later.",
        "zh": "AI 评分器没有响应，评分保持不变。请稍后再试。",
    },
    "second.header": {
        "en": "Second look: {before} → {after}.",
        "zh": "复核结果：{before} → {after}。",
    },
    "second.kept_yours": {
        "en": "Your own rating ({rating}) still schedules the card.",
        "zh": "复习仍按你自己的评级（{rating}）安排。",
    },
    "regraded.was_unrated": {
        "en": "The AI grade replaces the offline check; the card is scheduled by it now.",
        "zh": "AI 评分取代了离线检查，复习计划现在按它安排。",
    },
    "regraded.kept_yours": {
        "en": "You rated it {rating} yourself; your rating still schedules the card (the AI's is kept beside it).",
        "zh": "你自己评的是“{rating}”，复习仍按你的评级安排（AI 的评分一并保留）。",
    },
    "non_answer": {
        "en": "That does not look like an answer, so I did not grade it and your card is unchanged. "
        "Try again in your own words (a rough answer is fine), or press “I don't know” to see the reference "
        "answer (it counts as Again).",
        "zh": "这看起来不像回答，所以没有评分，这道题的复习计划也没有变。可以用自己的话再试一次（粗略的也行），"
        "或点“不会”查看参考答案（记为“重来”）。",
    },
}
