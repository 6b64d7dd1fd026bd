"""Positions and boards: the square-indexed, public face of the engine."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from notation.engine import Generator, RawMove, generator_for
from notation.geometry import Geometry, Square
from notation.move import Move
from notation.rules import Color, GameType, Goal, RuleSet


@dataclass(frozen=True)
class Piece:
    color: Color
    king: bool = False

    @property
    def symbol(self) -> str:
        """``w``/``b`` for men, ``W``/``B`` for kings (as in FEN)."""
        letter = "w" if self.color is Color.WHITE else "b"
        return letter.upper() if self.king else letter


_WHITE_MAN, _WHITE_KING = Piece(Color.WHITE), Piece(Color.WHITE, True)
_BLACK_MAN, _BLACK_KING = Piece(Color.BLACK), Piece(Color.BLACK, True)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the side to move has no legal move (002 rules of play)."""

    winner: Color
    loser_to_move: bool
    """True in direct games (the blocked side lost), False in giveaway (it won)."""


class IllegalMoveError(ValueError):
    """A move that is not legal in the position it is played in."""

    def __init__(self, move: Move, position: Position) -> None:
        super().__init__(f"{move} is not a legal move for {position.turn.value}")
        self.move = move


_NOTHING: frozenset[Square] = frozenset()

_RouteKey = tuple[Square, Square, frozenset[Square], tuple[Square, ...]]
"""A move's effect plus its route: the key :meth:`Position.play` finds a handed-out route by.

Spelt out as a plain tuple rather than ``(move, move.route)`` because hashing and comparing
a tuple of ints happens in C, while a ``Move`` hashes through its dataclass ``__hash__``.
"""


class _Memo:
    """What a position has worked out about itself so far (positions are immutable).

    Class-level ``None`` defaults make a fresh memo free to create: the instance stores only
    what has been computed.  One is created per position made, so per ply of every game read.
    """

    captures: list[RawMove] | None = None
    raw: list[RawMove] | None = None
    routes: list[Move] | None = None
    moves: list[Move] | None = None
    raw_of_route: dict[_RouteKey, RawMove] | None = None


@cache
def _initial_masks(rules: RuleSet) -> tuple[int, int]:
    geometry = rules.geometry
    white = geometry.mask(tuple(s for s in geometry.squares if geometry.row(s) < rules.men_rows))
    black = geometry.mask(
        tuple(s for s in geometry.squares if geometry.row(s) >= geometry.size - rules.men_rows)
    )
    return white, black


