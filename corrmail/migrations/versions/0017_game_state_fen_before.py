"""the stored game state keeps the position before the plies to repeat

The intake of a letter starts its board from the stored state: the position now, and the
position before the partner's plies the player to move must repeat (002 §4.2.9), so only those
plies are played, not the whole ledger. This migration adds that FEN and drops the stored
states, which ``corrmail db upgrade`` recomputes after the last migration
(``corrmail.migrate.fill_game_states``), with every column the service writes in place.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_game_state_fen_before"
down_revision = "0016_letter_errors"


def upgrade() -> None:
    op.add_column("game_states", sa.Column("fen_before", sa.Text(), nullable=True))
    op.execute("DELETE FROM game_states")


def downgrade() -> None:
    with op.batch_alter_table("game_states") as batch:
        batch.drop_column("fen_before")
