"""Accounts, API tokens and a player's own page."""
