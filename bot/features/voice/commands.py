"""Voice answers' handler, registered with the kernel's registry (bot/kernel/registry.py) when imported."""

from __future__ import annotations

from bot.features.voice import voice
from bot.kernel import commands as c
from bot.kernel.registry import REGISTRY

REGISTRY.handle({c.SubmitVoice: voice.submit_voice})
