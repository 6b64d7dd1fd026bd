"""Tournaments, their entries (participants), officials and players' breaks."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import TYPE_CHECKING

from sqlalchemy import JSON, ForeignKey, Numeric, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from corrmail.clock import FEDERATION_TIME_ZONE
from corrmail.models.base import Base, utcnow
from corrmail.models.enums import (
    BreakKind,
    Channel,
    GameType,
    Role,
    TournamentChannel,
    TournamentStatus,
    TournamentSystem,
    enum_column,
)
from corrmail.models.people import Player, User

if TYPE_CHECKING:
    from corrmail.models.games import Game, Letter

POINTS = Numeric(4, 1, asdecimal=True)



class TournamentNotFound(LookupError):
    """No tournament has the code a command, page or paper was given."""

    def __init__(self, code: str) -> None:
        super().__init__(f"no tournament {code!r}")
        self.code = code

class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(40), unique=True)  # шифр турнира
    title: Mapped[str] = mapped_column(String(300))
    game_type: Mapped[GameType] = mapped_column(enum_column(GameType))
    # Column draughts' rule options (`notation.columns.rule_option_choices()`, e.g.
    # {"rejump": "allowed"}); None plays the rules' defaults. Other game types have none.
    rule_options: Mapped[dict[str, str] | None] = mapped_column(JSON)
    system: Mapped[TournamentSystem] = mapped_column(enum_column(TournamentSystem))
    # Swiss pairing system of 000 §3.14–3.18 (a name chosen by the scoring package); None otherwise.
    pairing_system: Mapped[str | None] = mapped_column(String(40))
    channel: Mapped[TournamentChannel] = mapped_column(enum_column(TournamentChannel))
    start_date: Mapped[dt.date]
    end_date: Mapped[dt.date]
    # 002 §4.3.1: think time, by default 50 days per 10 moves.
    time_control_days: Mapped[int] = mapped_column(default=50)
    time_control_moves: Mapped[int] = mapped_column(default=10)
    # 000 §3.x: 1/½/0 or FMJD's 2/1/0.
    points_win: Mapped[Decimal] = mapped_column(POINTS, default=Decimal(1))
    points_draw: Mapped[Decimal] = mapped_column(POINTS, default=Decimal("0.5"))
    points_loss: Mapped[Decimal] = mapped_column(POINTS, default=Decimal(0))
    # Tiebreak names as in the glossary (`buchholz`, `sonneborn_berger`, ...), in order of use.
    tiebreak_order: Mapped[list[str]] = mapped_column(default=list)
    # A recorded play-off, groups in finishing order (000 §3.16.2, §3.17.6; corrmail.standings.playoff).
    playoff: Mapped[list[list[int]] | None] = mapped_column(JSON)
    team_playoff: Mapped[list[list[str]] | None] = mapped_column(JSON)
    # 002 §4.4.1: one break of at most 30 days per calendar year, unless the regulations differ.
    breaks_per_year: Mapped[int] = mapped_column(default=1)
    break_max_days: Mapped[int] = mapped_column(default=30)
    time_zone: Mapped[str] = mapped_column(String(64), default=FEDERATION_TIME_ZONE)
    status: Mapped[TournamentStatus] = mapped_column(
        enum_column(TournamentStatus), default=TournamentStatus.DRAFT
    )
    regulations: Mapped[str | None] = mapped_column(Text)
    # Closed (002 §4.1.7): the day, and the final table as it then stood, never recomputed.
    finished_on: Mapped[dt.date | None]
    final_table: Mapped[dict[str, object] | None] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    participants: Mapped[list[Participant]] = relationship(
        back_populates="tournament", order_by="Participant.start_number"
    )
    officials: Mapped[list[TournamentOfficial]] = relationship(back_populates="tournament")
    games: Mapped[list[Game]] = relationship(
        back_populates="tournament", order_by="(Game.round, Game.id)"
    )

    def __repr__(self) -> str:
        return f"<Tournament {self.code!r}>"


class TournamentOfficial(Base):
    """A referee or steward serving one tournament (002 §4.1.5–4.1.8)."""

    __tablename__ = "tournament_officials"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    role: Mapped[Role] = mapped_column(enum_column(Role), primary_key=True)

    tournament: Mapped[Tournament] = relationship(back_populates="officials")
    user: Mapped[User] = relationship()


class Participant(Base):
    """A player's entry in one tournament, with the data as of that tournament."""

    __tablename__ = "participants"
    __table_args__ = (
        UniqueConstraint("tournament_id", "player_id"),
        UniqueConstraint("tournament_id", "start_number"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    start_number: Mapped[int | None]
    rating: Mapped[int | None]
    team: Mapped[str | None] = mapped_column(String(200))
    start_sheet_received: Mapped[dt.date | None]  # 002 §4.3.2: a late start sheet moves the start
    # How this player plays (002 §4.1.1); None follows the tournament's channel.
    channel: Mapped[Channel | None] = mapped_column(enum_column(Channel))
    # The day his start sheet was e-mailed or posted (002 §4.3.2); None: not yet sent.
    start_sheet_sent_on: Mapped[dt.date | None]
    withdrawn_on: Mapped[dt.date | None]  # 002 §4.1.14, 000 §3.14.3
    withdrawal_reason: Mapped[str | None] = mapped_column(Text)

    tournament: Mapped[Tournament] = relationship(back_populates="participants")
    player: Mapped[Player] = relationship(back_populates="entries")
    breaks: Mapped[list[Break]] = relationship(
        back_populates="participant", order_by="Break.start_date"
    )

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_on is not None

    def __repr__(self) -> str:
        return f"<Participant #{self.start_number} of tournament {self.tournament_id}>"


class Break(Base):
    """002 §4.4: «беру перерыв с … по …», both dates included."""

    __tablename__ = "breaks"

    id: Mapped[int] = mapped_column(primary_key=True)
    participant_id: Mapped[int] = mapped_column(
        ForeignKey("participants.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[BreakKind] = mapped_column(enum_column(BreakKind), default=BreakKind.REGULAR)
    start_date: Mapped[dt.date]
    end_date: Mapped[dt.date]
    announced_on: Mapped[dt.date | None]  # postmark of the announcement (002 §4.4.2)
    letter_id: Mapped[int | None] = mapped_column(ForeignKey("letters.id"))
    granted_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))  # 002 §4.4.5
    # 002 §4.4.5, on a special break: "late_notice" (a late-announced break counted, still the
    # break of the year of 002 §4.4.1) or "extra" (beyond those norms); timekeeping.RefereeGrant.
    referee_grant: Mapped[str | None] = mapped_column(String(16))
    entered_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    entered_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

    participant: Mapped[Participant] = relationship(back_populates="breaks")
    letter: Mapped[Letter | None] = relationship()
