"""rounds paired one at a time, byes and absences, teams with their board order

A Swiss (and a team Swiss) is paired round by round: each round's draw is kept with its seed and
absentees so it can be reproduced and checked (000 §3.18, 004: a published round is immutable);
the bye ``+`` and known absences ``0`` have no game, so they get rows of their own. Team events
keep their teams and board order (000 §3.17) and the regulations' choices (team round robin or
Swiss, Scheveningen schedule, pairing before a round is finished).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_rounds_and_teams"
down_revision = "0004_column_rule_options"


def upgrade() -> None:
    op.create_table(
        "round_rules",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("pair_before_finished", sa.Boolean(), nullable=False),
        sa.Column("team_pairing", sa.String(length=32), nullable=False),
        sa.Column("team_pairing_system", sa.String(length=40), nullable=True),
        sa.Column("team_schedule", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"],
            name=op.f("fk_round_rules_tournament_id_tournaments"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_round_rules")),
    )
    op.create_table(
        "paired_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("system", sa.String(length=40), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("absent", sa.JSON(), nullable=False),
        sa.Column("draw", sa.JSON(), nullable=False),
        sa.Column("paired_at", sa.DateTime(), nullable=False),
        sa.Column("paired_by_id", sa.Integer(), nullable=True),
        sa.Column("published_at", sa.DateTime(), nullable=True),
        sa.Column("starts_on", sa.Date(), nullable=True),
        sa.Column("published_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["paired_by_id"], ["users.id"], name=op.f("fk_paired_rounds_paired_by_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["published_by_id"], ["users.id"], name=op.f("fk_paired_rounds_published_by_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"],
            name=op.f("fk_paired_rounds_tournament_id_tournaments"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_paired_rounds")),
        sa.UniqueConstraint(
            "tournament_id", "number", name=op.f("uq_paired_rounds_tournament_id_number")
        ),
    )
    op.create_index(
        op.f("ix_paired_rounds_tournament_id"), "paired_rounds", ["tournament_id"], unique=False
    )
    op.create_table(
        "unpaired_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("participant_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(
            ["participant_id"], ["participants.id"],
            name=op.f("fk_unpaired_entries_participant_id_participants"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"],
            name=op.f("fk_unpaired_entries_tournament_id_tournaments"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_unpaired_entries")),
        sa.UniqueConstraint(
            "tournament_id", "round", "participant_id",
            name=op.f("uq_unpaired_entries_tournament_id_round_participant_id"),
        ),
    )
    op.create_index(
        op.f("ix_unpaired_entries_tournament_id"), "unpaired_entries", ["tournament_id"],
        unique=False,
    )
    op.create_table(
        "teams",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"],
            name=op.f("fk_teams_tournament_id_tournaments"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_teams")),
        sa.UniqueConstraint("tournament_id", "name", name=op.f("uq_teams_tournament_id_name")),
        sa.UniqueConstraint(
            "tournament_id", "number", name=op.f("uq_teams_tournament_id_number")
        ),
    )
    op.create_index(op.f("ix_teams_tournament_id"), "teams", ["tournament_id"], unique=False)
    op.create_table(
        "team_boards",
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("participant_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["participant_id"], ["participants.id"],
            name=op.f("fk_team_boards_participant_id_participants"),
        ),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_team_boards_team_id_teams"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("team_id", "board", name=op.f("pk_team_boards")),
        sa.UniqueConstraint("participant_id", name=op.f("uq_team_boards_participant_id")),
    )


def downgrade() -> None:
    op.drop_table("team_boards")
    op.drop_index(op.f("ix_teams_tournament_id"), table_name="teams")
    op.drop_table("teams")
    op.drop_index(op.f("ix_unpaired_entries_tournament_id"), table_name="unpaired_entries")
    op.drop_table("unpaired_entries")
    op.drop_index(op.f("ix_paired_rounds_tournament_id"), table_name="paired_rounds")
    op.drop_table("paired_rounds")
    op.drop_table("round_rules")
