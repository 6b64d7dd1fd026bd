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


@cache
def _square_by_mask(geometry: Geometry) -> dict[int, Square]:
    return {1 << geometry.bit(sq): sq for sq in geometry.squares}


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
    _cache: dict[object, object] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def initial(cls, game: GameType | RuleSet) -> Position:
        rules = game.rules if isinstance(game, GameType) else game
        geometry = rules.geometry
        white = geometry.mask(tuple(s for s in geometry.squares if geometry.row(s) < rules.men_rows))
        black = geometry.mask(
            tuple(s for s in geometry.squares if geometry.row(s) >= geometry.size - rules.men_rows)
        )
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
        return {sq: piece for sq in self.geometry.squares if (piece := self.piece_at(sq))}

    # -- moves --------------------------------------------------------------------------------

    @property
    def _generator(self) -> Generator:
        # Looking the generator up hashes the whole RuleSet; children inherit it instead.
        generator = self._cache.get("generator")
        if generator is None:
            generator = self._cache["generator"] = generator_for(self.rules)
        assert isinstance(generator, Generator)
        return generator

    def _side_masks(self) -> tuple[int, int, int]:
        if self.turn is Color.WHITE:
            return self.white, self.black, 0
        return self.black, self.white, 1

    def _captures(self) -> list[RawMove]:
        cached = self._cache.get("captures")
        if cached is None:
            me, opp, side = self._side_masks()
            cached = self._cache["captures"] = self._generator.captures(me, opp, self.kings, side)
        assert isinstance(cached, list)
        return cached

    def _raw_moves(self) -> list[RawMove]:
        cached = self._cache.get("raw")
        if cached is None:
            cached = self._captures()
            if not cached:
                me, opp, side = self._side_masks()
                cached = self._generator.quiet_moves(me, opp, self.kings, side)
            self._cache["raw"] = cached
        assert isinstance(cached, list)
        return cached

    def _raw_moves_from(self, origin: int) -> list[RawMove]:
        """Legal routes of the piece on ``origin``, without generating the other pieces' moves."""
        key = ("from", origin)
        cached = self._cache.get(key)
        if cached is None:
            if "raw" in self._cache or self._captures():
                cached = [raw for raw in self._raw_moves() if raw.origin == origin]
            else:
                me, opp, side = self._side_masks()
                cached = self._generator.quiet_moves_from(me, opp, self.kings, side, origin)
            self._cache[key] = cached
        assert isinstance(cached, list)
        return cached

    def _to_move(self, raw: RawMove) -> Move:
        squares = _square_by_mask(self.geometry)
        if not raw.captured:
            start, end = squares[raw.origin], squares[raw.target]
            move = Move.from_route(start, end, _NOTHING, (start, end), (), raw.promotes)
        else:
            move = Move.from_route(
                squares[raw.origin],
                squares[raw.target],
                frozenset(map(squares.__getitem__, _iter_bits(raw.captured))),
                tuple(map(squares.__getitem__, raw.route)),
                tuple(map(squares.__getitem__, raw.capture_order)),
                raw.promotes,
            )
        # play() finds the raw move of a route handed out here without searching again.
        self._raw_of_route().setdefault((move, move.route), raw)
        return move

    def _raw_of_route(self) -> dict[tuple[Move, tuple[Square, ...]], RawMove]:
        table = self._cache.get("raw-of-route")
        if table is None:
            table = self._cache["raw-of-route"] = {}
        assert isinstance(table, dict)
        return table

    def legal_routes(self) -> list[Move]:
        """Every legal route, several per move where routes share an effect."""
        cached = self._cache.get("routes")
        if cached is None:
            cached = [self._to_move(raw) for raw in self._raw_moves()]
            self._cache["routes"] = cached
        assert isinstance(cached, list)
        return cached

    def routes_between(self, start: Square | None, end: Square | None) -> list[Move]:
        """Legal routes from ``start`` to ``end`` (None: any square), converting only those."""
        geometry = self.geometry
        target = 1 << geometry.bit(end) if end is not None else 0
        if start is None:
            raws = self._raw_moves()
        else:
            raws = self._raw_moves_from(1 << geometry.bit(start))
        return [self._to_move(raw) for raw in raws if not target or raw.target == target]

    def legal_moves(self) -> list[Move]:
        """Legal moves, one per effect (the first route found represents it), in a stable order."""
        cached = self._cache.get("moves")
        if cached is None:
            distinct: dict[Move, Move] = {}
            for move in self.legal_routes():
                distinct.setdefault(move, move)
            cached = sorted(distinct, key=lambda m: (m.start, m.end, m.route, sorted(m.captured)))
            self._cache["moves"] = cached
        assert isinstance(cached, list)
        return list(cached)

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
        known = self._raw_of_route().get((move, move.route))
        if known is not None:
            return self._after(known)
        geometry = self.geometry
        origin, target = 1 << geometry.bit(move.start), 1 << geometry.bit(move.end)
        captured = geometry.mask(move.captured)
        for raw in self._raw_moves_from(origin):
            if raw.target == target and raw.captured == captured:
                return self._after(raw)
        raise IllegalMoveError(move, self)

    def _after(self, raw: RawMove) -> Position:
        me, opp, _ = self._side_masks()
        new_me, new_opp, kings = Generator.apply(me, opp, self.kings, raw)
        if self.turn is Color.WHITE:
            white, black, turn = new_me, new_opp, Color.BLACK
        else:
            white, black, turn = new_opp, new_me, Color.WHITE
        # Skips the frozen dataclass __init__ (one object.__setattr__ per field), the main cost
        # of replaying a game record; the child inherits the generator instead of looking it up.
        child = object.__new__(Position)
        child.__dict__.update(
            rules=self.rules, white=white, black=black, kings=kings, turn=turn,
            _cache={"generator": self._generator},
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
