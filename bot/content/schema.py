"""The stricter schema of a shipped bank question file (design section 10).

A key point (of the rubric or of a follow-up's own rubric) may carry `prompt_keywords: {zh: [...], en: [...]}`:
the keywords that may echo the question's prompt because the point genuinely needs that term (keyword
hygiene, issue #14; enforced by tests/content/test_content_hygiene.py). Every listed item must be one of the
point's keywords in the same language. The grader does not read the field: `to_question` drops it.

A follow-up may carry `premise: {zh: [...], en: [...]}` (bot/kernel/models.FollowUp): the terms by which an
answer states the fact of the reference story it presupposes. A non-empty premise needs terms in both
languages, none blank, or a user answering in the other language could never be asked it (issue #32).

A `code` question (issue #35) carries `code: {task: write | fix, entry: <name>}`, and no other type does. Its
reference answer holds, in each language, exactly one ```python block: the same working implementation in both,
defining `entry` at the top level (the bank's tests extract it and run it: tests/content/test_code_questions.py). A `fix`
question's prompt holds the code to repair the same way. The code is parsed here (`ast.parse`), never run.
"""

from __future__ import annotations

import ast
from typing import Any

from pydantic import Field, ValidationError, field_validator, model_validator

from bot.kernel.fences import code_blocks
from bot.kernel.models import CodeTask, FollowUp, KeyPoint, Question, Text, TextList

PROMPT_KEYWORDS = "prompt_keywords"


def _nonblank(value: str, what: str) -> str:
    if not value.strip():
        raise ValueError(f"{what} must not be empty")
    return value


class BankText(Text):
    @field_validator("zh", "en")
    @classmethod
    def _filled(cls, v: str) -> str:
        return _nonblank(v, "text")


class BankTextList(TextList):
    @model_validator(mode="after")
    def _both(self) -> BankTextList:
        if not self.zh or not self.en:
            raise ValueError("needs entries in both zh and en")
        for item in [*self.zh, *self.en]:
            _nonblank(item, "entry")
        return self


class BankKeyPoint(KeyPoint):
    text: BankText
    keywords: BankTextList


def _marked(raw_kp: dict[str, Any], where: str) -> tuple[str, TextList] | None:
    """Pop a raw key point's `prompt_keywords` and check it: a zh/en list of its own keywords."""
    if PROMPT_KEYWORDS not in raw_kp:
        return None
    mark = raw_kp.pop(PROMPT_KEYWORDS)
    kp_id = str(raw_kp.get("id", "?"))
    try:
        allowed = TextList.model_validate(mark)
    except ValidationError as err:
        raise ValueError(f"{where} '{kp_id}': {PROMPT_KEYWORDS} must be {{zh: [...], en: [...]}}") from err
    keywords = raw_kp.get("keywords") or {}
    for lang in ("zh", "en"):
        own = (keywords.get(lang) or []) if isinstance(keywords, dict) else []
        stray = [k for k in allowed.get(lang) if k not in own]
        if stray:
            raise ValueError(f"{where} '{kp_id}': {PROMPT_KEYWORDS}.{lang} {stray} not among its keywords.{lang}")
    if not allowed.both():
        raise ValueError(f"{where} '{kp_id}': {PROMPT_KEYWORDS} is empty")
    return kp_id, allowed


def _one_block(text: Text, where: str, entry: str) -> str:
    """The one ```python block of `text`, the same in both languages, parsed, defining `entry`."""
    found = {lang: code_blocks(text.get(lang), "python") for lang in ("zh", "en")}
    for lang, blocks in found.items():
        if len(blocks) != 1:
            raise ValueError(f"{where}.{lang}: a code question needs exactly one ```python block, has {len(blocks)}")
    if found["zh"] != found["en"]:
        raise ValueError(f"{where}: the ```python block differs between zh and en (one implementation, both texts)")
    code = found["en"][0]
    try:
        tree = ast.parse(code)
    except SyntaxError as err:
        raise ValueError(f"{where}: the ```python block does not parse: line {err.lineno}: {err.msg}") from None
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    if entry not in defined:
        raise ValueError(f"{where}: the ```python block defines no top-level '{entry}' (it has {sorted(defined)})")
    return code


