"""Voice answers: the budget, the transcription, and the transcript handed to the drill, a mock interview or a career tool."""
