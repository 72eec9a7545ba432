"""/apps: the application board, its insights and follow-up reminders."""

from bot.features.apps.messages import APPS_MESSAGES
from bot.kernel.i18n import register

register(APPS_MESSAGES)  # its messages, with the kernel's catalogue
