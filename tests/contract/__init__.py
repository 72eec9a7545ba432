"""Port contracts: the store contract suite (store/, on the fake, SQLite and PostgreSQL), the SQL engines, the
migrations and what only the SQL store has."""
