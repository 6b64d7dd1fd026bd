"""Column-draughts positions: a stack of pieces per square, owned and moved by its top piece.

:class:`ColumnPosition` offers the same public face as :class:`notation.position.Position`
(legal moves, forced move, play, outcome, perft), so the letter-level machinery of
:mod:`notation.letters`, :mod:`notation.variants`, :mod:`notation.full` and
:mod:`notation.short` works on column games unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from notation.columns.engine import Board, ColumnGenerator, RawColumnMove, column_generator
from notation.columns.move import ColumnMove
from notation.columns.rules import ColumnRules
from notation.geometry import Geometry, Square
from notation.move import Move
from notation.position import IllegalMoveError, Outcome, Piece
from notation.rules import Color, GameType, Goal

Column = tuple[Piece, ...]
"""The pieces on one square, bottom to top."""

# Digest §1: a column is an own-colour segment on top of an enemy segment, never W-B-W.
_WELL_FORMED = re.compile(r"[wW]*[bB]*|[bB]*[wW]*")
_SYMBOLS = {"w": Piece(Color.WHITE), "W": Piece(Color.WHITE, True),
            "b": Piece(Color.BLACK), "B": Piece(Color.BLACK, True)}


def column_code(column: Sequence[Piece]) -> str:
    """``(Piece(BLACK), Piece(WHITE, king=True))`` as ``"bW"`` (bottom to top)."""
    return "".join(piece.symbol for piece in column)


def column_of(code: str) -> Column:
    """``"bW"`` as pieces, bottom to top; raises :class:`ColumnError` for a malformed column."""
    check_column_code(code)
    return tuple(_SYMBOLS[symbol] for symbol in code)


def check_column_code(code: str) -> None:
    if any(symbol not in _SYMBOLS for symbol in code):
        raise ColumnError(code, "pieces are written w, b (men) and W, B (kings)")
    if not _WELL_FORMED.fullmatch(code):
        raise ColumnError(code, "a column is one colour on top of the other, never alternating")


class ColumnError(ValueError):
    """A column that cannot stand on the board (column-draughts digest §1)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{reason}: {code!r} (column-draughts digest §1)")
        self.code = code


