"""The drill: next question, answer stored then graded then scheduled, reveal, skip, rating override, follow-ups, regrades."""
