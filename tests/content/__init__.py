"""The question bank's tests: its files, hygiene, premises, code questions, cache, held-out data, and the grader and
the first hour over the real bank."""
