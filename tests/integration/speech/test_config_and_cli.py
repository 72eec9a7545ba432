"""TRANSCRIBE_BACKEND wiring (settings -> transcriber -> the app's Deps) and `python -m bot transcribe`."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.bootstrap import build_app
from bot.config import Settings
from bot.speech.factory import build_transcriber
from bot.speech.local_backend import LocalTranscriber
from bot.speech.openai_backend import OpenAITranscriber
from bot.speech.settings import SpeechSettingsError
from tests.fake_openai import FakeOpenAI
from tests.fakes import FakeGrader
from tests.fixtures.make_audio import ANSWER_EN_KEYWORDS
from tests.integration.speech.conftest import AUDIO
from tests.sqlite_template import sqlite_url

ROOT = Path(__file__).resolve().parents[3]
VOICE_ENV = ("TRANSCRIBE_", "WHISPER_", "LLM_", "OPENAI_", "MAX_AUDIO_")


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(VOICE_ENV):
            monkeypatch.delenv(name)


def test_none_is_the_default_and_means_no_transcriber() -> None:
    assert settings().transcribe_backend == "none"
    assert build_transcriber(settings().speech()) is None


def test_openai_uses_the_llm_endpoint_unless_its_own_is_set() -> None:
    shared = build_transcriber(settings(transcribe_backend="openai", llm_base_url="http://127.0.0.1:9/v1").speech())
    assert isinstance(shared, OpenAITranscriber) and shared.id == "openai:whisper-1"
    assert str(shared.client.base_url).startswith("http://127.0.0.1:9/v1")
    own = build_transcriber(
        settings(
            transcribe_backend="openai",
            llm_base_url="http://127.0.0.1:9/v1",
            transcribe_base_url="http://127.0.0.1:8/v1",
            transcribe_model="whisper-large-v3",
        ).speech()
    )
    assert isinstance(own, OpenAITranscriber) and own.model == "whisper-large-v3"
    assert str(own.client.base_url).startswith("http://127.0.0.1:8/v1")


def test_misconfiguration_names_the_setting(tmp_path: Path) -> None:
    with pytest.raises(SpeechSettingsError, match="TRANSCRIBE_BACKEND"):
        build_transcriber(settings(transcribe_backend="openai").speech())
    with pytest.raises(SpeechSettingsError, match="WHISPER_MODEL"):
        build_transcriber(settings(transcribe_backend="local", whisper_model=str(tmp_path / "missing")).speech())


def test_local_takes_a_folder_or_a_name(whisper_base: Path) -> None:
    by_path = build_transcriber(settings(transcribe_backend="local", whisper_model=str(whisper_base)).speech())
    assert isinstance(by_path, LocalTranscriber) and by_path.model_ref == str(whisper_base)
    by_name = build_transcriber(settings(transcribe_backend="local", whisper_model="small").speech())
    assert isinstance(by_name, LocalTranscriber) and by_name.model_ref == "small"


async def test_the_app_wires_the_backend_and_the_limits(tmp_path: Path) -> None:
    s = settings(
        database_url=sqlite_url(tmp_path),
        transcribe_backend="openai",
        openai_api_key="sk-test",
        max_audio_seconds=120,
        max_audio_mb=10,
    )
    app = await build_app(s, grader=FakeGrader())
    deps = app.service.deps
    assert isinstance(deps.transcriber, OpenAITranscriber)
    assert (deps.limits.max_audio_seconds, deps.limits.max_audio_bytes) == (120, 10_000_000)
    await app.close()


@pytest.mark.parametrize("mode", ["process", "thread"])
async def test_a_served_bot_transcribes_locally_in_worker_processes(
    tmp_path: Path, whisper_base: Path, mode: str
) -> None:
    """`serve` (process workers) gives the local transcriber its own pool of TRANSCRIBE_MAX_CONCURRENT processes,
    each transcription stopped at the voice deadline; in thread mode (tests, an injected bank) there is none."""
    s = settings(
        database_url=sqlite_url(tmp_path),
        transcribe_backend="local",
        whisper_model=str(whisper_base),
        transcribe_max_concurrent=2,
    )
    app = await build_app(s, grader=FakeGrader(), worker_mode=mode)
    transcriber = app.service.deps.transcriber
    assert isinstance(transcriber, LocalTranscriber)
    if mode == "process":
        assert transcriber.pool is app.transcribe_workers and app.transcribe_workers is not None
        assert app.transcribe_workers.size == 2 and app.transcribe_workers is not app.workers
        assert transcriber.deadline == app.service.deps.limits.transcribe_deadline == 120
    else:
        assert transcriber.pool is None and app.transcribe_workers is None
    await app.close()


async def run_cli(*args: str, env: dict[str, str]) -> tuple[int, str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(VOICE_ENV)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "transcribe", *args, cwd=ROOT, env={**clean, **env},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    return proc.returncode or 0, out.decode(), err.decode()


async def test_cli_transcribes_locally_and_shows_insights(whisper_base: Path) -> None:
    env = {"TRANSCRIBE_BACKEND": "local", "WHISPER_MODEL": str(whisper_base)}
    code, out, err = await run_cli(str(AUDIO / "answer_en.ogg"), env=env)
    assert code == 0, err
    # the codec's 533 Opus packets of 20 ms: 10.66 s (the container's granules, which the probe read before: 10.6)
    assert out.startswith("local:whisper-base: 10.7 s of audio") and "real-time factor" in out
    assert all(word in out.lower() for word in ANSWER_EN_KEYWORDS)
    assert "Speaking (11 s):" in out and "words a minute" in out


async def test_cli_on_the_openai_backend_in_chinese(openai_server: FakeOpenAI) -> None:
    openai_server.transcripts["zh"] = "嗯，我会先检查数据，然后看梯度范数。"
    env = {"TRANSCRIBE_BASE_URL": openai_server.base_url, "TRANSCRIBE_MODEL": "fake-whisper"}
    code, out, err = await run_cli(str(AUDIO / "answer_en.ogg"), "--backend", "openai", "--lang", "zh", env=env)
    assert code == 0, err
    assert "嗯，我会先检查数据" in out and "口语表现" in out and "“嗯”×1" in out
    assert openai_server.requests[-1]["language"] == "zh" and openai_server.requests[-1]["model"] == "fake-whisper"


def test_cli_errors_are_clear(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["transcribe", str(AUDIO / "answer_en.ogg")]) == 2
    assert "set TRANSCRIBE_BACKEND" in capsys.readouterr().err
    assert main(["transcribe", str(tmp_path / "nope.ogg"), "--backend", "local"]) == 2
    assert "cannot read" in capsys.readouterr().err
    not_audio = tmp_path / "notes.ogg"
    not_audio.write_text("just text")
    assert main(["transcribe", str(not_audio), "--backend", "openai"]) == 2
    assert "TRANSCRIBE_BACKEND: 'openai' needs" in capsys.readouterr().err
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert main(["transcribe", str(not_audio), "--backend", "openai"]) == 2
    assert "is not readable audio" in capsys.readouterr().err


def test_a_bad_voice_setting_stops_the_bot_with_its_name_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("OPENAI_API_KEY", "LLM_API_KEY", "LLM_BASE_URL", "TRANSCRIBE_API_KEY", "TRANSCRIBE_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TRANSCRIBE_BACKEND", "openai")
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    assert main(["chat"]) == 2
    err = capsys.readouterr().err
    assert "TRANSCRIBE_BACKEND: 'openai' needs" in err and "Traceback" not in err
