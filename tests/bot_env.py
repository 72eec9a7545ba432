"""The environment for a `python -m bot` subprocess in a test: none of the bot's settings inherited
(no token, key, URL or level of the developer's shell leaks in) and no `.env` read, plus `values`.

The repository's root leads PYTHONPATH, so the subprocess runs this checkout's `bot` whatever its working
folder: an editable install made from another checkout (a git worktree's main) would otherwise be imported."""

from __future__ import annotations

import os
from pathlib import Path

from bot.config import Settings

ROOT = Path(__file__).resolve().parents[1]
SETTING_NAMES = {name.upper() for name in Settings.model_fields} | {"OPENAI_API_KEY", "ENV_FILE"}


def bot_env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.split("__")[0].upper() not in SETTING_NAMES}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env | {"ENV_FILE": ""} | values
