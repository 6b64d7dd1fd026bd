"""Shared helpers (imported by name thanks to conftest.py)."""

from __future__ import annotations

from notation.columns.fen import format_column_fen, parse_column_fen
from notation.columns.position import ColumnPosition
from notation.columns.rules import ColumnRules
from notation.full import format_full
from notation.rules import GameType

BASHNI = GameType.COLUMN_RUSSIAN
LASCA = GameType.COLUMN_INTERNATIONAL

# Each game's default and each rule option (docs/rules/columns.md).
PROFILES = [
    (GameType.COLUMN_RUSSIAN, {}),
    (GameType.COLUMN_RUSSIAN, {"rejump": "allowed"}),
    (GameType.COLUMN_RUSSIAN, {"placement": "immediate"}),
    (GameType.COLUMN_RUSSIAN, {"rejump": "allowed", "placement": "immediate"}),
    (GameType.COLUMN_RUSSIAN, {"king-landing": "free"}),
    (GameType.COLUMN_INTERNATIONAL, {}),
    (GameType.COLUMN_INTERNATIONAL, {"rejump": "allowed"}),
    (GameType.COLUMN_INTERNATIONAL, {"moves": "bashni"}),
    (GameType.COLUMN_INTERNATIONAL, {"moves": "bashni", "placement": "immediate"}),
    (GameType.COLUMN_INTERNATIONAL_GIVEAWAY, {"numbering": "g1"}),
]


def position(fen: str, game: GameType = BASHNI, **options: str) -> ColumnPosition:
    named = {name.replace("_", "-"): value for name, value in options.items()}
    return parse_column_fen(fen, ColumnRules.of(game, named))


def moves(fen: str, game: GameType = BASHNI, **options: str) -> dict[str, str]:
    """Every legal move in full notation, with the FEN of the position it leads to."""
    start = position(fen, game, **options)
    return {format_full(start, m): format_column_fen(start.play(m)) for m in start.legal_moves()}
