"""Study servers: a question of the day in a channel, private answers, a leaderboard."""
