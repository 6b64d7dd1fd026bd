"""adjudication."""