def _check_code(q: Question) -> None:
    """A `code` question has a `code` task and no other type has one; its reference (and a fix's prompt) holds
    the implementation as one parsed ```python block."""
    if (q.type == "code") != (q.code is not None):
        raise ValueError("code: a question of type code needs `code: {task, entry}`, and only such a question")
    task: CodeTask | None = q.code
    if task is None:
        return
    reference = _one_block(q.reference_answer, "reference_answer", task.entry)
    if task.task == "fix" and _one_block(q.prompt, "prompt", task.entry) == reference:
        raise ValueError("prompt: a fix question's code is the reference implementation itself")


class QuestionFile(Question):
    """A question as shipped in content/: both languages, 4-8 key points, sources."""

    prompt: BankText
    reference_answer: BankText
    follow_ups: list[FollowUp] = Field(min_length=1, max_length=3)
    sources: list[str] = Field(min_length=1)
    # key point id -> the keywords it may share with the prompt (from each key point's `prompt_keywords`)
    prompt_keywords: dict[str, TextList] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _prompt_keywords(cls, data: Any) -> Any:
        """Take each key point's `prompt_keywords` out of the raw file (the core model has no such field)."""
        if not isinstance(data, dict):
            return data
        if PROMPT_KEYWORDS in data:
            raise ValueError(f"{PROMPT_KEYWORDS} belongs on a key point, not on the question")
        data = dict(data)
        points: list[tuple[str, list[Any], Any]] = []  # (where, the list, its owner to write back)
        rubric = data.get("rubric")
        if isinstance(rubric, dict) and isinstance(rubric.get("key_points"), list):
            rubric = data["rubric"] = dict(rubric)
            points.append(("rubric.key_points", rubric["key_points"], rubric))
        follow_ups = data.get("follow_ups")
        if isinstance(follow_ups, list):
            follow_ups = data["follow_ups"] = [dict(f) if isinstance(f, dict) else f for f in follow_ups]
            for i, f in enumerate(follow_ups):
                if isinstance(f, dict) and isinstance(f.get("key_points"), list):
                    points.append((f"follow_ups.{i}.key_points", f["key_points"], f))
        marks: dict[str, TextList] = {}
        ids: list[str] = []
        for where, kps, owner in points:
            copies = [dict(k) if isinstance(k, dict) else k for k in kps]
            owner["key_points"] = copies
            for k in copies:
                if not isinstance(k, dict):
                    continue
                ids.append(str(k.get("id")))
                found = _marked(k, where)
                if found is not None:
                    marks[found[0]] = found[1]
        doubled = sorted({i for i in marks if ids.count(i) > 1})
        if doubled:
            raise ValueError(f"{PROMPT_KEYWORDS}: key point id(s) {doubled} used more than once in the file")
        data[PROMPT_KEYWORDS] = marks
        return data

    @model_validator(mode="after")
    def _rubric(self) -> QuestionFile:
        kps = self.rubric.key_points
        if not 4 <= len(kps) <= 8:
            raise ValueError(f"rubric.key_points: needs 4-8 key points, has {len(kps)}")
        ids = [k.id for k in kps]
        if len(set(ids)) != len(ids):
            raise ValueError("rubric.key_points: duplicate key point ids")
        for k in kps:
            BankKeyPoint.model_validate(k.model_dump())
        for name in ("specifics", "mistakes"):
            BankTextList.model_validate(getattr(self.rubric, name).model_dump())
        for f in self.follow_ups:
            BankText.model_validate(f.model_dump(include={"zh", "en"}))
            if f.premise.both():  # asked only when the answer states one of these terms, in either language
                try:
                    BankTextList.model_validate(f.premise.model_dump())
                except ValidationError as err:
                    raise ValueError("follow_ups: a premise needs terms in both zh and en, none blank") from err
            if f.key_points or f.reference_answer is not None:  # a follow-up's own rubric: 2-4 points and a reference
                if not 2 <= len(f.key_points) <= 4:
                    raise ValueError(f"follow_ups: a follow-up rubric needs 2-4 key points, has {len(f.key_points)}")
                for k in f.key_points:
                    BankKeyPoint.model_validate(k.model_dump())
                if f.reference_answer is None:
                    raise ValueError("follow_ups: a follow-up with key points needs a reference_answer")
                BankText.model_validate(f.reference_answer.model_dump())
        for s in self.sources:
            _nonblank(s, "source")
        _check_code(self)
        return self

    def allowed_echoes(self, key_point_id: str) -> TextList:
        """The keywords of a key point that may echo the prompt (its `prompt_keywords`)."""
        return self.prompt_keywords.get(key_point_id, TextList())

    def to_question(self) -> Question:
        return Question.model_validate(self.model_dump(exclude={PROMPT_KEYWORDS}))
