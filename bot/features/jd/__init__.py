"""/jd: tailor the practice to a job description (reading it, matching the bank, the focus)."""

from bot.features.jd.messages import JD_MESSAGES
from bot.kernel.i18n import register

register(JD_MESSAGES)  # its messages, with the kernel's catalogue
