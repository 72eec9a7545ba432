"""/mock: a mock interview, its plan, its turns and its debrief."""

from bot.features.mock.messages import MOCK_MESSAGES
from bot.kernel.i18n import register

register(MOCK_MESSAGES)  # its messages, with the kernel's catalogue
