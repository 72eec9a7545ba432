"""/debrief: interview notes or a transcript become /review items in one go."""

from bot.features.debrief.messages import DEBRIEF_MESSAGES
from bot.kernel.i18n import register

register(DEBRIEF_MESSAGES)  # its messages, with the kernel's catalogue
