"""Swiss pairing by the four programs of ``000 §3.18`` under the principles of ``002`` and ``004``.

>>> from scoring.pairing import entrants_before, pair_round
>>> draw = pair_round(entrants_before(tournament, 5), 5, "coefficients", seed=1)  # doctest: +SKIP

See ``docs/pairing.md`` for the API, the command line and the rule readings.
"""

from scoring.pairing.checker import (
    CheckReport,
    RoundDifference,
    Violation,
    check_round,
    check_tournament,
    compare_round,
)
from scoring.pairing.engine import lot_for, pair_round, parse_system, validate_entrants
from scoring.pairing.errors import (
    EntrantError,
    NoLegalPairingError,
    PairingError,
    RoundNotReadyError,
    UnknownSystemError,
)
from scoring.pairing.generate import Generated, classify, generate_event
from scoring.pairing.history import draw_as_round, entrants_before, met_before
from scoring.pairing.model import Draw, Entrant, Float, FloatDirection, Pair, PairingSystem
from scoring.pairing.redraw import redraw
from scoring.pairing.teams import TeamDraw, TeamPair, pair_teams, team_entrants_before

__all__ = [
    "CheckReport",
    "Draw",
    "Entrant",
    "EntrantError",
    "Float",
    "FloatDirection",
    "Generated",
    "NoLegalPairingError",
    "Pair",
    "PairingError",
    "PairingSystem",
    "RoundDifference",
    "RoundNotReadyError",
    "TeamDraw",
    "TeamPair",
    "UnknownSystemError",
    "Violation",
    "check_round",
    "check_tournament",
    "classify",
    "compare_round",
    "draw_as_round",
    "entrants_before",
    "generate_event",
    "lot_for",
    "met_before",
    "pair_round",
    "pair_teams",
    "redraw",
    "parse_system",
    "team_entrants_before",
    "validate_entrants",
]
