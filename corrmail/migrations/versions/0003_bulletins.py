"""bulletins: the archive of issued bulletins and final reports, their schedule, the sending log

Issues keep the JSON they were rendered from with a version per re-issue (002 §4.1.7–4.1.8);
deliveries record each addressee queued or skipped with the reason and rule (002 §4.1.9).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_bulletins"
down_revision = "0002"


def upgrade() -> None:
    op.create_table(
        "bulletin_issues",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("as_of", sa.Date(), nullable=False),
        sa.Column("since", sa.Date(), nullable=True),
        sa.Column("content", sa.JSON(), nullable=False),
        sa.Column("issued_at", sa.DateTime(), nullable=False),
        sa.Column("issued_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["issued_by_id"], ["users.id"], name=op.f("fk_bulletin_issues_issued_by_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_bulletin_issues_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bulletin_issues")),
        sa.UniqueConstraint(
            "tournament_id",
            "kind",
            "number",
            "version",
            name=op.f("uq_bulletin_issues_tournament_id_kind_number_version"),
        ),
    )
    with op.batch_alter_table("bulletin_issues") as batch_op:
        batch_op.create_index(
            batch_op.f("ix_bulletin_issues_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "bulletin_schedules",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("every", sa.Integer(), nullable=False),
        sa.Column("unit", sa.String(length=32), nullable=False),
        sa.Column("next_on", sa.Date(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("set_by_id", sa.Integer(), nullable=True),
        sa.Column("set_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["set_by_id"], ["users.id"], name=op.f("fk_bulletin_schedules_set_by_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_bulletin_schedules_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_bulletin_schedules")),
    )

    op.create_table(
        "bulletin_deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("issue_id", sa.Integer(), nullable=False),
        sa.Column("participant_id", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=True),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("rule", sa.String(length=40), nullable=True),
        sa.Column("outbox_message_id", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["issue_id"],
            ["bulletin_issues.id"],
            name=op.f("fk_bulletin_deliveries_issue_id_bulletin_issues"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["outbox_message_id"],
            ["outbox.id"],
            name=op.f("fk_bulletin_deliveries_outbox_message_id_outbox"),
        ),
        sa.ForeignKeyConstraint(
            ["participant_id"],
            ["participants.id"],
            name=op.f("fk_bulletin_deliveries_participant_id_participants"),
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_bulletin_deliveries_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bulletin_deliveries")),
    )
    with op.batch_alter_table("bulletin_deliveries") as batch_op:
        batch_op.create_index(
            batch_op.f("ix_bulletin_deliveries_issue_id"), ["issue_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("bulletin_deliveries") as batch_op:
        batch_op.drop_index(batch_op.f("ix_bulletin_deliveries_issue_id"))
    op.drop_table("bulletin_deliveries")
    op.drop_table("bulletin_schedules")
    with op.batch_alter_table("bulletin_issues") as batch_op:
        batch_op.drop_index(batch_op.f("ix_bulletin_issues_tournament_id"))
    op.drop_table("bulletin_issues")
