"""Stored vocabularies, named after the glossary (`shared/GLOSSARY.md`).

Columns keep the values as short strings without a CHECK constraint, so a later migration can add
a member without rebuilding tables; the ORM still refuses unknown strings.
"""

from __future__ import annotations

import enum
from typing import Any

from sqlalchemy import Enum


class Role(enum.StrEnum):
    """002 §4.1.5–4.1.8: who may do what."""

    ORGANIZER = "organizer"
    REFEREE = "referee"
    STEWARD = "steward"
    PLAYER = "player"


class Channel(enum.StrEnum):
    """002 §4.1.1: how letters travel."""

    POST = "post"
    EMAIL = "email"
    PHONE = "phone"
    WEB = "web"


class TournamentChannel(enum.StrEnum):
    POST = "post"
    EMAIL = "email"
    PHONE = "phone"  # 002 §4.1.1 в: moves given by telephone, entered by the steward
    MIXED = "mixed"


class GameType(enum.StrEnum):
    """002 §4.1.4: the kinds of draughts played by correspondence."""

    RUSSIAN = "russian"
    INTERNATIONAL = "international"
    COLUMN_RUSSIAN = "column_russian"
    COLUMN_RUSSIAN_GIVEAWAY = "column_russian_giveaway"
    COLUMN_INTERNATIONAL = "column_international"
    COLUMN_INTERNATIONAL_GIVEAWAY = "column_international_giveaway"
    GIVEAWAY = "giveaway"


class TournamentSystem(enum.StrEnum):
    ROUND_ROBIN_SINGLE = "round_robin_single"
    ROUND_ROBIN_DOUBLE = "round_robin_double"
    SWISS = "swiss"
    TEAM = "team"


#: Systems whose rounds may be published one at a time (a Swiss; a team event paired as one):
#: only they have byes, absences and rounds starting on their own dates.
ROUND_BY_ROUND_SYSTEMS = frozenset({TournamentSystem.SWISS, TournamentSystem.TEAM})
#: Systems drawn whole from the Berger table before play: their field is fixed at the draw.
ROUND_ROBIN_SYSTEMS = frozenset({TournamentSystem.ROUND_ROBIN_SINGLE,
                                 TournamentSystem.ROUND_ROBIN_DOUBLE})


class TournamentStatus(enum.StrEnum):
    DRAFT = "draft"
    RUNNING = "running"
    ADJUDICATION = "adjudication"
    FINISHED = "finished"


class GameState(enum.StrEnum):
    NOT_STARTED = "not_started"
    IN_PLAY = "in_play"
    SUSPENDED = "suspended"
    ADJUDICATION = "adjudication"
    FINISHED = "finished"


class GameResult(enum.StrEnum):
    WHITE_WIN = "white_win"
    BLACK_WIN = "black_win"
    DRAW = "draw"
    DOUBLE_LOSS = "double_loss"
    ANNULLED = "annulled"


class ResultKind(enum.StrEnum):
    """How a result came about; standings mark all but PLAYED."""

    PLAYED = "played"
    OVERSTEP = "overstep"
    FORFEIT = "forfeit"
    ADJUDICATED = "adjudicated"
    DECIDED = "decided"  # a referee's decision without adjudication, e.g. 002 §4.5.3


class OutboxStatus(enum.StrEnum):
    PENDING = "pending"
    SENT = "sent"
    CAPTURED = "captured"
    FAILED = "failed"


class InboundStatus(enum.StrEnum):
    STORED = "stored"
    PROCESSED = "processed"
    IGNORED = "ignored"
    REFUSED = "refused"
    FAILED = "failed"


class CaseType(enum.StrEnum):
    OVERSTEP_CLAIM = "overstep_claim"
    ADJUDICATION = "adjudication"
    GAME_RECORD = "game_record"
    WITHDRAWAL = "withdrawal"
    SANCTION = "sanction"
    SPECIAL_BREAK = "special_break"
    DISPUTE = "dispute"


class BreakKind(enum.StrEnum):
    REGULAR = "regular"
    SPECIAL = "special"


def enum_column(enum_class: type[enum.StrEnum]) -> Enum:
    """A VARCHAR column holding the enum's values (not its member names)."""
    values: Any = lambda members: [member.value for member in members]  # noqa: E731
    return Enum(
        enum_class,
        native_enum=False,
        create_constraint=False,
        length=32,
        values_callable=values,
        validate_strings=True,
    )
