"""the stored position before the plies to repeat goes back one ply more: before the player's own

A letter that opens with its sender's own last move written again before the partner's reply
(«1. c3-d4 f6-e5 2. d4:f6») is read against the position before that own move; the stored state
kept the position only from the partner's plies on, so checking every letter played the whole
game again to find it. ``fen_before`` now stands one ply further back when the game has that ply
(``corrmail.games.view.seed_depth``). This migration drops the stored states, which
``corrmail db upgrade`` recomputes after the last migration
(``corrmail.migrate.fill_game_states``); a state of the old meaning is never misread, since the
intake checks that the plies from ``fen_before`` lead to the stored position, and replays
otherwise.
"""

from __future__ import annotations

from alembic import op

revision = "0024_game_state_own_ply"
down_revision = "0023_official_address"


def upgrade() -> None:
    op.execute("DELETE FROM game_states")


def downgrade() -> None:
    # The older code reads fen_before one ply later: its upgrade fills the states again.
    op.execute("DELETE FROM game_states")
