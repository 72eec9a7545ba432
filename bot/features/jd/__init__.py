"""/jd: tailor the practice to a job description (reading it, matching the bank, the focus)."""