@dataclass(frozen=True)
class ColumnPosition:
    """An immutable column-draughts position: a column code per square and the side to move.

    ``board`` holds, per playing square (dense index, a1 = 0), the pieces bottom to top as
    ``w``/``b`` (men), ``W``/``B`` (kings), ``""`` for an empty square; use
    :meth:`column_at`, :meth:`columns` and :meth:`from_columns` rather than the codes.
    """

    rules: ColumnRules
    board: Board
    turn: Color = Color.WHITE
    _cache: dict[str, object] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        if len(self.board) != self.geometry.count:
            raise ValueError(
                f"a {self.geometry.size}x{self.geometry.size} board has {self.geometry.count} "
                f"playing squares, not {len(self.board)}"
            )
        for code in self.board:
            check_column_code(code)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def initial(cls, game: GameType | ColumnRules) -> ColumnPosition:
        """White's men on the first three rows, Black's on the last three, White to move.

        On 8x8 that is a1–h3 against a6–h8 (digest §2); on Lasca's 7x7 board squares 1–11
        against 15–25 (digest §4).
        """
        rules = ColumnRules.default(game) if isinstance(game, GameType) else game
        geometry = rules.geometry
        rows = rules.men_rows
        board = tuple(
            "w" if geometry.row(s) < rows else "b" if geometry.row(s) >= geometry.size - rows else ""
            for s in geometry.squares
        )
        return cls(rules, board, Color.WHITE)

    @classmethod
    def from_columns(
        cls,
        game: GameType | ColumnRules,
        columns: Mapping[Square, Sequence[Piece] | str],
        turn: Color = Color.WHITE,
    ) -> ColumnPosition:
        """A position from ``{square: column}``; a column is pieces or a code, bottom to top."""
        rules = ColumnRules.default(game) if isinstance(game, GameType) else game
        board = [""] * rules.geometry.count
        for square, column in columns.items():
            board[square] = column if isinstance(column, str) else column_code(column)
        return cls(rules, tuple(board), turn)

    # -- inspection ---------------------------------------------------------------------------

    @property
    def geometry(self) -> Geometry:
        return self.rules.geometry

    @property
    def game_type(self) -> GameType:
        return self.rules.game_type

    def column_at(self, square: Square) -> Column:
        """The pieces on ``square``, bottom to top (empty tuple for an empty square)."""
        return tuple(_SYMBOLS[symbol] for symbol in self.board[square])

    def columns(self) -> dict[Square, Column]:
        return {sq: self.column_at(sq) for sq, code in enumerate(self.board) if code}

    def piece_at(self, square: Square) -> Piece | None:
        """The top piece, which owns the column and decides how it moves (digest §1)."""
        code = self.board[square]
        return _SYMBOLS[code[-1]] if code else None

    def pieces(self) -> dict[Square, Piece]:
        """The top piece of every column."""
        return {sq: _SYMBOLS[code[-1]] for sq, code in enumerate(self.board) if code}

    def piece_count(self) -> dict[Piece, int]:
        """How many of each kind of piece are on the board, prisoners included."""
        counts: dict[Piece, int] = {}
        for code in self.board:
            for symbol in code:
                counts[_SYMBOLS[symbol]] = counts.get(_SYMBOLS[symbol], 0) + 1
        return counts

    # -- moves --------------------------------------------------------------------------------

    @property
    def _generator(self) -> ColumnGenerator:
        return column_generator(self.rules)

    def _entries(self) -> list[tuple[ColumnMove, RawColumnMove]]:
        cached = self._cache.get("entries")
        if cached is None:
            raws = self._generator.legal_moves(self.board, self.turn is Color.WHITE)
            cached = [(self._to_move(raw), raw) for raw in raws]
            self._cache["entries"] = cached
        assert isinstance(cached, list)
        return cached

    def _to_move(self, raw: RawColumnMove) -> ColumnMove:
        taken: dict[Square, int] = {}
        prisoners = []
        for square in raw.captures:
            depth = taken.get(square, 0) + 1
            taken[square] = depth
            prisoners.append(_SYMBOLS[self.board[square][-depth]])
        return ColumnMove(
            start=raw.route[0],
            end=raw.route[-1],
            captured=frozenset(raw.captures),
            route=raw.route,
            capture_order=raw.captures,
            promotes=raw.promotes,
            prisoners=tuple(prisoners),
        )

    def legal_routes(self) -> list[Move]:
        """Every legal route, several per move where routes share an effect."""
        return [move for move, _ in self._entries()]

    def routes_between(self, start: Square | None, end: Square | None) -> list[Move]:
        """Legal routes from ``start`` to ``end`` (None: any square)."""
        return [
            move
            for move in self.legal_routes()
            if (start is None or move.start == start) and (end is None or move.end == end)
        ]

    def legal_moves(self) -> list[Move]:
        """Legal moves, one per effect (the first route found represents it), in a stable order."""
        cached = self._cache.get("moves")
        if cached is None:
            distinct: dict[Move, Move] = {}
            for move in self.legal_routes():
                distinct.setdefault(move, move)
            cached = sorted(distinct, key=lambda m: (m.start, m.end, m.route, m.capture_order))
            self._cache["moves"] = cached
        assert isinstance(cached, list)
        return list(cached)

    def routes_of(self, move: Move) -> list[Move]:
        return [route for route in self.legal_routes() if route == move]

    def moves_from(self, square: Square) -> list[Move]:
        return [move for move in self.legal_moves() if move.start == square]

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    def capture_compulsory(self) -> bool:
        moves = self.legal_moves()
        return bool(moves) and moves[0].is_capture

    def forced_move(self) -> Move | None:
        """The only legal move, if there is exactly one (a forced move, 002 §4.2.4)."""
        moves = self.legal_moves()
        return moves[0] if len(moves) == 1 else None

    def play(self, move: Move) -> ColumnPosition:
        """The position after ``move``; raises :class:`IllegalMoveError` if it is not legal."""
        for candidate, raw in self._entries():
            if candidate == move:
                return ColumnPosition(
                    self.rules, self._generator.apply(self.board, raw), self.turn.opponent
                )
        # IllegalMoveError reads only the side to move, which a column position has too.
        raise IllegalMoveError(move, self)  # type: ignore[arg-type]

    def outcome(self) -> Outcome | None:
        """Set when the side to move has no legal move: it loses, or wins in the reverse forms.

        No legal move means every column is blocked or none has the mover's piece on top
        (digest §1, §3, §5).
        """
        if self.legal_moves():
            return None
        if self.rules.goal is Goal.DIRECT:
            return Outcome(winner=self.turn.opponent, loser_to_move=True)
        return Outcome(winner=self.turn, loser_to_move=False)

    def perft(self, depth: int, *, distinct: bool = True) -> int:
        """Leaf count ``depth`` plies ahead: one move per effect by default, every route otherwise."""
        return self._generator.perft(self.board, self.turn is Color.WHITE, depth, distinct)

