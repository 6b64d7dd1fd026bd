"""Column draughts: Russian (Bashni, 8x8) and international (Lasca, 7x7), direct and reverse.

002 §4.1.4 lists these among the game types played by correspondence; the rules follow the
digest ``shared/rules/column-draughts.md`` with its recommended readings as defaults and the
alternatives as options (:mod:`notation.columns.rules`, docs/rules/columns.md).  A
:class:`ColumnPosition` satisfies :class:`notation.game_position.GamePosition`, so letters,
variants, short notation, PDN and SVG work on it as on any other game type.
"""

from notation.columns.draws import DrawReason, draw_claim, quiet_king_moves, repetitions
from notation.columns.fen import format_column_fen, parse_column_fen
from notation.columns.move import ColumnMove
from notation.columns.position import Column, ColumnError, ColumnPosition
from notation.columns.rules import (
    COLUMN_GAME_TYPES,
    ColumnRules,
    KingLanding,
    Movement,
    Numbering,
    Placement,
    Rejump,
    RuleOptionError,
    parse_rule_options,
    rule_option_choices,
)

__all__ = [
    "COLUMN_GAME_TYPES",
    "Column",
    "ColumnError",
    "ColumnMove",
    "ColumnPosition",
    "ColumnRules",
    "DrawReason",
    "KingLanding",
    "Movement",
    "Numbering",
    "Placement",
    "Rejump",
    "RuleOptionError",
    "draw_claim",
    "format_column_fen",
    "parse_column_fen",
    "parse_rule_options",
    "quiet_king_moves",
    "repetitions",
    "rule_option_choices",
]
