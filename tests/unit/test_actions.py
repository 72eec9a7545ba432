"""Typed button payloads (bot/kernel/actions.py): each encodes to the wire format the buttons have always had,
decodes back, fits Telegram's 64 bytes, and a button on a message sent before the codec still works."""

from __future__ import annotations

import pytest

from bot.features.apps import actions as apps_actions
from bot.kernel import actions as a
from bot.kernel import commands as c
from bot.kernel.actions import Action, decode
from bot.kernel.parsing import parse_action
from bot.kernel.service import Service
from tests.fakes import FakeStore

WIRE: list[tuple[Action, str]] = [
    (a.Next(), "next"),
    (a.Skip(), "skip"),
    (a.Reference(), "ref"),
    (a.Reference(attempt=12), "ref:12"),
    (a.FollowUp(attempt=7), "fu:7"),
    (a.Tick(attempt=7, index=2), "tick:7:2"),
    (a.Disagree(attempt=7), "dis:7"),
    (a.SecondLook(attempt=7), "look:7"),
    (a.Rate(attempt=12, rating=3), "rate:12:3"),
    (a.Setting(name="timezone", value="Asia/Shanghai"), "set:timezone:Asia/Shanghai"),
    (a.ConfirmForget(answer="yes"), "forget:yes"),
    (a.PickReview(choice=0), "rv:0"),
    (a.PickReview(choice=None), "rv:none"),
    (a.Mock(words="Moonshot AI"), "mk:Moonshot AI"),
    (a.Flow(step="cancel"), "flow:cancel"),
    (a.AnswerDaily(question="stab-nan-debug-001"), "answer:stab-nan-debug-001"),
    (a.Career(tool="notes", arg="save:12"), "cr:notes:save:12"),
    (a.Career(tool="debrief", arg="i12"), "cr:debrief:i12"),
    (apps_actions.Board(), "cr:apps:board"),
    (apps_actions.Move(id=12, stage="technical", round=2), "cr:apps:mv:12:technical:2"),
    (apps_actions.Move(id=12, stage="hr"), "cr:apps:mv:12:hr:0"),
    (apps_actions.Remind(id=12), "cr:apps:rem:12"),
    (apps_actions.Remind(id=12, days=7), "cr:apps:rem:12:7"),
    (apps_actions.RemindOff(id=12), "cr:apps:remoff:12"),
    (apps_actions.DeleteConfirmed(id=12), "cr:apps:delok:12"),
]


@pytest.mark.parametrize(("payload", "wire"), WIRE, ids=[w for _, w in WIRE])
def test_each_payload_encodes_to_its_wire_format_and_back(payload: Action, wire: str) -> None:
    assert payload.encode() == wire
    assert decode(wire) == payload and type(decode(wire)) is type(payload)


OLD_BUTTONS: list[tuple[str, c.Command]] = [
    ("next", c.NextQuestion(1)),
    ("ref", c.RevealReference(1, None)),
    ("ref:12", c.RevealReference(1, 12)),
    ("rate:12:3", c.OverrideRating(1, 12, 3)),
    ("tick:7:2", c.TickPoint(1, 7, 2)),
    ("set:language:zh", c.ChangeSetting(1, "language", "zh")),
    ("forget:no", c.ConfirmForget(1, False)),
    ("forget:yes", c.ConfirmForget(1, True)),
    ("rv:none", c.PickReview(1, None)),
    ("rv:2", c.PickReview(1, 2)),
    ("mk:go", c.MockCommand(1, "go")),
    ("flow:skip", c.FlowAction(1, "skip")),
    ("cr:notes:save:12", c.CareerAction(1, "notes", "save:12")),
    ("cr:file:cancel", c.CareerAction(1, "file", "cancel")),
    ("cr:apps:mv:12:screen:0", c.CareerAction(1, "apps", "mv:12:screen:0", apps_actions.Move(id=12, stage="screen"))),
    ("cr:apps:show:12", c.CareerAction(1, "apps", "show:12", apps_actions.Show(id=12))),
]


@pytest.mark.parametrize(("action", "command"), OLD_BUTTONS, ids=[x for x, _ in OLD_BUTTONS])
def test_a_button_sent_before_the_codec_sends_the_same_command(action: str, command: c.Command) -> None:
    assert parse_action(1, action) == command


async def test_an_apps_button_on_a_message_sent_earlier_still_moves_the_application(
    service: Service, store: FakeStore
) -> None:
    uid = (await service.user_for("test", "u1", "en")).id
    await service.handle_text(uid, "/apps add Moonshot AI")
    (app,) = await store.list_applications(uid)
    (moved,) = await service.handle_action(uid, f"cr:apps:mv:{app.id}:screen:0")  # as the f-string wrote it
    assert "moved to Screen" in moved.text
    assert apps_actions.Move(id=app.id, stage="technical", round=1).encode() in moved.actions()
    (reminded,) = await service.handle_action(uid, f"cr:apps:rem:{app.id}")
    assert reminded.actions() == [f"cr:apps:rem:{app.id}:{n}" for n in (3, 7, 14)]
    assert (await store.list_applications(uid))[0].stage == "screen"


@pytest.mark.parametrize(
    "action",
    ["zap", "", "rate:x:3", "rate:12", "fu:", "fu:-1", "ref:9223372036854775808", "rv:", "flow:later", "mk", "cr:",
     "tick:1:x"],
)  # fmt: skip
def test_what_no_payload_reads_is_none_and_an_unknown_button(action: str) -> None:
    assert decode(action) is None
    assert parse_action(1, action) == c.Invalid(1, "unknown", action)


def test_the_largest_id_is_one_and_one_more_is_none() -> None:
    assert decode("fu:9223372036854775807") == a.FollowUp(attempt=9223372036854775807)
    assert decode("fu:9223372036854775808") is None


def test_an_apps_button_no_apps_payload_reads_goes_to_the_tool_untyped() -> None:
    for forged in ("cr:apps:show:notanumber", "cr:apps:zap:12", "cr:apps:mv:12:screen:x"):
        payload = decode(forged)
        assert type(payload) is a.Career and payload.command(1) == c.CareerAction(1, "apps", forged[len("cr:apps:") :])


def test_a_payload_fits_telegrams_64_bytes_or_encoding_it_raises() -> None:
    assert a.Mock(words="x" * 61).fits() and len(a.Mock(words="x" * 61).encode()) == 64
    assert not a.Mock(words="x" * 62).fits()
    with pytest.raises(ValueError, match="over 64 bytes"):
        a.Mock(words="x" * 62).encode()
    assert not a.Mock(words="面" * 21).fits()  # 3 + 63 bytes: Chinese takes three bytes a character


def test_a_prefix_registered_twice_raises() -> None:
    with pytest.raises(ValueError, match="button prefix registered twice: rate"):

        class AnotherRate(Action, prefix="rate"):
            pass
