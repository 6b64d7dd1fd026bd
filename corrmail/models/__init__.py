"""The database schema. Import models from here; migrations live in `corrmail/migrations`."""

from corrmail.models import ledger_guard as _ledger_guard  # noqa: F401  (installs the guard)
from corrmail.models.base import NAMING_CONVENTION, Base, UTCDateTime, utcnow
from corrmail.models.bulletins import BulletinDelivery, BulletinIssue, BulletinSchedule
from corrmail.models.cases import AuditEntry, Case, ProtestLetter
from corrmail.models.enums import (
    BreakKind,
    CaseType,
    Channel,
    GameResult,
    GameState,
    GameType,
    InboundStatus,
    OutboxStatus,
    ResultKind,
    Role,
    TournamentChannel,
    TournamentStatus,
    TournamentSystem,
)
from corrmail.models.game_imports import GameImport
from corrmail.models.games import Forwarding, Game, Letter, Penalty
from corrmail.models.ledger_guard import AppendOnlyViolation
from corrmail.models.mail import ImapFolderCursor, InboundMessage, OutboxMessage
from corrmail.models.people import ApiToken, Player, User, UserRole
from corrmail.models.rounds import (
    PairedRound,
    RoundRules,
    Team,
    TeamBoard,
    TeamPairing,
    TeamSchedule,
    UnpairedEntry,
    UnpairedKind,
)
from corrmail.models.tournaments import (
    Break,
    Participant,
    Tournament,
    TournamentNotFound,
    TournamentOfficial,
)

__all__ = [
    "NAMING_CONVENTION",
    "ApiToken",
    "GameImport",
    "AppendOnlyViolation",
    "AuditEntry",
    "ProtestLetter",
    "Base",
    "TournamentNotFound",
    "Break",
    "BreakKind",
    "BulletinDelivery",
    "BulletinIssue",
    "BulletinSchedule",
    "Case",
    "CaseType",
    "Channel",
    "Forwarding",
    "Game",
    "GameResult",
    "GameState",
    "GameType",
    "ImapFolderCursor",
    "InboundMessage",
    "InboundStatus",
    "Letter",
    "OutboxMessage",
    "OutboxStatus",
    "Participant",
    "Penalty",
    "Player",
    "ResultKind",
    "Role",
    "Tournament",
    "TournamentChannel",
    "TournamentOfficial",
    "TournamentStatus",
    "TournamentSystem",
    "UTCDateTime",
    "User",
    "UserRole",
    "utcnow",
    "PairedRound",
    "RoundRules",
    "Team",
    "TeamBoard",
    "TeamPairing",
    "TeamSchedule",
    "UnpairedEntry",
    "UnpairedKind",
]

# The stored game state (derived from the ledger) and the session listeners keeping it current.
import corrmail.games.state  # noqa: E402,F401
