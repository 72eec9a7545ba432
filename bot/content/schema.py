"""The stricter schema of a shipped bank question file (design section 10)."""

from __future__ import annotations

from pydantic import Field, field_validator, model_validator

from bot.core.models import FollowUp, KeyPoint, Question, Text, TextList


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


class QuestionFile(Question):
    """A question as shipped in content/: both languages, 4-8 key points, sources."""

    prompt: BankText
    reference_answer: BankText
    follow_ups: list[FollowUp] = Field(min_length=1, max_length=3)
    sources: list[str] = Field(min_length=1)

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
        return self

    def to_question(self) -> Question:
        return Question.model_validate(self.model_dump())
