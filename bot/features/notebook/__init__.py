"""/notes: the answer notebook, versions of the user's own answers."""
