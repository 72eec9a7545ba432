"""The user's own data: /export (JSON and Markdown) and /forget."""
