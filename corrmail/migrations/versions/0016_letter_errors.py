"""letters record a partner's error reported and a missing date supplied later

002 §4.2.9: a player reports his partner's faulty letter within 3 days; the report is a letter
to the partner (``reports_error_of_id`` names the letter reported; it carries no move, its
``received`` is the day the faulty letter came and its ``sent`` the day of the report).
002 §4.3.3: a receipt date the sender left out of his previous letter is supplied in his next
one (``supplied_receipt``); the omission stays on record.

A move of an accepted variant now counts as 002 §4.3.5 asks (uncounted unless forced), so the
games' stored states are dropped and recomputed after the last migration
(``corrmail.migrate.fill_game_states``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_letter_errors"
down_revision = "0015_protest_letters"


def upgrade() -> None:
    with op.batch_alter_table("letters") as batch_op:
        batch_op.add_column(sa.Column("supplied_receipt", sa.Date(), nullable=True))
        batch_op.add_column(sa.Column("reports_error_of_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f("fk_letters_reports_error_of_id_letters"),
                                    "letters", ["reports_error_of_id"], ["id"])
    op.execute("DELETE FROM game_states")


def downgrade() -> None:
    with op.batch_alter_table("letters") as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_letters_reports_error_of_id_letters"),
                                 type_="foreignkey")
        batch_op.drop_column("reports_error_of_id")
        batch_op.drop_column("supplied_receipt")
