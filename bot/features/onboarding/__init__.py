"""/start and /settings: language, level, topics, timezone, daily time."""
