"""What the letter-level code needs of a position, whatever the game type.

:class:`notation.position.Position` (Russian, giveaway, 100-square) and
:class:`notation.columns.ColumnPosition` (column draughts) both satisfy :class:`GamePosition`,
so reading letters (002 §4.2.10), forced moves (§4.2.4), conditional variants (§4.2.7,
§4.2.12–13), short notation (§4.5.1), PDN and SVG work on every game type of 002 §4.1.4.
:func:`initial_position` and :func:`position_from_fen` pick the right class for a game type.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from notation.columns.fen import format_column_fen, parse_column_fen
from notation.columns.position import ColumnPosition
from notation.columns.rules import ColumnRules, RuleOptionError
from notation.fen import format_fen, parse_fen
from notation.geometry import Geometry, Square
from notation.move import Move
from notation.position import Outcome, Piece, Position
from notation.rules import Color, GameType


class GamePosition(Protocol):
    """A position of any game type, as the letter-level code sees it."""

    @property
    def geometry(self) -> Geometry: ...

    @property
    def game_type(self) -> GameType: ...

    @property
    def turn(self) -> Color: ...

    def piece_at(self, square: Square) -> Piece | None:
        """The piece that moves from ``square`` (a column's top piece)."""
        ...

    def pieces(self) -> dict[Square, Piece]: ...

    def legal_routes(self) -> list[Move]: ...

    def routes_between(self, start: Square | None, end: Square | None) -> list[Move]:
        """Legal routes from ``start`` to ``end`` (None: any square)."""
        ...

    def legal_moves(self) -> list[Move]: ...

    def moves_from(self, square: Square) -> list[Move]: ...

    def capture_compulsory(self) -> bool: ...

    def forced_move(self) -> Move | None: ...

    def play(self, move: Move) -> GamePosition: ...

    def outcome(self) -> Outcome | None: ...

    def perft(self, depth: int, *, distinct: bool = True) -> int: ...


def initial_position(game_type: GameType, options: Mapping[str, str] | None = None) -> GamePosition:
    """The starting position of ``game_type``; ``options`` are column-draughts rule options."""
    if game_type.is_column:
        return ColumnPosition.initial(ColumnRules.of(game_type, options))
    _refuse_options(game_type, options)
    return Position.initial(game_type)


def position_from_fen(
    text: str, game_type: GameType, options: Mapping[str, str] | None = None
) -> GamePosition:
    """The position a FEN describes (stacks allowed for column games); raises ``FenError``."""
    if game_type.is_column:
        return parse_column_fen(text, ColumnRules.of(game_type, options))
    _refuse_options(game_type, options)
    return parse_fen(text, game_type)


def position_fen(position: GamePosition) -> str:
    """FEN of any position: PDN FEN, with stacks for column games."""
    if isinstance(position, ColumnPosition):
        return format_column_fen(position)
    if isinstance(position, Position):
        return format_fen(position)
    raise TypeError(f"no FEN for {type(position).__name__}")


def _refuse_options(game_type: GameType, options: Mapping[str, str] | None) -> None:
    if options:
        text = ",".join(f"{k}={v}" for k, v in options.items())
        raise RuleOptionError(text, f"{game_type.value} has no rule options")
