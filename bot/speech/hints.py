"""Prompts that steer Whisper towards what an interview answer sounds like.

Whisper drops hesitations unless its prompt contains some (OpenAI's speech-to-text guide suggests
exactly this), and the speaking insights count them. A few domain terms help it spell "loss",
"warmup" and "checkpoint" rather than "lost", "warm up" and "check point", and the Chinese prompt
keeps the output in simplified characters.
"""

from __future__ import annotations

from bot.kernel.models import Lang

HINTS: dict[Lang, str] = {
    "en": "Umm, let me think, like, hmm... Okay. LLM training: loss, gradient norm, learning rate warmup, checkpoint.",
    "zh": "嗯，那个，我想想……就是说，大模型训练：loss、梯度范数、学习率 warmup、checkpoint。",
}


def hint_for(lang: Lang) -> str:
    return HINTS.get(lang, HINTS["en"])
