"""each player's own letter language

Letters to a player were worded in his login's language, and in Russian when he had no login (a
postal player, one never invited): a player who reads English got Russian start sheets, and a
relay triggered by an official could not follow the player at all. ``players.language`` is the
language every letter to him is written in, set by the director or by the player himself.

Existing players keep exactly what they got so far: the language of their login where they have
one ("ru" or "en"), else Russian.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022_player_language"
down_revision = "0021_entry_errors"


def upgrade() -> None:
    op.add_column("players", sa.Column("language", sa.String(length=2), nullable=False,
                                       server_default="ru"))
    op.execute(
        "UPDATE players SET language = 'en' WHERE id IN "
        "(SELECT player_id FROM users WHERE player_id IS NOT NULL AND locale = 'en')"
    )


def downgrade() -> None:
    # Not a batch: on SQLite a batch copies the table, and dropping the old copy of a table other
    # rows point at fails once it has rows. SQLite drops a plain column itself (3.35 on).
    op.drop_column("players", "language")
