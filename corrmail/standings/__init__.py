"""A tournament's results and table as `scoring` computes them, their tiebreak labels, exports and
play-offs."""
