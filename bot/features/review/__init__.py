"""Real interviews: /interview, /review (and their step-by-step flows), personal questions, companies."""

from bot.features.review.messages import RECORD_MESSAGES
from bot.kernel.i18n import register

register(RECORD_MESSAGES)  # its messages, with the kernel's catalogue
