"""protests by e-mail are letters, not cases

A protest that came by e-mail and contested no case its sender could protest yet was kept as a
row of ``cases`` with the type ``protest``: a case with no state of its own that every reader of
the case table had to skip. It is now a row of ``protest_letters``; this migration moves every
such row there (its text, protest, day received, and where it was filed) and deletes it from
``cases``. Its audit entries keep their ids; they name the letter, not a case.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0015_protest_letters"
down_revision = "0014_game_state"

CASES = sa.table(
    "cases",
    sa.column("id", sa.Integer()),
    sa.column("case_type", sa.String()),
    sa.column("tournament_id", sa.Integer()),
    sa.column("game_id", sa.Integer()),
    sa.column("participant_id", sa.Integer()),
    sa.column("parent_case_id", sa.Integer()),
    sa.column("state", sa.String()),
    sa.column("deadline", sa.Date()),
    sa.column("payload", sa.JSON()),
    sa.column("letter_text", sa.Text()),
    sa.column("opened_at", sa.DateTime()),
    sa.column("closed_at", sa.DateTime()),
    sa.column("revision", sa.Integer()),
    sa.column("version", sa.Integer()),
)


def _payload(value: Any) -> dict[str, Any]:
    return json.loads(value) if isinstance(value, str) else dict(value or {})


def upgrade() -> None:
    letters = op.create_table(
        "protest_letters",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("participant_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("protest", sa.Text(), nullable=False),
        sa.Column("received", sa.Date(), nullable=False),
        sa.Column("filed_case_id", sa.Integer(), nullable=True),
        sa.Column("filed_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["filed_case_id"], ["cases.id"],
                                name=op.f("fk_protest_letters_filed_case_id_cases")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_protest_letters_game_id_games")),
        sa.ForeignKeyConstraint(["participant_id"], ["participants.id"],
                                name=op.f("fk_protest_letters_participant_id_participants")),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE",
                                name=op.f("fk_protest_letters_tournament_id_tournaments")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_protest_letters")),
    )
    with op.batch_alter_table("protest_letters") as batch:
        batch.create_index(batch.f("ix_protest_letters_game_id"), ["game_id"], unique=False)
        batch.create_index(batch.f("ix_protest_letters_tournament_id"), ["tournament_id"],
                           unique=False)
    connection = op.get_bind()
    rows = connection.execute(sa.select(CASES).where(CASES.c.case_type == "protest")).all()
    moved = []
    for row in rows:
        payload = _payload(row.payload)
        received = payload.get("received")
        moved.append({
            "tournament_id": row.tournament_id,
            "game_id": row.game_id,
            "participant_id": row.participant_id,
            "text": str(payload.get("text", row.letter_text or "")),
            "protest": str(payload.get("protest", "")),
            "received": dt.date.fromisoformat(received) if received else row.opened_at.date(),
            "filed_case_id": row.parent_case_id,
            "filed_at": row.closed_at,
        })
    if moved:
        op.bulk_insert(letters, moved)
        connection.execute(sa.delete(CASES).where(CASES.c.case_type == "protest"))


def downgrade() -> None:
    connection = op.get_bind()
    letters = sa.table(
        "protest_letters",
        sa.column("tournament_id", sa.Integer()), sa.column("game_id", sa.Integer()),
        sa.column("participant_id", sa.Integer()), sa.column("text", sa.Text()),
        sa.column("protest", sa.Text()), sa.column("received", sa.Date()),
        sa.column("filed_case_id", sa.Integer()), sa.column("filed_at", sa.DateTime()),
    )
    for row in connection.execute(sa.select(letters)).all():
        connection.execute(sa.insert(CASES).values(
            case_type="protest", tournament_id=row.tournament_id, game_id=row.game_id,
            participant_id=row.participant_id, parent_case_id=row.filed_case_id,
            state="filed" if row.filed_at else "received",
            deadline=row.received + dt.timedelta(days=30),
            payload={"text": row.text, "protest": row.protest,
                     "received": row.received.isoformat()},
            letter_text="", opened_at=row.filed_at or dt.datetime.combine(row.received, dt.time()),
            closed_at=row.filed_at, revision=0, version=1,
        ))
    with op.batch_alter_table("protest_letters") as batch:
        batch.drop_index(batch.f("ix_protest_letters_tournament_id"))
        batch.drop_index(batch.f("ix_protest_letters_game_id"))
    op.drop_table("protest_letters")
