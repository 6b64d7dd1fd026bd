"""The game core: what changes a game and what is kept with its ledger."""
