"""Real interviews: /interview, /review (and their step-by-step flows), personal questions, companies."""
