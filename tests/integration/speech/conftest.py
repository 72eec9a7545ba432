"""Voice fixtures: the committed recordings, the packaged Whisper model, the fake OpenAI server,
and a service with a user who has a question open."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.features.deps import Deps
from bot.kernel.ports import Transcriber
from bot.kernel.service import Service
from bot.speech.local_backend import WhisperModelLike, load_whisper
from tests.fixtures.whisper_model import packaged_whisper_base
from tests.platforms.telegram.conftest import make_telegram, tg  # noqa: F401  (fixtures for test_telegram_voice)

AUDIO = Path(__file__).resolve().parents[2] / "fixtures" / "audio"


@pytest.fixture(scope="session")
def answer_en() -> bytes:
    return (AUDIO / "answer_en.ogg").read_bytes()


@pytest.fixture(scope="session")
def silence_ogg() -> bytes:
    return (AUDIO / "silence.ogg").read_bytes()


@pytest.fixture(scope="session")
def whisper_base(pytestconfig: pytest.Config) -> Path:
    """The model folder, assembled once per run into the pytest cache (not committed)."""
    assert pytestconfig.cache is not None
    return packaged_whisper_base(pytestconfig.cache.mkdir("whisper-base"))


@pytest.fixture(scope="session")
def whisper_model(whisper_base: Path) -> WhisperModelLike:
    """Loaded once per run (about two seconds) and shared by the tests that need the real model."""
    return load_whisper(str(whisper_base))


async def user_with_open_question(service: Service, name: str = "u1", lang: str = "en") -> int:
    """A user (onboarded the short way: language only) who was just asked a question."""
    user = await service.user_for("test", name, lang)  # type: ignore[arg-type]
    replies = await service.handle_text(user.id, "/drill")
    assert replies[-1].kind == "question", replies
    return user.id


def voice_service(deps: Deps, transcriber: Transcriber | None) -> Service:
    deps.transcriber = transcriber
    return Service(deps)
