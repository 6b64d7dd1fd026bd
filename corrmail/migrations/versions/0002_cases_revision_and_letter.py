"""cases carry the adjudication revision and the opening letter

The decision forms check `revision` (`UPDATE … WHERE revision = …`) so a second referee deciding
the same case gets a conflict; `letter_text` keeps the claim or protest letter beside the payload
the `adjudication` package owns. Existing rows get revision 0 and an empty letter.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    with op.batch_alter_table("cases") as batch_op:
        batch_op.add_column(
            sa.Column("revision", sa.Integer(), nullable=False, server_default=sa.text("0"))
        )
        batch_op.add_column(
            sa.Column("letter_text", sa.Text(), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("cases") as batch_op:
        batch_op.drop_column("letter_text")
        batch_op.drop_column("revision")
