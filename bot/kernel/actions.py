"""Typed button payloads (as aiogram's `CallbackData`): a pydantic class per kind of button, with a short prefix.

`encode()` writes `prefix:field:field...` (fields in their declared order, the last one taking the rest of the
text, a trailing empty field left out) within Telegram's 64-byte `callback_data`; `decode(text)` reads it back
into the class whose prefix it carries (the longest that fits and validates), or None. Buttons are decoded here
and only here: `parse_action` (bot/kernel/parsing.py) turns a payload into a kernel command.

The wire format is the one the buttons have always had (`rate:12:3`, `cr:apps:mv:12:screen:0`), so a button on a
message sent before a payload got its class still works. A feature declares its buttons' payloads beside it
(bot/features/apps/actions.py); its classes register when the module is imported. A career tool's payload
(`ToolAction`, prefix `cr:<tool>:<verb>`) reaches its tool typed, through `CareerAction.payload`.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from bot.kernel import commands as c

MAX_BYTES = 64
"""Telegram's limit on a button's callback data (Discord's custom id, 100 characters, holds it with its prefix)."""
MAX_ID = 2**63 - 1
"""A database id: larger numbers are no id (and overflow a BIGINT)."""
SEP = ":"


def _int(value: Any) -> Any:
    """A number as Python reads one (`int()`: "12", " 12", "+12", "１２"), as the buttons always were."""
    return int(value) if isinstance(value, str) else value


Int = Annotated[int, BeforeValidator(_int)]
Id = Annotated[int, BeforeValidator(_int), Field(ge=0, le=MAX_ID)]
"""A database id: a non-negative number that fits a BIGINT."""

_BY_PREFIX: dict[str, type[Action]] = {}


class Action(BaseModel):
    """A button's payload. A subclass names its prefix: `class Rate(Action, prefix="rate")`."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    prefix: ClassVar[str] = ""
    none: ClassVar[str] = ""
    """How a field that is None is written ("" leaves it out at the end)."""

    def __init_subclass__(cls, prefix: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if prefix:
            if prefix in _BY_PREFIX:
                raise ValueError(f"button prefix registered twice: {prefix}")
            cls.prefix = prefix
            _BY_PREFIX[prefix] = cls

    def encode(self) -> str:
        """The payload as a button's action; over 64 bytes is a bug, so it raises (see `fits`)."""
        text = self._text()
        if len(text.encode("utf-8")) > MAX_BYTES:
            raise ValueError(f"a button's action is over {MAX_BYTES} bytes: {text[:80]!r}")
        return text

    def fits(self) -> bool:
        """Whether the payload fits a button (a company name in a /mock button may not)."""
        return len(self._text().encode("utf-8")) <= MAX_BYTES

    def _text(self) -> str:
        words = [self._word(getattr(self, name)) for name in type(self).model_fields]
        while words and words[-1] == "":
            words.pop()
        return SEP.join([self.prefix, *words])

    def _word(self, value: Any) -> str:
        if value is None:
            return self.none
        return str(value)

    @classmethod
    def _absent(cls, name: str, word: str) -> bool:
        """The word stands for None: the class's word for it ("" only where None is the field's default)."""
        return word == cls.none and (cls.none != "" or cls.model_fields[name].default is None)

    def command(self, user_id: int) -> c.Command:
        """The kernel command the button sends."""
        raise NotImplementedError(type(self).__name__)


def decode(text: str) -> Action | None:
    """The payload of a button's action: the class of the longest prefix it carries whose fields validate (a
    tool's payload whose fields do not falls back to the tool's generic `cr` payload), else None."""
    matches = [p for p in _BY_PREFIX if text == p or text.startswith(p + SEP)]
    for prefix in sorted(matches, key=len, reverse=True):
        cls = _BY_PREFIX[prefix]
        names = list(cls.model_fields)
        rest = text[len(prefix) + 1 :]
        words = rest.split(SEP, len(names) - 1) if rest and names else []
        data = {name: None if cls._absent(name, word) else word for name, word in zip(names, words, strict=False)}
        try:
            return cls.model_validate(data)
        except ValidationError:
            continue
    return None


class Next(Action, prefix="next"):
    def command(self, user_id: int) -> c.Command:
        return c.NextQuestion(user_id)


class Skip(Action, prefix="skip"):
    def command(self, user_id: int) -> c.Command:
        return c.SkipQuestion(user_id)


class Reference(Action, prefix="ref"):
    attempt: Id | None = None
    """The graded answer whose reference is shown; None: the open question's."""

    def command(self, user_id: int) -> c.Command:
        return c.RevealReference(user_id, self.attempt)


class FollowUp(Action, prefix="fu"):
    attempt: Id

    def command(self, user_id: int) -> c.Command:
        return c.StartFollowUp(user_id, self.attempt)


class Tick(Action, prefix="tick"):
    attempt: Id
    index: Id

    def command(self, user_id: int) -> c.Command:
        return c.TickPoint(user_id, self.attempt, self.index)


class Disagree(Action, prefix="dis"):
    attempt: Id

    def command(self, user_id: int) -> c.Command:
        return c.Disagree(user_id, self.attempt)


class SecondLook(Action, prefix="look"):
    attempt: Id

    def command(self, user_id: int) -> c.Command:
        return c.SecondLook(user_id, self.attempt)


class Rate(Action, prefix="rate"):
    attempt: Id
    rating: Int

    def command(self, user_id: int) -> c.Command:
        return c.OverrideRating(user_id, self.attempt, self.rating)


class Setting(Action, prefix="set"):
    name: str = ""
    value: str = ""

    def command(self, user_id: int) -> c.Command:
        return c.ChangeSetting(user_id, self.name, self.value)


class ConfirmForget(Action, prefix="forget"):
    answer: str = ""
    """"yes" deletes; anything else keeps the data."""

    def command(self, user_id: int) -> c.Command:
        return c.ConfirmForget(user_id, self.answer == "yes")


class PickReview(Action, prefix="rv"):
    none: ClassVar[str] = "none"
    choice: Id | None
    """The bank question offered (0-based), or None: none of them."""

    def command(self, user_id: int) -> c.Command:
        return c.PickReview(user_id, self.choice)


class Mock(Action, prefix="mk"):
    words: str = Field(min_length=1)
    """/mock's words: go, a focus, a company."""

    def command(self, user_id: int) -> c.Command:
        return c.MockCommand(user_id, self.words)


class Flow(Action, prefix="flow"):
    step: Literal["skip", "ok", "cancel"]

    def command(self, user_id: int) -> c.Command:
        return c.FlowAction(user_id, self.step)


class AnswerDaily(Action, prefix="answer"):
    """A study server's daily question: the platform asks for the answer (Discord opens a form)."""

    question: str = Field(min_length=1)

    def command(self, user_id: int) -> c.Command:
        return c.Invalid(user_id, "unknown", self.encode())  # a platform's own button, never the kernel's


class Career(Action, prefix="cr"):
    """A career tool's button with no typed payload: its argument as text (`cr:<tool>:<arg>`)."""

    tool: str = Field(min_length=1)
    arg: str = ""

    def command(self, user_id: int) -> c.Command:
        return c.CareerAction(user_id, self.tool, self.arg)


class ToolAction(Action):
    """A career tool's typed button (prefix `cr:<tool>:<verb>`), handed to the tool as it is."""

    def command(self, user_id: int) -> c.Command:
        tool = self.prefix.split(SEP)[1]
        return c.CareerAction(user_id, tool, self.encode()[len(f"cr:{tool}:") :], payload=self)
