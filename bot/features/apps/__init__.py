"""/apps: the application board, its insights and follow-up reminders."""
