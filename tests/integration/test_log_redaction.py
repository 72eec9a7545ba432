"""What the logs may not carry: configured secrets (redacted wherever they appear in a record) and the
user's text bound to a failing SQL statement (the engines hide parameters). The platform libraries'
own DEBUG logs are scanned in tests/platforms/telegram and tests/platforms/discord."""

from __future__ import annotations

import logging
import sys

from pydantic import SecretStr

from bot.config import Settings
from bot.kernel import commands as c
from bot.kernel.bank import Bank
from bot.kernel.models import User
from bot.kernel.session import Session
from bot.logging_setup import REDACTED, RedactingFilter, configured_secrets
from bot.storage.store import SqlStore
from tests.app import build_test_app
from tests.fakes import FakeClock, FakeGrader
from tests.log_capture import captured_logs

log = logging.getLogger("bot.tests.redaction")


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[arg-type]


def test_every_configured_secret_is_found() -> None:
    s = settings(
        telegram_token="111:tg-token-value",
        telegram_webhook_secret="hook-secret-value",
        discord_token="discord-token-value",
        openai_api_key="sk-openai-key-value",
        transcribe_api_key="speech-key-value",
        database_url="postgresql+asyncpg://bot:p%40ss-word-9@db.internal/bot",
    )
    found = set(configured_secrets(s))
    expected = {"111:tg-token-value", "hook-secret-value", "discord-token-value", "sk-openai-key-value"}
    assert expected | {"speech-key-value", "p@ss-word-9"} <= found


def test_a_secret_is_redacted_in_the_message_its_arguments_and_the_exception() -> None:
    flt = RedactingFilter(["sk-live-0123456789", "pw-123456"])
    try:
        raise RuntimeError("401 for key sk-live-0123456789")
    except RuntimeError:
        args = ("api", {"key": "sk-live-0123456789"})
        record = log.makeRecord(log.name, logging.ERROR, __file__, 1, "calling %s with %r", args, sys.exc_info())
    record.stack_info = "Stack: connect('postgresql://bot:pw-123456@db/bot')"
    assert flt.filter(record)
    formatted = logging.Formatter("%(message)s").format(record)
    assert "sk-live-0123456789" not in formatted and "pw-123456" not in formatted
    assert formatted.count(REDACTED) >= 3 and "RuntimeError: 401 for key [redacted]" in formatted


def test_token_shapes_that_no_setting_names_are_redacted() -> None:
    flt = RedactingFilter([])
    lines = {
        "POST https://api.telegram.org/bot999:AAE-other_token/getMe": "/bot[redacted]/getMe",
        "POST /api/v10/interactions/123/aW50ZXJhY3Rpb24/callback": "/interactions/123/[redacted]/callback",
        "{'token': 'aW50ZXJhY3Rpb24', 'id': '1'}": "{'token': '[redacted]', 'id': '1'}",
        "Authorization: Bearer sk-abcdefghijklmnopqrstuvwxyz": "Bearer [redacted]",
        "connect postgresql+asyncpg://bot:hunter2@db/bot": "postgresql+asyncpg://bot:[redacted]@db/bot",
    }
    for line, shown in lines.items():
        assert shown in flt.redact(line), line
    for harmless in ("max_tokens=300 prompt_tokens: 12", "'token': None", "http://127.0.0.1:8080/v1", "DrillBot API"):
        assert flt.redact(harmless) == harmless


def test_short_values_are_not_secrets() -> None:
    # a local server's placeholder key ("x", "EMPTY") would otherwise blank every x in the log
    assert RedactingFilter(["x", "EMPTY"]).redact("x EMPTY") == "x EMPTY"


async def test_a_failing_write_logs_the_statement_but_not_the_users_text(sql: SqlStore, bank: Bank) -> None:
    svc = build_test_app(bank, grader=FakeGrader(), store=sql, clock=FakeClock()).service
    user = await svc.user_for("test", "gone")
    read = sql.get_user_and_session

    async def read_then_forgotten(user_id: int) -> tuple[User, Session] | None:
        found = await read(user_id)
        await sql.delete_user(user_id)  # another device's /forget, just after: the insert below breaks a foreign key
        return found

    sql.get_user_and_session = read_then_forgotten  # type: ignore[method-assign]
    private = "At Acme they asked how my previous employer's unreleased model diverged at step 41k"
    with captured_logs(settings(log_level="DEBUG")) as out:
        replies = await svc.handle(c.LogReview(user.id, "Acme", private, "my own answer, word for word"))
    assert replies[0].kind == "error"
    logs = out.getvalue()
    assert "ERROR bot.kernel.service" in logs and "IntegrityError" in logs  # the failure is logged ...
    assert "INSERT INTO" in logs and "SQL parameters hidden" in logs  # ... with its statement ...
    assert private not in logs and "word for word" not in logs  # ... and without what the user wrote


def test_a_secret_in_the_settings_is_not_in_a_log_line() -> None:
    s = settings(openai_api_key=SecretStr("sk-proj-abcdef123456"))
    with captured_logs(s) as out:
        logging.getLogger("openai").warning("retrying with api_key=%s", "sk-proj-abcdef123456")
        logging.getLogger("bot.grading").error("the key sk-proj-abcdef123456 was refused")
    logs = out.getvalue()
    assert "sk-proj-abcdef123456" not in logs and logs.count(REDACTED) == 2
