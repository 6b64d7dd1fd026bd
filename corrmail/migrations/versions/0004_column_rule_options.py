"""tournaments carry column draughts' rule options

Bashni and Lasca have optional readings (re-jumping, placement, king landing, numbering, the
quiet-move limit: docs/rules/columns.md); a tournament fixes them once, and every replay of its
games (letters, diagrams, evidence, bulletins) starts from ``initial_position(type, options)``.
Nullable JSON: existing tournaments keep the defaults.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_column_rule_options"
down_revision = "0003_bulletins"


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch_op:
        batch_op.add_column(sa.Column("rule_options", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch_op:
        batch_op.drop_column("rule_options")
