"""One-off: move the message dicts (Python literals) into gettext catalogue files, text for text.

    .venv/bin/python scripts/dicts_to_po.py [--rev REV] [--write]

It reads each dict module as it was at git revision REV (default a5e4fa2, the last commit that had them), takes
its dict literals with `ast.literal_eval` (so the texts are the very strings Python built, byte for byte) and its
comments (each becomes an extracted comment `#.` of the entry it precedes or sits in), and writes one catalogue
file per module with Babel: msgctxt is the key the code looks up, msgid the English text, msgstr the Chinese,
a counted message's msgid / msgid_plural its English "one" / "other" forms and msgstr[0] its one Chinese form.
Then it reads every file back with the loader the bot uses (bot.kernel.i18n.read_catalogue) and fails unless each
text is identical. Without --write (it was run once with it) it only compares the files in the tree with the dicts:
every moved text must be there, unchanged; entries added to a file since are counted, not compared.
"""

from __future__ import annotations

import ast
import io
import subprocess
import sys
import tokenize
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.kernel.i18n import read_catalogue  # noqa: E402

Messages = dict[str, dict[str, str]]
Plurals = dict[str, dict[str, dict[str, str]]]

# source module -> (its dict names, the catalogue file they become, what the file holds)
MOVES: list[tuple[str, tuple[str, ...], str, str]] = [
    ("bot/kernel/i18n.py", ("MESSAGES",), "bot/kernel/locales/core/zh.po",
     "The kernel's messages: onboarding, settings, /help, questions, grades, buttons, voice, errors."),
    ("bot/kernel/i18n_counts.py", ("PLURALS",), "bot/kernel/locales/counts/zh.po",
     "Counted messages (bot.kernel.i18n.tn): the English \"one\" and \"other\" forms, one Chinese form."),
    ("bot/kernel/i18n_features.py", ("FEATURE_MESSAGES",), "bot/kernel/locales/features/zh.po",
     "Messages of the larger features: /stats and its chart, speaking insights, step-by-step flows, study "
     "servers and scheduled pushes."),
    ("bot/kernel/i18n_features.py", ("CONSOLE_MESSAGES",), "bot/kernel/locales/console/zh.po",
     "The terminal chat's own messages."),
    ("bot/kernel/i18n_guidance.py", ("GUIDANCE_MESSAGES",), "bot/kernel/locales/guidance/zh.po",
     "Messages that guide a new user past what trips them up (how to give each setting, forms, /company)."),
    ("bot/kernel/i18n_names.py", ("NAMES",), "bot/kernel/locales/names/zh.po",
     "Names: the command menu, slash-command names, descriptions and options, subtopic names."),
    ("bot/kernel/i18n_verdicts.py", ("VERDICT_MESSAGES",), "bot/kernel/locales/verdicts/zh.po",
     "Honest verdicts: the offline checklist the user rates from, the LLM grade, non-answers."),
    ("bot/features/apps/messages.py", ("APPS_MESSAGES",), "bot/features/apps/locales/zh.po",
     "/apps: the application board, insights, follow-up reminders."),
    ("bot/features/career/messages.py", ("CAREER_MESSAGES",), "bot/features/career/locales/zh.po",
     "The career tools' shared door (/jd, /notes, /apps, /debrief)."),
    ("bot/features/debrief/messages.py", ("DEBRIEF_MESSAGES",), "bot/features/debrief/locales/zh.po",
     "/debrief: notes or a transcript split into /review items."),
    ("bot/features/jd/messages.py", ("JD_MESSAGES",), "bot/features/jd/locales/zh.po",
     "/jd: reading a job description and the focus it sets."),
    ("bot/features/mock/messages.py", ("MOCK_MESSAGES",), "bot/features/mock/locales/zh.po",
     "/mock: set-up, the round itself, the debrief and /mock history."),
    ("bot/features/notebook/messages.py", ("NOTES_PLURALS", "NOTES_MESSAGES"), "bot/features/notebook/locales/zh.po",
     "/notes: the answer notebook, versions of the user's own answers."),
    ("bot/features/review/messages.py", ("RECORD_MESSAGES",), "bot/features/review/locales/zh.po",
     "/review, /interview and /company."),
]  # fmt: skip
HOW = (
    "msgctxt: the key the code looks up (bot.kernel.i18n.t); msgid: the English text, the source;\n"
    "msgstr: the Chinese. {name} placeholders stay as they are (python-brace-format)."
)
WHEN = datetime(2026, 12, 5, tzinfo=UTC)  # fixed, so the files do not change from one run to the next


