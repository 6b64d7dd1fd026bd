"""a letter may be the same card entered again because its first entry was wrong

002 §4.2.5 lets a letter be corrected; a correction is a new letter pointing at the one it
replaces. Two kinds were told apart by nothing: the sender's new card that replaces a faulty
move (002 §4.2.10, whose 6 penalty days of §4.2.11 stand) and the steward's own slip, the card
entered again as it is written — after which nothing the wrong entry caused may stand against the
player (a penalty charged for a move the player never wrote). ``entry_error`` marks the second.
Every letter so far is the first kind, as it was read, so no stored total changes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021_entry_errors"
down_revision = "0020_forwardings"


def upgrade() -> None:
    op.add_column("letters", sa.Column("entry_error", sa.Boolean(), nullable=False,
                                       server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("letters") as batch:
        batch.drop_column("entry_error")
