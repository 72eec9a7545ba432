"""Every user-facing text is in a catalogue (a package's locales/zh.po), none inline in the code: a scan of every
module of bot/ for string constants holding Chinese (docstrings and comments aside). A module whose Chinese is data
(words a user types, word lists the grader matches, numerals, patterns) is named below with the reason; in any
module, a zh/en pair (a {"zh": ..., "en": ...} dict or a `"..." if zh else "..."` choice) is a message."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import bot

BOT = Path(bot.__file__).parent
CHINESE = re.compile(r"[\u3400-\u9fff]")

DATA = {
    "bootstrap.py": "a Chinese word that loads jieba's dictionary at start",
    "dates.py": "Chinese date and time words that dateparser is taught to read",
    "features/apps/apps.py": "/apps subcommand words typed in Chinese, and the words that turn reminders off",
    "features/apps/board.py": "application stages as a user types them in Chinese",
    "features/account/commands.py": "the Chinese names of its commands (registry entries) a user types",
    "features/apps/commands.py": "the Chinese names of its commands (registry entries) a user types",
    "features/debrief/commands.py": "the Chinese names of its commands (registry entries) a user types",
    "features/drill/commands.py": "the Chinese names of its commands (registry entries) a user types",
    "features/jd/commands.py": "the Chinese names of its commands (registry entries) a user types",
    "features/mock/commands.py": "the Chinese names of its commands (registry entries) a user types",
    "features/notebook/commands.py": "the Chinese names of its commands (registry entries) a user types",
    "features/onboarding/commands.py": "the Chinese names of its commands (registry entries) a user types",
    "features/review/commands.py": "the Chinese names of its commands (registry entries) a user types",
    "features/debrief/debrief.py": "/debrief subcommand words typed in Chinese",
    "features/debrief/split.py": "the speaker and numbering words that split a transcript into questions",
    "features/drill/speaking.py": "Chinese filler words counted in a spoken answer",
    "features/jd/jd.py": "/jd subcommand words typed in Chinese",
    "features/jd/terms.py": "the Chinese skill phrases read in a job description",
    "features/mock/mock.py": "/mock subcommand and focus words typed in Chinese",
    "features/mock/star.py": "STAR markers the debrief looks for in a Chinese answer",
    "features/notebook/notebook.py": "/notes subcommand words and the 'none' a user types",
    "features/onboarding/onboarding.py": "setting values typed in Chinese (weekdays, topics, on and off, language)",
    "features/onboarding/zones.py": "Chinese city names read as timezones",
    "features/review/companies.py": "company names and their aliases in Chinese",
    "grading/addressing.py": "the shapes of Chinese text that addresses the grader",
    "grading/features.py": "Chinese negation and stance words of the offline grader",
    "grading/injection.py": "Chinese prompt-injection patterns",
    "grading/markers.py": "Chinese markers of structure and evidence in an answer",
    "grading/mistakes.py": "Chinese phrasings around a listed mistake that matching strips",
    "grading/normalize.py": "Chinese spellings folded for matching",
    "grading/probes.py": "adversarial answers that probe the grader (`content check`), shown to no user",
    "grading/prompts.py": "the answer language's name in the LLM's prompt",
    "grading/question_match.py": "Chinese words of a question that asks for the candidate's own case",
    "grading/terms.py": "Chinese negators and stop words",
    "kernel/models.py": "levels as a user types them in Chinese",
    "kernel/non_answer.py": "Chinese non-answers (不知道) recognised as such",
    "kernel/render.py": "Chinese conjunctions a key point's short name must not end on",
    "kernel/timeutil.py": "Chinese day words and time-of-day patterns",
    "kernel/yes_no.py": "Chinese yes and no words",
    "platforms/console/chat.py": "the terminal's Chinese /quit alias",
    "speech/hints.py": "the Chinese prompt that primes speech recognition, shown to no user",
    "text/numerals.py": "Chinese numerals",
}
PAIRED_DATA = {
    "grading/probes.py": "a probe answer in each language",
    "grading/prompts.py": "the language names the LLM's prompt uses",
    "speech/hints.py": "a recognition prompt in each language",
}
DEBTS: dict[str, str] = {}
"""Modules that still show inline Chinese messages: each may only disappear (moved into a catalogue)."""


def chinese_constants(tree: ast.AST) -> list[ast.Constant]:
    """String constants holding Chinese, docstrings (a string statement of its own) aside."""
    statements = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and CHINESE.search(n.value)
        if id(n) not in statements
    ]


def _chinese(node: ast.AST | None) -> bool:
    return node is not None and any(CHINESE.search(c.value) for c in chinese_constants(node))


def zh_en_pairs(tree: ast.AST) -> list[int]:
    """Lines of inline messages by their shape: a dict whose "zh" is a text, or a choice with a Chinese branch."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            value = node.values[keys.index("zh")] if "zh" in keys else None
            if isinstance(value, ast.Constant | ast.JoinedStr) and _chinese(value):  # a text, not a word list
                lines.append(node.lineno)
        elif isinstance(node, ast.IfExp) and (_chinese(node.body) or _chinese(node.orelse)):
            lines.append(node.lineno)
    return lines


