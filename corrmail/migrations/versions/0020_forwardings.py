"""the steward's forwardings of e-mail moves to partners who play by post or telephone

In a mixed tournament a move made by e-mail or on the web reaches a partner who plays by post or
telephone only when the steward posts or telephones it (002 §4.1.1). ``forwardings`` keeps the
day he did, with who entered it: append-only like the letters, a correction is a new row and the
latest row of a letter counts. The partner's receipt, until his card states it, is estimated from
that day plus the average transit (a call's day is the receipt; docs/rules/mail.md 21).

The stored state keeps the day the last move was forwarded, so the dashboard stops counting a
forwarded move as one to forward. No game has a forwarding yet, so every stored state stays as it
is (the new column is empty) and nothing needs recomputing.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020_forwardings"
down_revision = "0019_relay_days"


def upgrade() -> None:
    op.create_table(
        "forwardings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("letter_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=32), nullable=False),
        sa.Column("forwarded_on", sa.Date(), nullable=False),
        sa.Column("entered_by_id", sa.Integer(), nullable=True),
        sa.Column("entered_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["entered_by_id"], ["users.id"],
                                name=op.f("fk_forwardings_entered_by_id_users")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE",
                                name=op.f("fk_forwardings_game_id_games")),
        sa.ForeignKeyConstraint(["letter_id"], ["letters.id"],
                                name=op.f("fk_forwardings_letter_id_letters")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_forwardings")),
    )
    with op.batch_alter_table("forwardings") as batch:
        batch.create_index(batch.f("ix_forwardings_game_id"), ["game_id"], unique=False)
    op.add_column("game_states", sa.Column("forwarded_on", sa.Date(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_states") as batch:
        batch.drop_column("forwarded_on")
    with op.batch_alter_table("forwardings") as batch:
        batch.drop_index(batch.f("ix_forwardings_game_id"))
    op.drop_table("forwardings")
