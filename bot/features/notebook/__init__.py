"""/notes: the answer notebook, versions of the user's own answers."""

from bot.features.notebook.messages import NOTES_MESSAGES, NOTES_PLURALS
from bot.kernel.i18n import register

register(NOTES_MESSAGES, NOTES_PLURALS)  # its messages, with the kernel's catalogue
