"""The environment for a `python -m bot` subprocess in a test: none of the bot's settings inherited
(no token, key, URL or level of the developer's shell leaks in) and no `.env` read, plus `values`."""

from __future__ import annotations

import os

from bot.config import Settings

SETTING_NAMES = {name.upper() for name in Settings.model_fields} | {"OPENAI_API_KEY", "ENV_FILE"}


def bot_env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.split("__")[0].upper() not in SETTING_NAMES}
    return env | {"ENV_FILE": ""} | values
