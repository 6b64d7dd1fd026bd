"""an official's postal address

A player who plays by post writes his cards to the steward (002 §4.1.1), and his start sheet must
say where to (002 §4.3.2); nothing held that address. ``users.postal_address`` does; an account
without one prints the steward's name only, as before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023_official_address"
down_revision = "0022_player_language"


def upgrade() -> None:
    op.add_column("users", sa.Column("postal_address", sa.Text(), nullable=True))


def downgrade() -> None:
    # Not a batch: on SQLite a batch copies the table, and dropping the old copy of a table other
    # rows point at fails once it has rows. SQLite drops a plain column itself (3.35 on).
    op.drop_column("users", "postal_address")
