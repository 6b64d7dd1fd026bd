"""imap_cursors: the IMAP poller's UID cursor moves from a JSON file into the database

One row per polled folder, keyed by (host, username, folder): the folder's UIDVALIDITY and the
last UID whose message the inbox has stored. Keeping it beside ``inbound_messages`` means a
backup or a second poller host sees the same cursor, and it advances only after the message is
committed. UIDs are unsigned 32-bit (RFC 3501 §2.3.1.1), hence BIGINT. ``corrmail poll`` imports
an old ``var/imap-cursor-*.json`` once, the first time it finds no row for its folder.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_imap_cursors"
down_revision = "0005_rounds_and_teams"


def upgrade() -> None:
    op.create_table(
        "imap_cursors",
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("username", sa.String(length=320), nullable=False),
        sa.Column("folder", sa.String(length=255), nullable=False),
        sa.Column("uidvalidity", sa.BigInteger(), nullable=False),
        sa.Column("last_uid", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("host", "username", "folder", name=op.f("pk_imap_cursors")),
    )


def downgrade() -> None:
    op.drop_table("imap_cursors")
