"""the stored game state keeps the position before the plies to repeat

The intake of a letter starts its board from the stored state: the position now, and the
position before the partner's plies the player to move must repeat (002 §4.2.9), so only those
plies are played, not the whole ledger. This migration adds that FEN and fills every game's
state by replaying its ledger (``corrmail.games.state.rebuild``): the fill of the table made in
0014 happens here, once the table has every column the service writes — a fill in 0014 would
write this column before it exists. A later migration that adds a column to ``game_states``
moves the fill after it in the same way.

Revision ID: 0015_game_state_fen_before
Revises: 0014_game_state
Create Date: 2026-12-01 17:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_game_state_fen_before"
down_revision = "0014_game_state"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game_states", sa.Column("fen_before", sa.Text(), nullable=True))
    from sqlalchemy.orm import Session

    from corrmail.games.state import rebuild

    session = Session(bind=op.get_bind())
    try:
        rebuild(session)
        session.flush()
    finally:
        session.close()


def downgrade() -> None:
    with op.batch_alter_table("game_states") as batch:
        batch.drop_column("fen_before")
