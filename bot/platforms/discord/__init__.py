"""The Discord adapter (discord.py 2.x): slash commands, buttons, the answer modal, DMs and pushes."""