@dataclass(frozen=True)
class Position:
    """An immutable position: where the pieces stand and who is to move.

    ``white``, ``black`` and ``kings`` are masks over the engine's padded bit layout; use
    :meth:`piece_at`, :meth:`pieces` and :meth:`from_pieces` rather than the masks.
    """

    rules: RuleSet
    white: int
    black: int
    kings: int
    turn: Color = Color.WHITE
    _generator: Generator = field(init=False, repr=False, compare=False, hash=False)
    _memo: _Memo = field(default_factory=_Memo, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        # Looking the generator up hashes the whole RuleSet: done once per position built
        # here; positions made by play() inherit their parent's (see _after).
        object.__setattr__(self, "_generator", generator_for(self.rules))

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def initial(cls, game: GameType | RuleSet) -> Position:
        rules = game.rules if isinstance(game, GameType) else game
        white, black = _initial_masks(rules)
        return cls(rules, white, black, 0, Color.WHITE)

    @classmethod
    def from_pieces(
        cls, game: GameType | RuleSet, pieces: Mapping[Square, Piece], turn: Color = Color.WHITE
    ) -> Position:
        rules = game.rules if isinstance(game, GameType) else game
        geometry = rules.geometry
        white = black = kings = 0
        for square, piece in pieces.items():
            bit = 1 << geometry.bit(square)
            if piece.color is Color.WHITE:
                white |= bit
            else:
                black |= bit
            if piece.king:
                kings |= bit
        return cls(rules, white, black, kings, turn)

    # -- inspection ---------------------------------------------------------------------------

    @property
    def geometry(self) -> Geometry:
        return self.rules.geometry

    @property
    def game_type(self) -> GameType:
        return self.rules.game_type

    def piece_at(self, square: Square) -> Piece | None:
        bit = 1 << self.geometry.bit(square)
        if self.white & bit:
            return Piece(Color.WHITE, bool(self.kings & bit))
        if self.black & bit:
            return Piece(Color.BLACK, bool(self.kings & bit))
        return None

    def pieces(self) -> dict[Square, Piece]:
        """Every occupied square and its piece, in square order. Read off the bitboards in one
        pass (every FEN and diagram asks for it, and asking :meth:`piece_at` square by square
        was most of writing a FEN); the four kinds of piece are immutable and shared."""
        white, black, kings = self.white, self.black, self.kings
        found: dict[Square, Piece] = {}
        for square, bit in enumerate(self.geometry.bits):
            mask = 1 << bit
            if white & mask:
                found[square] = _WHITE_KING if kings & mask else _WHITE_MAN
            elif black & mask:
                found[square] = _BLACK_KING if kings & mask else _BLACK_MAN
        return found

    # -- moves --------------------------------------------------------------------------------

    def _side_masks(self) -> tuple[int, int, int]:
        if self.turn is Color.WHITE:
            return self.white, self.black, 0
        return self.black, self.white, 1

    def _captures(self) -> list[RawMove]:
        memo = self._memo
        captures = memo.captures
        if captures is None:
            me, opp, side = self._side_masks()
            captures = memo.captures = self._generator.captures(me, opp, self.kings, side)
        return captures

    def _raw_moves(self) -> list[RawMove]:
        memo = self._memo
        raw = memo.raw
        if raw is None:
            raw = self._captures()
            if not raw:
                me, opp, side = self._side_masks()
                raw = self._generator.quiet_moves(me, opp, self.kings, side)
            memo.raw = raw
        return raw

    def _raw_moves_from(self, origin: int) -> list[RawMove]:
        """Legal routes of the piece on ``origin``, without generating the other pieces' moves."""
        memo = self._memo
        generator = self._generator
        me, opp, side = self._side_masks()
        kings = self.kings
        if memo.raw is None and memo.captures is None and not generator.majority:
            # Whether a man can capture is a bitboard test.  If one can, captures are
            # compulsory and, without the majority rule, the piece's own captures are its legal
            # moves whatever the others could take.  If none can and there are no kings, no
            # capture exists at all.
            if generator.men_can_capture(me, opp, kings, side):
                return generator.captures(me, opp, kings, side, pieces=origin)
            if not me & kings:
                memo.captures = []
                return generator.quiet_moves_from(me, opp, kings, side, origin)
        if memo.raw is not None or self._captures():
            return [raw for raw in self._raw_moves() if raw.origin == origin]
        return generator.quiet_moves_from(me, opp, kings, side, origin)

    def _to_move(self, raw: RawMove) -> Move:
        squares = self._generator.square_of_mask
        start, end = squares[raw.origin], squares[raw.target]
        if not raw.captured:
            route: tuple[Square, ...] = (start, end)
            move = Move.from_route(start, end, _NOTHING, route, (), raw.promotes)
        else:
            route = tuple(map(squares.__getitem__, raw.route))
            move = Move.from_route(
                start,
                end,
                frozenset(map(squares.__getitem__, _iter_bits(raw.captured))),
                route,
                tuple(map(squares.__getitem__, raw.capture_order)),
                raw.promotes,
            )
        # play() finds the raw move of a route handed out here without searching again.
        memo = self._memo
        table = memo.raw_of_route
        if table is None:
            table = memo.raw_of_route = {}
        table.setdefault((start, end, move.captured, route), raw)
        return move

    def legal_routes(self) -> list[Move]:
        """Every legal route, several per move where routes share an effect."""
        memo = self._memo
        if memo.routes is None:
            memo.routes = [self._to_move(raw) for raw in self._raw_moves()]
        return memo.routes

    def routes_between(self, start: Square | None, end: Square | None) -> list[Move]:
        """Legal routes from ``start`` to ``end`` (None: any square), converting only those."""
        mask_of_square = self._generator.mask_of_square
        if start is None:
            raws = self._raw_moves()
        else:
            raws = self._raw_moves_from(mask_of_square[start])
        if end is None:
            return [self._to_move(raw) for raw in raws]
        target = mask_of_square[end]
        return [self._to_move(raw) for raw in raws if raw.target == target]

    def legal_moves(self) -> list[Move]:
        """Legal moves, one per effect (the first route found represents it), in a stable order."""
        memo = self._memo
        if memo.moves is None:
            distinct: dict[Move, Move] = {}
            for move in self.legal_routes():
                distinct.setdefault(move, move)
            memo.moves = sorted(distinct, key=lambda m: (m.start, m.end, m.route, sorted(m.captured)))
        return list(memo.moves)

    def routes_of(self, move: Move) -> list[Move]:
        """Every route producing ``move``'s effect."""
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

    def play(self, move: Move) -> Position:
        """The position after ``move``; raises :class:`IllegalMoveError` if it is not legal."""
        table = self._memo.raw_of_route
        if table is not None:
            known = table.get((move.start, move.end, move.captured, move.route))
            if known is not None:
                return self._after(known)
        mask_of_square = self._generator.mask_of_square
        origin, target = mask_of_square[move.start], mask_of_square[move.end]
        captured = self.geometry.mask(move.captured)
        for raw in self._raw_moves_from(origin):
            if raw.target == target and raw.captured == captured:
                return self._after(raw)
        raise IllegalMoveError(move, self)

    def _after(self, raw: RawMove) -> Position:
        if self.turn is Color.WHITE:
            white, black, kings = Generator.apply(self.white, self.black, self.kings, raw)
            turn = Color.BLACK
        else:
            black, white, kings = Generator.apply(self.black, self.white, self.kings, raw)
            turn = Color.WHITE
        # Skips the frozen dataclass __init__ (one object.__setattr__ per field), the main cost
        # of replaying a game record; the child inherits the generator instead of looking it up.
        child = object.__new__(Position)
        child.__dict__.update(
            rules=self.rules, white=white, black=black, kings=kings, turn=turn,
            _generator=self._generator, _memo=_Memo(),
        )
        return child

    def outcome(self) -> Outcome | None:
        """Set when the side to move has no legal move (no pieces, or all blocked)."""
        if self.legal_moves():
            return None
        if self.rules.goal is Goal.DIRECT:
            return Outcome(winner=self.turn.opponent, loser_to_move=True)
        return Outcome(winner=self.turn, loser_to_move=False)

    def perft(self, depth: int, *, distinct: bool = True) -> int:
        """Leaf count ``depth`` plies ahead: distinct moves by default, every route otherwise."""
        me, opp, side = self._side_masks()
        return self._generator.perft(me, opp, self.kings, side, depth, distinct)


def _iter_bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


class Board:
    """A position with history: :meth:`push` plays a move, :meth:`pop` takes it back."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.move_stack: list[Move] = []
        self._previous: list[Position] = []

    @classmethod
    def initial(cls, game: GameType | RuleSet) -> Board:
        return cls(Position.initial(game))

    def push(self, move: Move) -> None:
        after = self.position.play(move)
        self._previous.append(self.position)
        self.move_stack.append(move)
        self.position = after

    def pop(self) -> Move:
        move = self.move_stack.pop()
        self.position = self._previous.pop()
        return move
