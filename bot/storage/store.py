"""SqlStore: every store port (bot/kernel/store_ports.py) on SQLAlchemy Core, the same queries on SQLite and
PostgreSQL. One part per port: users.py, cards.py, llm_calls.py, personal_data.py, guilds.py, mocks.py, career.py."""

from __future__ import annotations

from bot.storage.cards import SqlCards
from bot.storage.career import SqlApplications, SqlJobs, SqlNotebook
from bot.storage.guilds import SqlGuilds
from bot.storage.llm_calls import LLMCalls
from bot.storage.mocks import SqlMocks
from bot.storage.personal_data import PersonalData
from bot.storage.users import SqlUsers


class SqlStore(SqlUsers, SqlCards, LLMCalls, PersonalData, SqlGuilds, SqlMocks, SqlJobs, SqlNotebook, SqlApplications):
    """The Store port; built with the engines (bot/storage/engine.py), which it does not own."""