def dicts_at(rev: str, path: str, names: tuple[str, ...]) -> tuple[list[tuple[str, object, list[str]]], str]:
    """The entries (key, value, comments) of the named dict literals of `path` at `rev`, in order, and the source."""
    source = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True).stdout
    text = source.decode("utf-8")
    comments = [
        (tok.start[0], tok.string.lstrip("#").strip())
        for tok in tokenize.tokenize(io.BytesIO(source).readline)
        if tok.type == tokenize.COMMENT and "fmt:" not in tok.string
    ]
    entries: list[tuple[str, object, list[str]]] = []
    for node in ast.parse(text).body:
        if (
            not isinstance(node, ast.AnnAssign)
            or target_name(node) not in names
            or not isinstance(node.value, ast.Dict)
        ):
            continue
        previous_end = node.value.lineno
        for key_node, value_node in zip(node.value.keys, node.value.values, strict=True):
            assert key_node is not None and value_node.end_lineno is not None
            mine = [c for line, c in comments if previous_end < line <= value_node.end_lineno]
            entries.append((ast.literal_eval(key_node), ast.literal_eval(value_node), mine))
            previous_end = value_node.end_lineno
    found = {target_name(n) for n in ast.parse(text).body} & set(names)
    assert found == set(names), (path, names, found)
    return entries, text


def target_name(node: ast.stmt) -> str:
    return node.target.id if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) else ""


def brace_flags(*texts: str) -> tuple[str, ...]:
    return ("python-brace-format",) if any("{" in t for t in texts) else ()


def catalogue_of(entries: list[tuple[str, object, list[str]]], about: str) -> Catalog:
    catalog = Catalog(
        locale="zh",
        project="llm-interview-drill-bot",
        version="0.1.0",
        creation_date=WHEN,
        revision_date=WHEN,
        last_translator="the project",
        msgid_bugs_address="the project's issues",
        language_team="zh",
        header_comment="# " + about + "\n# " + HOW.replace("\n", "\n# "),
        fuzzy=False,
    )
    for key, value, comments in entries:
        assert isinstance(value, dict)
        if isinstance(value["en"], dict):  # a counted message: en {one, other}, zh {other}
            en, zh = value["en"], value["zh"]
            assert set(en) == {"one", "other"} and set(zh) == {"other"}, key
            catalog.add(
                (en["one"], en["other"]),
                (zh["other"],),
                context=key,
                auto_comments=comments,
                flags=brace_flags(en["one"], en["other"], zh["other"]),
            )
        else:
            assert set(value) == {"en", "zh"}, key
            if value["en"] == "":  # gettext keeps msgid "" for the header: an empty text is no message
                print(f"  {key}: empty in both languages, left out (the code shows no text for it)")
                continue
            catalog.add(
                value["en"], value["zh"], context=key, auto_comments=comments,
                flags=brace_flags(value["en"], value["zh"]),
            )  # fmt: skip
    return catalog


def expected(entries: list[tuple[str, object, list[str]]]) -> tuple[Messages, Plurals]:
    messages: Messages = {}
    plurals: Plurals = {}
    for key, value, _ in entries:
        assert isinstance(value, dict)
        if isinstance(value["en"], dict):
            plurals[key] = value
        elif value["en"] != "":
            messages[key] = value
    return messages, plurals


def main(argv: list[str]) -> int:
    rev = argv[argv.index("--rev") + 1] if "--rev" in argv else "a5e4fa2"
    check = "--write" not in argv
    by_file: dict[str, list[tuple[str, object, list[str]]]] = {}
    about: dict[str, str] = {}
    for path, names, target, summary in MOVES:
        entries, _ = dicts_at(rev, path, names)
        by_file.setdefault(target, []).extend(entries)
        about[target] = summary
    failures = 0
    for target, entries in by_file.items():
        out = ROOT / target
        if not check:
            out.parent.mkdir(parents=True, exist_ok=True)
            buffer = io.BytesIO()
            write_po(buffer, catalogue_of(entries, about[target]), width=116, no_location=True)
            out.write_bytes(buffer.getvalue())
        read = read_catalogue(out)
        want_messages, want_plurals = expected(entries)
        same = all(read.messages.get(k) == v for k, v in want_messages.items()) and all(
            read.plurals.get(k) == v for k, v in want_plurals.items()
        )
        added = len(read.messages) + len(read.plurals) - len(want_messages) - len(want_plurals)
        failures += not same
        verdict = "same" if same else "DIFFERENT"
        print(f"{target}: {len(read.messages)} messages, {len(read.plurals)} counted, {verdict}, {added} added since")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
