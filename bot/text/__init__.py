"""Text helpers shared by every part: normalisation, tokens and character n-grams."""
