"""/mock: a mock interview, its plan, its turns and its debrief."""

from pathlib import Path

from bot.kernel.i18n import register_catalogue

register_catalogue(Path(__file__).with_name("locales"))  # its messages (locales/zh.po), with the kernel's
