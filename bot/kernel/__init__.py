"""What every feature shares: models, commands and replies, the session, the service, ports, FSRS use, messages. Imports the standard library, pydantic and fsrs only (tests/test_architecture.py)."""
