"""/stats and the weekly summary: progress figures and their text."""
