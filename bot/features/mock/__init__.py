"""/mock: a mock interview, its plan, its turns and its debrief."""
