"""sessions carry a per-user version; received letters keep the MTA's Authentication-Results

``users.session_version`` is part of every session and "remember me" cookie: logging out and
setting a password raise it, so a copied cookie stops working. ``inbound_messages.auth_results``
keeps the receiving MTA's ``Authentication-Results`` header as evidence of why a letter whose
envelope sender differs from the player's address was applied or refused.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_security"
down_revision = "0007_playoff"


def upgrade() -> None:
    with op.batch_alter_table("users") as batch_op:
        batch_op.add_column(
            sa.Column("session_version", sa.Integer(), nullable=False, server_default="0")
        )
    with op.batch_alter_table("inbound_messages") as batch_op:
        batch_op.add_column(sa.Column("auth_results", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inbound_messages") as batch_op:
        batch_op.drop_column("auth_results")
    with op.batch_alter_table("users") as batch_op:
        batch_op.drop_column("session_version")
