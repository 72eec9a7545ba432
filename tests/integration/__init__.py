"""Flows through the whole app: a real SQLite file (or PostgreSQL), the scheduler, the workers, the CLI, the fake LLM
servers, speech/ (real audio), llm_real/ (a real model), and the benches' quick runs."""
