"""a tournament's life without the demo: each player's channel, start sheets sent, the end

* ``participants.channel`` — how this player plays (post, e-mail, phone; 002 §4.1.1); NULL follows
  the tournament's channel.
* ``participants.start_sheet_sent_on`` — the day his start sheet was e-mailed, or posted by the
  steward (002 §4.3.2); NULL: not sent yet, so publishing again sends nothing twice.
* ``tournaments.finished_on`` and ``tournaments.final_table`` — the day the tournament was
  closed and its final table as then computed, frozen (002 §4.1.7).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_tournament_life"
down_revision = "0009_security"


def upgrade() -> None:
    with op.batch_alter_table("participants") as batch_op:
        batch_op.add_column(sa.Column("channel", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("start_sheet_sent_on", sa.Date(), nullable=True))
    with op.batch_alter_table("tournaments") as batch_op:
        batch_op.add_column(sa.Column("finished_on", sa.Date(), nullable=True))
        batch_op.add_column(sa.Column("final_table", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch_op:
        batch_op.drop_column("final_table")
        batch_op.drop_column("finished_on")
    with op.batch_alter_table("participants") as batch_op:
        batch_op.drop_column("start_sheet_sent_on")
        batch_op.drop_column("channel")
