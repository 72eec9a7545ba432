"""/notes: the answer notebook, versions of the user's own answers."""

from pathlib import Path

from bot.kernel.i18n import register_catalogue

register_catalogue(Path(__file__).with_name("locales"))  # its messages (locales/zh.po), with the kernel's
