"""Rounds paired one at a time (Swiss, team Swiss), players without a game in a round, and teams
with their board order (000 §3.17–3.18, 004)."""

from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from corrmail.models.base import Base, utcnow
from corrmail.models.enums import enum_column
from corrmail.models.tournaments import Participant, Tournament


class UnpairedKind(enum.StrEnum):
    """A player without a game in a round: the bye ``+`` or a known absence ``0`` (000 §3.18.2)."""

    BYE = "bye"
    ABSENT = "absent"


class TeamPairing(enum.StrEnum):
    """How the teams of a team event meet: all at once by the Berger table, or round by round."""

    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"


class TeamSchedule(enum.StrEnum):
    """Who plays whom inside a match: board against board (000 §3.17.3) or Scheveningen (004)."""

    BOARDS = "boards"
    SCHEVENINGEN = "scheveningen"
    SEMI_SCHEVENINGEN = "semi_scheveningen"


class RoundRules(Base):
    """The regulations' choices for pairing rounds, beside the tournament's own columns."""

    __tablename__ = "round_rules"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    # Correspondence Swiss pairs a round once every game of the previous one is finished; the
    # regulations may allow pairing earlier (docs/rounds.md).
    pair_before_finished: Mapped[bool] = mapped_column(default=False)
    team_pairing: Mapped[TeamPairing] = mapped_column(
        enum_column(TeamPairing), default=TeamPairing.ROUND_ROBIN
    )
    # The pairing program of a team Swiss (scoring.pairing.PairingSystem value).
    team_pairing_system: Mapped[str | None] = mapped_column(String(40))
    team_schedule: Mapped[TeamSchedule] = mapped_column(
        enum_column(TeamSchedule), default=TeamSchedule.BOARDS
    )

    tournament: Mapped[Tournament] = relationship()


class PairedRound(Base):
    """One round's draw: previewed (``published_at`` empty, replaced by the next preview) or
    published (immutable, 004). The seed and the absentees make the draw reproducible."""

    __tablename__ = "paired_rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int]
    system: Mapped[str] = mapped_column(String(40))
    seed: Mapped[int]
    # Start numbers known to be absent this round (not paired, 0).
    absent: Mapped[list[int]] = mapped_column(JSON, default=list)
    # The draw as `scoring` returned it (`Draw.as_dict()` / `TeamDraw.as_dict()`).
    draw: Mapped[dict[str, Any]] = mapped_column(default=dict)
    paired_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    paired_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    published_at: Mapped[dt.datetime | None]
    # The round's games start on this date (the publication date, not before the tournament's
    # start): a Swiss round published months after the first one starts its clocks then.
    starts_on: Mapped[dt.date | None]
    published_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))

    tournament: Mapped[Tournament] = relationship()

    @property
    def published(self) -> bool:
        return self.published_at is not None


class UnpairedEntry(Base):
    """A participant without a game in a published round."""

    __tablename__ = "unpaired_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "participant_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int]
    participant_id: Mapped[int] = mapped_column(ForeignKey("participants.id"))
    kind: Mapped[UnpairedKind] = mapped_column(enum_column(UnpairedKind))

    participant: Mapped[Participant] = relationship()


class Team(Base):
    """A team of a team event; ``number`` is its classification (the order it was entered)."""

    __tablename__ = "teams"
    __table_args__ = (
        UniqueConstraint("tournament_id", "name"),
        UniqueConstraint("tournament_id", "number"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int]
    name: Mapped[str] = mapped_column(String(200))

    boards: Mapped[list[TeamBoard]] = relationship(
        back_populates="team", order_by="TeamBoard.board", cascade="all, delete-orphan"
    )


class TeamBoard(Base):
    """A team member on his board, board one first (000 §3.17.2–3.17.3)."""

    __tablename__ = "team_boards"
    __table_args__ = (UniqueConstraint("participant_id"),)

    team_id: Mapped[int] = mapped_column(
        ForeignKey("teams.id", ondelete="CASCADE"), primary_key=True
    )
    board: Mapped[int] = mapped_column(primary_key=True)
    participant_id: Mapped[int] = mapped_column(ForeignKey("participants.id"))

    team: Mapped[Team] = relationship(back_populates="boards")
    participant: Mapped[Participant] = relationship()
