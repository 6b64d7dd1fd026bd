"""breaks record what the referee granted: a late notice counted or an extra break

002 §4.4.5 lets the referee grant two different things: count a break announced after it began
(still the player's one break of the year, 002 §4.4.1) or grant an additional break beyond the
norms (outside 002 §4.4.1). A special break row said only "special"; ``referee_grant`` says which
(``late_notice`` or ``extra``; null for an ordinary break). Special breaks already on record are
read as ``late_notice``: the reading that keeps the yearly rule, as the older boolean of the ledger
is read.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_rules_second_pass"
down_revision = "0010_tournament_life"


def upgrade() -> None:
    with op.batch_alter_table("breaks") as batch_op:
        batch_op.add_column(sa.Column("referee_grant", sa.String(length=16), nullable=True))
    op.execute("UPDATE breaks SET referee_grant = 'late_notice' WHERE kind = 'special'")


def downgrade() -> None:
    with op.batch_alter_table("breaks") as batch_op:
        batch_op.drop_column("referee_grant")
