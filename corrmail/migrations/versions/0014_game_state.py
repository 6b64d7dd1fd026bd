"""games keep their state with the ledger

Pages and the intake of a letter read a game's position, totals, reply clock and flags from a
stored row (``game_states``, see corrmail.games.state) instead of replaying its whole ledger.
The row is derived data: ``corrmail db upgrade`` fills it for every existing game after the
last migration by replaying each ledger, and ``corrmail games verify`` / ``corrmail games rebuild`` check and repair it later.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_game_state"
down_revision = "0013_game_import"


def upgrade() -> None:
    op.create_table(
        "game_states",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("fen", sa.Text(), nullable=True),
        sa.Column("board_turn", sa.String(length=5), nullable=True),
        sa.Column("ply_count", sa.Integer(), nullable=False),
        sa.Column("board_problem", sa.Text(), nullable=False),
        sa.Column("pending_variants", sa.Text(), nullable=False),
        sa.Column("letter_count", sa.Integer(), nullable=False),
        sa.Column("last_mover_id", sa.Integer(), nullable=True),
        sa.Column("last_sent", sa.Date(), nullable=True),
        sa.Column("last_received", sa.Date(), nullable=True),
        sa.Column("white_total", sa.Integer(), nullable=False),
        sa.Column("black_total", sa.Integer(), nullable=False),
        sa.Column("overstep_side", sa.String(length=5), nullable=True),
        sa.Column("to_move", sa.String(length=5), nullable=True),
        sa.Column("counting_from", sa.Date(), nullable=True),
        sa.Column("period_moves", sa.Integer(), nullable=True),
        sa.Column("period_limit", sa.Integer(), nullable=True),
        sa.Column("clock_end", sa.Date(), nullable=True),
        sa.Column("reply_due", sa.Date(), nullable=True),
        sa.Column("near_overstep_on", sa.Date(), nullable=True),
        sa.Column("repeat_due", sa.Date(), nullable=True),
        sa.Column("break_days", sa.Text(), nullable=False),
        sa.Column("clock_problem", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_game_states_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_states")),
    )
    # Filled after the last migration by corrmail.migrate.fill_game_states: the service's code
    # that replays a ledger reads the letters as the newest models define them.


def downgrade() -> None:
    op.drop_table("game_states")
