"""scoring: standings, tiebreaks, round-robin tables and file formats for draughts tournaments.

Pure Python: plain dataclasses in (:mod:`scoring.model`), results out. See ``docs/scoring.md``.
"""

from scoring.errors import ScoringError
from scoring.model import (
    Colour,
    Game,
    Player,
    PlayerRound,
    Team,
    Tournament,
    TournamentSystem,
    Unpaired,
    Withdrawal,
    WithdrawalDecision,
)
from scoring.points import FMJD, PointSystem
from scoring.result import GameResult, Result

__all__ = [
    "FMJD",
    "Colour",
    "Game",
    "GameResult",
    "Player",
    "PlayerRound",
    "PointSystem",
    "Result",
    "ScoringError",
    "Team",
    "Tournament",
    "TournamentSystem",
    "Unpaired",
    "Withdrawal",
    "WithdrawalDecision",
]
