"""tournaments record their play-offs

000 §3.16.2: places of players level on points are decided by a play-off match or tournament when
one is held; 000 §3.17.6 gives a team placed second after winning every match an extra match for
first place. The outcome is recorded on the tournament, groups in finishing order — start numbers
for players, team names for teams — and every table (pages, bulletins, exports, API) applies it
through the one standings adapter. Nullable JSON: existing tournaments have no play-off.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_playoff"
down_revision = "0006_imap_cursors"


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch_op:
        batch_op.add_column(sa.Column("playoff", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("team_playoff", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch_op:
        batch_op.drop_column("team_playoff")
        batch_op.drop_column("playoff")
