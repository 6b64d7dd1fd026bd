"""games imported from a PDN archive keep their source

Finished games played before the service was used are entered from a PDN archive
(corrmail.game_import). Each becomes an ordinary finished game; a new table keeps, per game, the
file it came from, its record as read, its moves in full notation and the reader's warnings, so
a referee can always see what was imported and what was repaired on the way.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_game_import"
down_revision = "0012_rules_second_pass"


def upgrade() -> None:
    op.create_table(
        "game_imports",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=300), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("pdn", sa.Text(), nullable=False),
        sa.Column("moves_text", sa.Text(), nullable=False),
        sa.Column("warnings", sa.JSON(), nullable=False),
        sa.Column("imported_by_id", sa.Integer(), nullable=True),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_imports_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["imported_by_id"], ["users.id"], name=op.f("fk_game_imports_imported_by_id_users")
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_imports")),
    )


def downgrade() -> None:
    op.drop_table("game_imports")
