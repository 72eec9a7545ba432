"""/debrief: interview notes or a transcript become /review items in one go."""
