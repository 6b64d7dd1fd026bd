"""The referee's cases and the audit log of every state change."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from corrmail.models.base import Base, utcnow
from corrmail.models.enums import CaseType, enum_column
from corrmail.models.people import User

if TYPE_CHECKING:
    from corrmail.models.games import Game
    from corrmail.models.tournaments import Participant, Tournament


class Case(Base):
    """A matter for a referee or organizer; `state` and `payload` belong to `adjudication`."""

    __tablename__ = "cases"
    __table_args__ = (Index("ix_cases_open", "closed_at", "deadline"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_type: Mapped[CaseType] = mapped_column(enum_column(CaseType))
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), index=True)
    participant_id: Mapped[int | None] = mapped_column(ForeignKey("participants.id"))
    # A protest points at the case whose decision it contests.
    parent_case_id: Mapped[int | None] = mapped_column(ForeignKey("cases.id"))
    state: Mapped[str] = mapped_column(String(40))
    deadline: Mapped[dt.date | None]
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # The package's revision of the case (`adjudication.Case.revision`): a decision form carries
    # the revision it was rendered with, and `UPDATE … WHERE revision = …` refuses a stale one.
    revision: Mapped[int] = mapped_column(default=0)
    # The text of the letter that opened the case (a claim or protest by e-mail or web form),
    # kept beside the payload because the package does not carry foreign keys over a transition.
    letter_text: Mapped[str] = mapped_column(Text, default="")
    opened_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    opened_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[dt.datetime | None]
    # Two referees deciding at once: the second flush sees a stale version and fails.
    version: Mapped[int] = mapped_column(default=1)

    __mapper_args__ = {"version_id_col": version}

    opened_by: Mapped[User | None] = relationship()
    tournament: Mapped[Tournament] = relationship()
    game: Mapped[Game | None] = relationship()
    participant: Mapped[Participant | None] = relationship()
    parent: Mapped[Case | None] = relationship(remote_side=[id])


class ProtestLetter(Base):
    """A protest that came by e-mail and contests no case its sender may protest yet: a letter
    for the referee to file into the case it contests (002 §4.1.12, §4.3.8). Not a case: it has
    no state of its own, only whether and where it was filed."""

    __tablename__ = "protest_letters"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    participant_id: Mapped[int] = mapped_column(ForeignKey("participants.id"))
    #: The whole letter as it arrived, and the protest read out of it.
    text: Mapped[str] = mapped_column(Text, default="")
    protest: Mapped[str] = mapped_column(Text, default="")
    #: The protest's days count from the day it arrived, whenever it is filed.
    received: Mapped[dt.date]
    filed_case_id: Mapped[int | None] = mapped_column(ForeignKey("cases.id"))
    filed_at: Mapped[dt.datetime | None]

    tournament: Mapped[Tournament] = relationship()
    game: Mapped[Game] = relationship()
    participant: Mapped[Participant] = relationship()
    filed_case: Mapped[Case | None] = relationship()


class AuditEntry(Base):
    """Who changed what, when, under which rule. Append-only."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[dt.datetime] = mapped_column(default=utcnow, index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))  # None: the system
    action: Mapped[str] = mapped_column(String(80))
    entity: Mapped[str] = mapped_column(String(40))
    entity_id: Mapped[int | None]
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"), index=True)
    rule: Mapped[str | None] = mapped_column(String(40))
    detail: Mapped[dict[str, Any]] = mapped_column(default=dict)
    summary: Mapped[str] = mapped_column(Text, default="")

    user: Mapped[User | None] = relationship()
