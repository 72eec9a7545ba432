"""Transcription on any OpenAI-compatible audio endpoint (OpenAI, Groq, a local whisper server ...).

OGG/Opus voice notes are sent as they are; only the file name is adjusted, because the endpoint
judges the format by the extension. The user's language is sent as a hint. Only bytes in an accepted
container are sent (the core measures them first, which refuses the rest, and the check is repeated
here): a server that decodes with FFmpeg must not be handed an ffconcat or HLS playlist either.
"""

from __future__ import annotations

import asyncio
import logging

import openai

from bot.kernel.models import Lang
from bot.kernel.ports import TranscriberUnavailable, Transcription, TranscriptionError
from bot.speech.audio import STOP_AFTER_SECONDS, probe_seconds, upload_name
from bot.speech.containers import sniff
from bot.speech.hints import hint_for

log = logging.getLogger(__name__)


class OpenAITranscriber:
    def __init__(
        self, client: openai.AsyncOpenAI, model: str = "whisper-1", max_seconds: float = STOP_AFTER_SECONDS
    ) -> None:
        self.client = client
        self.model = model
        self.id = f"openai:{model}"
        self.max_seconds = max_seconds  # MAX_AUDIO_SECONDS: measuring stops just past it

    async def measure(self, audio: bytes, filename: str) -> float:
        return await asyncio.to_thread(probe_seconds, audio, self.max_seconds)

    async def transcribe(self, audio: bytes, filename: str, lang: Lang) -> Transcription:
        if sniff(audio) is None:
            raise TranscriptionError("not an accepted audio container")
        name = upload_name(filename, audio)
        try:
            result = await self.client.audio.transcriptions.create(
                model=self.model, file=(name, audio), language=lang, response_format="json", prompt=hint_for(lang)
            )
        except openai.BadRequestError as err:
            # 400: the service could not read this file (corrupt, empty, unsupported format).
            raise TranscriptionError(f"rejected by the service: {err.status_code}") from None
        except (openai.APIConnectionError, openai.APIStatusError) as err:
            raise TranscriberUnavailable(type(err).__name__) from None
        return Transcription(text=(result.text or "").strip())