def inline_messages(path: Path, root: Path = BOT) -> list[str]:
    """Where a module shows Chinese text inline (module names are relative to bot/)."""
    name = path.relative_to(root).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [f"{name}:{line}: a zh/en pair" for line in zh_en_pairs(tree) if name not in PAIRED_DATA]
    if name not in DATA:
        found += [f"{name}:{c.lineno}: {c.value[:40]!r}" for c in chinese_constants(tree)]
    return sorted(set(found))


def test_no_module_shows_inline_chinese_text() -> None:
    found = [hit for path in sorted(BOT.rglob("*.py")) for hit in inline_messages(path)]
    assert [hit for hit in found if hit.split(":")[0] not in DEBTS] == []


def test_each_named_module_still_holds_what_it_is_named_for() -> None:
    """A module that no longer holds Chinese leaves the list (the debts only shrink)."""
    for name in [*DATA, *PAIRED_DATA, *DEBTS]:
        tree = ast.parse((BOT / name).read_text(encoding="utf-8"))
        assert chinese_constants(tree), f"{name} holds no Chinese now: take it off the list"
    for name in PAIRED_DATA:
        assert zh_en_pairs(ast.parse((BOT / name).read_text(encoding="utf-8"))), name
    for name in DEBTS:
        assert inline_messages(BOT / name), f"{name} is paid: take it off DEBTS"


def test_the_scan_finds_inline_messages_and_passes_data(tmp_path: Path) -> None:
    """Control: the shapes the grader's feedback had before it moved to its catalogue are found."""
    sample = tmp_path / "features" / "drill" / "sample_for_the_scan.py"
    sample.parent.mkdir(parents=True)
    sources = {
        '"""说明文档。"""\nX = 1\n': [],  # a docstring
        'def f(zh: bool) -> str:\n    return "没有收到回答。" if zh else "No answer was given."\n': [
            "features/drill/sample_for_the_scan.py:2: a zh/en pair",
            "features/drill/sample_for_the_scan.py:2: '没有收到回答。'",
        ],
        'TEXT = {"en": "Contradicts: {0}", "zh": "与要点相反：{0}"}\n': [
            "features/drill/sample_for_the_scan.py:1: '与要点相反：{0}'",
            "features/drill/sample_for_the_scan.py:1: a zh/en pair",
        ],
        'def g(name: str) -> str:\n    return f"{name}（只讲到一部分）"\n': [
            "features/drill/sample_for_the_scan.py:2: '（只讲到一部分）'"
        ],
        'SEP = {"en": ", ", "zh": "、"}\n': [],  # punctuation only: typography, not text
    }
    for source, expected in sources.items():
        sample.write_text(source, encoding="utf-8")
        assert inline_messages(sample, tmp_path) == sorted(expected), source
    data = BOT / "features" / "drill" / "speaking.py"  # data: its words pass, a pair in it would not
    tree = ast.parse('FILLERS = {"zh": ("嗯", "那个")}\nX = "那个" if True else "嗯"\n')
    assert len(chinese_constants(tree)) == 4 and zh_en_pairs(tree) == [2]  # a word list is no text
    assert inline_messages(data) == []


WORDS = re.compile(r"[A-Za-z]{2,}[ ,.!?:;'#-]+[A-Za-z]{2,}")  # two words at least: prose, not a label like "v2"
SHOWN = {"Reply": ("text",), "Button": ("label",)}  # what a user reads: a reply's text, a button's label


def inline_english(tree: ast.AST) -> list[int]:
    """Lines where a reply's text or a button's label is written inline as English prose (a literal or an f-string
    with words of its own) instead of a catalogue message."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.func.id not in SHOWN:
            continue
        shown = node.args[:1] + [k.value for k in node.keywords if k.arg in SHOWN[node.func.id]]
        for arg in shown:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                text = arg.value
            elif isinstance(arg, ast.JoinedStr):  # an f-string: its own words, each value read as "#"
                text = "".join(v.value if isinstance(v, ast.Constant) else "#" for v in arg.values)
            else:
                continue
            if WORDS.search(text):
                lines.append(node.lineno)
    return lines


def test_no_reply_or_button_shows_inline_english_text() -> None:
    found = []
    for path in sorted(BOT.rglob("*.py")):
        found += [f"{path.relative_to(BOT)}:{line}" for line in inline_english(ast.parse(path.read_text("utf-8")))]
    assert found == []


def test_the_english_scan_catches_what_it_should() -> None:
    caught = inline_english(ast.parse('Reply("Your answer was saved.")\nButton(label=f"Open {n} notes", action="x")\n'))
    assert caught == [1, 2]
    passed = 'Reply(t(lang, "saved"))\nButton("/drill", "next")\nButton(f"v{n}", "x")\nReply(text)\n'
    assert inline_english(ast.parse(passed)) == []
