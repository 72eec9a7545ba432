"""The terminal chat (`python -m bot chat`, ConsoleChat) on a real SQLite file: what a user of the terminal meets."""
