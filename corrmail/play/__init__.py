"""The ways a move reaches a game besides e-mail: a steward's postcard, a telephone call, a
move made on the web. Each checks and enters a letter through the game core, ``corrmail.games``."""
