"""The career tools' shared door (/jd, /notes, /apps, /debrief): their commands, buttons, sent files and records."""

from bot.features.career.messages import CAREER_MESSAGES
from bot.kernel.i18n import register

register(CAREER_MESSAGES)  # its messages, with the kernel's catalogue
