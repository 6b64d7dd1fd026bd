"""the stored game state keeps which plies were forced, and how many penalties the game has

The timekeeping ledger of a letter counts forced moves (002 §4.2.4, §4.3.5); finding them played
the whole game again for every letter, even when the board started from the stored state. The
state now keeps a flag for every ply ("1" forced, "0" not), so the intake finds the flags of the
new plies only; and the number of the game's penalty rows, so that a game without any costs the
intake no query for them. This migration adds the columns and drops the stored states, which
``corrmail db upgrade`` recomputes after the last migration
(``corrmail.migrate.fill_game_states``), with every column the service writes in place.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_game_state_forced_plies"
down_revision = "0017_game_state_fen_before"


def upgrade() -> None:
    op.add_column("game_states", sa.Column("forced_plies", sa.Text(), nullable=True))
    op.add_column("game_states", sa.Column("penalty_count", sa.Integer(), nullable=False,
                                           server_default="0"))
    op.execute("DELETE FROM game_states")


def downgrade() -> None:
    with op.batch_alter_table("game_states") as batch:
        batch.drop_column("penalty_count")
        batch.drop_column("forced_plies")
