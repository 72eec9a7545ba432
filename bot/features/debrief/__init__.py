"""/debrief: interview notes or a transcript become /review items in one go."""

from pathlib import Path

from bot.kernel.i18n import register_catalogue

register_catalogue(Path(__file__).with_name("locales"))  # its messages (locales/zh.po), with the kernel's
