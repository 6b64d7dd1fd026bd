"""What a transition asks the service to do, as data.

A transition never touches the world: it returns the new case plus a tuple of effects. The service
carries them out in the same database transaction that stores the case (results, penalties,
outbox letters, audit log). Every effect cites the rule that causes it, so the audit log can.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import ClassVar

from adjudication.outcomes import GameOutcome, Side


class Addressee(StrEnum):
    """Who a letter goes to. ``white``/``black`` are resolved through the effect's game."""

    WHITE = "white"
    BLACK = "black"
    PLAYER = "player"
    """The player a player-level case is about (withdrawal, sanction, special break)."""
    PARTNERS = "partners"
    """Every partner of that player with an unfinished game (002 §4.4.2)."""
    STEWARD = "steward"
    REFEREE = "referee"
    ORGANIZER = "organizer"

    @classmethod
    def of(cls, side: Side) -> Addressee:
        return cls.WHITE if side is Side.WHITE else cls.BLACK


class LetterTemplate(StrEnum):
    """Template keys of the letters the referee's decisions produce; the mailer owns the texts."""

    OVERSTEP_CLAIM_OPENED = "overstep.claim_opened"
    OVERSTEP_CONFIRMED = "overstep.confirmed"
    OVERSTEP_REJECTED = "overstep.rejected"
    OVERSTEP_NOT_APPROVED = "overstep.not_approved"
    OVERSTEP_HELD_MOVE = "overstep.held_move"
    ADJUDICATION_REQUEST = "adjudication.request"
    ADJUDICATION_RESULT = "adjudication.result"
    ADJUDICATION_RESULT_DIFFERS = "adjudication.result_differs"
    GAME_RECORD_MISSING = "game_record.missing"
    GAME_RECORD_BOTH_MINUS = "game_record.both_minus"
    WITHDRAWAL_DECISION = "withdrawal.decision"
    BAN = "withdrawal.ban"
    SANCTION_IMPOSED = "sanction.imposed"
    SANCTION_REQUESTED = "sanction.requested"
    SANCTION_REFUSED = "sanction.refused"
    EXCLUSION_REQUEST = "sanction.exclusion_request"
    BREAK_REQUESTED = "special_break.requested"
    BREAK_GRANTED = "special_break.granted"
    BREAK_REFUSED = "special_break.refused"
    DISPUTE_DECISION = "dispute.decision"
    PROTEST_RECEIVED = "protest.received"
    PROTEST_DECISION = "protest.decision"


@dataclass(frozen=True)
class SendLetter:
    """Queue a letter in the outbox. ``game`` is needed to resolve ``white``/``black``."""

    kind: ClassVar[str] = "send_letter"
    to: Addressee
    template: LetterTemplate
    rule: str
    game: str | None = None


@dataclass(frozen=True)
class RecordResult:
    """Set the game's result (replacing any previous one) and finish the game."""

    kind: ClassVar[str] = "record_result"
    game: str
    outcome: GameOutcome
    rule: str


@dataclass(frozen=True)
class ClearResult:
    """Take back a result an overturned decision had recorded; the game is in play again."""

    kind: ClassVar[str] = "clear_result"
    game: str
    rule: str


@dataclass(frozen=True)
class SuspendGame:
    """Stop the clocks of the game until the case is decided (002 §4.3.6)."""

    kind: ClassVar[str] = "suspend_game"
    game: str
    rule: str


@dataclass(frozen=True)
class ResumeGame:
    """Play continues; the clocks run again from the given date."""

    kind: ClassVar[str] = "resume_game"
    game: str
    on: date
    rule: str


@dataclass(frozen=True)
class ForwardHeldMove:
    """Send the claimant's held reply move to the player it was kept from (002 §4.3.7)."""

    kind: ClassVar[str] = "forward_held_move"
    game: str
    to: Side
    rule: str


@dataclass(frozen=True)
class ImposePenalty:
    """Add penalty days to a player's think time in a game (002 §4.3.7)."""

    kind: ClassVar[str] = "impose_penalty"
    game: str
    side: Side
    days: int
    rule: str


@dataclass(frozen=True)
class RevokePenalty:
    """Remove penalty days an overturned decision had imposed."""

    kind: ClassVar[str] = "revoke_penalty"
    game: str
    side: Side
    days: int
    rule: str


@dataclass(frozen=True)
class OpenAdjudication:
    """Open an adjudication case for the game (002 §4.5.3, 000 §3.14.4)."""

    kind: ClassVar[str] = "open_adjudication"
    game: str
    rule: str


@dataclass(frozen=True)
class GenerateGameRecord:
    """Write the short-notation record of an e-mail game for the steward (002 §4.5.1)."""

    kind: ClassVar[str] = "generate_game_record"
    game: str
    rule: str


@dataclass(frozen=True)
class RecordSanction:
    """Enter a sanction in the player's file and the tournament report (002 §4.1.9–4.1.10)."""

    kind: ClassVar[str] = "record_sanction"
    player: str
    sanction: str
    rules_violated: tuple[str, ...]
    rule: str


@dataclass(frozen=True)
class LiftSanction:
    """Strike a sanction a higher instance lifted; withheld bulletins are sent again."""

    kind: ClassVar[str] = "lift_sanction"
    player: str
    sanction: str
    rule: str


@dataclass(frozen=True)
class WithholdBulletins:
    """Stop sending the player the current bulletins (002 §4.1.9, §4.5.1)."""

    kind: ClassVar[str] = "withhold_bulletins"
    player: str
    rule: str


@dataclass(frozen=True)
class RecordBan:
    """Bar the player from the organizer's tournaments until ``until`` inclusive (002 §4.1.14)."""

    kind: ClassVar[str] = "record_ban"
    player: str
    until: date
    rule: str


@dataclass(frozen=True)
class GrantBreak:
    """Count a break from ``start`` to ``end`` inclusive in all the player's games (002 §4.4.5).

    ``grant`` says which of the two things the referee granted, as the time chart reads it:
    ``late_notice`` (a late-announced break counted: still the player's break of the year,
    002 §4.4.1) or ``extra`` (an additional break beyond those norms).
    """

    kind: ClassVar[str] = "grant_break"
    player: str
    start: date
    end: date
    rule: str
    grant: str = "late_notice"


@dataclass(frozen=True)
class RevokeBreak:
    """Take back a break an overturned decision had granted."""

    kind: ClassVar[str] = "revoke_break"
    player: str
    start: date
    end: date
    rule: str


Effect = (
    SendLetter
    | RecordResult
    | ClearResult
    | SuspendGame
    | ResumeGame
    | ForwardHeldMove
    | ImposePenalty
    | RevokePenalty
    | OpenAdjudication
    | GenerateGameRecord
    | RecordSanction
    | LiftSanction
    | WithholdBulletins
    | RecordBan
    | GrantBreak
    | RevokeBreak
)

EFFECT_TYPES: tuple[type[Effect], ...] = (
    SendLetter,
    RecordResult,
    ClearResult,
    SuspendGame,
    ResumeGame,
    ForwardHeldMove,
    ImposePenalty,
    RevokePenalty,
    OpenAdjudication,
    GenerateGameRecord,
    RecordSanction,
    LiftSanction,
    WithholdBulletins,
    RecordBan,
    GrantBreak,
    RevokeBreak,
)
