"""/jd: tailor the practice to a job description (reading it, matching the bank, the focus)."""

from pathlib import Path

from bot.kernel.i18n import register_catalogue

register_catalogue(Path(__file__).with_name("locales"))  # its messages (locales/zh.po), with the kernel's
