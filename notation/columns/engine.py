"""Move generation for column draughts over a board of stacks.

A board is a tuple (or, inside :meth:`ColumnGenerator.make`, a list) holding one *column code*
per playing square: the pieces bottom to top as ``w``/``b`` (men) and ``W``/``B`` (kings),
``""`` for an empty square.  ``"bW"`` is a white king on top of a black man.  The top piece
owns the column and decides how it moves (digest §1).

Captures are searched depth first with a per-square count of pieces already taken in the move,
which is all the four rule options need: under deferred placement a jumped column keeps
blocking until the move ends; under immediate placement only what is left of it blocks; a
column may be jumped again only if re-jumping is allowed and an enemy piece is on top of
what is left.  The capturing column's own start square is empty during the move (digest §2).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from notation.columns.rules import ColumnRules, KingLanding, Placement, Rejump
from notation.geometry import Direction, Square

Board = tuple[str, ...]

WHITE_PIECES = "wW"
BLACK_PIECES = "bB"


class RawColumnMove(NamedTuple):
    """A move as the generator finds it: landing squares and jumped columns, in order."""

    route: tuple[Square, ...]
    captures: tuple[Square, ...]
    promotes: bool


class _Search:
    """State of one capture search from one origin (mutated and restored as it recurses)."""

    __slots__ = ("board", "origin", "enemy", "taken", "route", "order", "out")

    def __init__(self, board: Board, origin: Square, enemy: str, out: list[RawColumnMove]) -> None:
        self.board = board
        self.origin = origin
        self.enemy = enemy
        self.taken = [0] * len(board)
        self.route = [origin]
        self.order: list[Square] = []
        self.out = out

    def finish(self, promotes: bool) -> None:
        self.out.append(RawColumnMove(tuple(self.route), tuple(self.order), promotes))


class ColumnGenerator:
    """Precomputed diagonals and move generation for one :class:`ColumnRules`."""

    def __init__(self, rules: ColumnRules) -> None:
        geometry = rules.geometry
        self.rules = rules
        self.count = geometry.count
        self.rays = tuple(
            tuple(geometry.ray(square, direction) for direction in Direction)
            for square in geometry.squares
        )
        last_row = geometry.size - 1
        # far_row[side]: side 0 is White (promotes on the last row), 1 is Black.
        self.far_row = (
            frozenset(s for s in geometry.squares if geometry.row(s) == last_row),
            frozenset(s for s in geometry.squares if geometry.row(s) == 0),
        )
        north = (Direction.NORTH_EAST, Direction.NORTH_WEST)
        south = (Direction.SOUTH_EAST, Direction.SOUTH_WEST)
        self.forward = (north, south)
        every = tuple(Direction)
        self.man_capture_directions = (
            (every, every) if rules.men_capture_backwards else (north, south)
        )
        self.flying = rules.flying_kings
        self.promotion_ends_move = rules.promotion_ends_move
        self.rejump = rules.rejump is Rejump.ALLOWED
        self.deferred = rules.placement is Placement.DEFERRED
        self.must_land_to_continue = rules.king_landing is KingLanding.CONTINUE

    # -- whole positions ---------------------------------------------------------------------

    def legal_moves(self, board: Board, white: bool) -> list[RawColumnMove]:
        """Every legal route: captures if any exist (capture is compulsory), else quiet moves."""
        captures = self.captures(board, white)
        return captures if captures else self.quiet_moves(board, white)

    def quiet_moves(self, board: Board, white: bool) -> list[RawColumnMove]:
        own = WHITE_PIECES if white else BLACK_PIECES
        side = 0 if white else 1
        far_row = self.far_row[side]
        out: list[RawColumnMove] = []
        for origin, code in enumerate(board):
            if not code or code[-1] not in own:
                continue
            rays = self.rays[origin]
            if code[-1].isupper():
                for ray in rays:
                    for target in ray if self.flying else ray[:1]:
                        if board[target]:
                            break
                        out.append(RawColumnMove((origin, target), (), False))
            else:
                for direction in self.forward[side]:
                    ray = rays[direction]
                    if ray and not board[ray[0]]:
                        target = ray[0]
                        out.append(RawColumnMove((origin, target), (), target in far_row))
        return out

    def captures(self, board: Board, white: bool) -> list[RawColumnMove]:
        """Every complete capture route."""
        own, enemy = (WHITE_PIECES, BLACK_PIECES) if white else (BLACK_PIECES, WHITE_PIECES)
        side = 0 if white else 1
        out: list[RawColumnMove] = []
        for origin, code in enumerate(board):
            if code and code[-1] in own:
                search = _Search(board, origin, enemy, out)
                self._jumps_from(search, origin, code[-1].isupper(), False, side)
        return out

    # -- the capture search ------------------------------------------------------------------

    def _blocks(self, search: _Search, square: Square) -> bool:
        if square == search.origin:
            return False
        code = search.board[square]
        if self.deferred:
            return bool(code)
        return len(code) > search.taken[square]

    def _jumpable(self, search: _Search, square: Square) -> bool:
        taken = search.taken[square]
        if taken and not self.rejump:
            return False
        code = search.board[square]
        left = len(code) - taken
        return left > 0 and code[left - 1] in search.enemy

    def _jumps_from(self, search: _Search, at: Square, king: bool, promoted: bool, side: int) -> bool:
        """Explore every jump from ``at``; record finished routes; True if any jump exists."""
        if king and self.flying:
            return self._flying_jumps(search, at, promoted, side)
        directions = tuple(Direction) if king else self.man_capture_directions[side]
        found = False
        rays = self.rays[at]
        for direction in directions:
            ray = rays[direction]
            if len(ray) < 2:
                continue
            over, land = ray[0], ray[1]
            if not self._jumpable(search, over) or self._blocks(search, land):
                continue
            found = True
            search.taken[over] += 1
            search.order.append(over)
            search.route.append(land)
            if not king and land in self.far_row[side]:
                # A man reaching the far row is a king from here on (digest §2); Lasker's
                # rules stop the move there (digest §4).
                if self.promotion_ends_move or not self._jumps_from(search, land, True, True, side):
                    search.finish(True)
            elif not self._jumps_from(search, land, king, promoted, side):
                search.finish(promoted)
            search.route.pop()
            search.order.pop()
            search.taken[over] -= 1
        return found

    def _flying_jumps(self, search: _Search, at: Square, promoted: bool, side: int) -> bool:
        found = False
        for ray in self.rays[at]:
            index, length = 0, len(ray)
            while index < length and not self._blocks(search, ray[index]):
                index += 1
            if index >= length - 1 or not self._jumpable(search, ray[index]):
                continue
            victim = ray[index]
            search.taken[victim] += 1
            landings = []
            for square in ray[index + 1 :]:
                if self._blocks(search, square):
                    break
                landings.append(square)
            if landings:
                found = True
                search.order.append(victim)
                continued = []
                for land in landings:
                    search.route.append(land)
                    going_on = self._flying_jumps(search, land, promoted, side)
                    if not going_on and not self.must_land_to_continue:
                        search.finish(promoted)
                    search.route.pop()
                    continued.append(going_on)
                if self.must_land_to_continue and not any(continued):
                    # Russian landing rule: only when no landing square lets the capture go on
                    # may the king stop, and then on any of them (digest §2).
                    for land in landings:
                        search.route.append(land)
                        search.finish(promoted)
                        search.route.pop()
                search.order.pop()
            search.taken[victim] -= 1
        return found

    # -- making moves ------------------------------------------------------------------------

    @staticmethod
    def make(board: list[str], move: RawColumnMove) -> list[tuple[Square, str]]:
        """Play ``move`` on ``board`` in place; returns what :meth:`unmake` needs.

        Each jumped column gives up its top piece, in capture order; the prisoners go under the
        capturing column, the first directly under it and the last at the very bottom
        (digest §1).  Promotion turns the top piece only into a king.
        """
        origin, end = move.route[0], move.route[-1]
        touched = dict.fromkeys((origin, *move.captures, end))
        saved = [(square, board[square]) for square in touched]
        mover = board[origin]
        board[origin] = ""
        prisoners = []
        for square in move.captures:
            code = board[square]
            prisoners.append(code[-1])
            board[square] = code[:-1]
        if move.promotes:
            mover = mover[:-1] + mover[-1].upper()
        board[end] = "".join(reversed(prisoners)) + mover
        return saved

    @staticmethod
    def unmake(board: list[str], saved: list[tuple[Square, str]]) -> None:
        for square, code in saved:
            board[square] = code

    def apply(self, board: Board, move: RawColumnMove) -> Board:
        """The board after ``move`` (a new tuple)."""
        cells = list(board)
        self.make(cells, move)
        return tuple(cells)

    # -- perft -------------------------------------------------------------------------------

    def perft(self, board: Board, white: bool, depth: int, distinct: bool) -> int:
        """Leaf count ``depth`` plies ahead.

        ``distinct`` counts one move per resulting position (routes that differ only in where
        a king lands between two captures, or in the order of identical prisoners, are one
        move); otherwise every route counts.
        """
        return self._perft(list(board), white, depth, distinct)

    def _perft(self, board: list[str], white: bool, depth: int, distinct: bool) -> int:
        if depth == 0:
            return 1
        frozen = tuple(board)
        moves = self.captures(frozen, white)
        if not moves:
            moves = self.quiet_moves(frozen, white)
            if depth == 1:
                return len(moves)
        elif distinct:
            moves = self.distinct(board, moves)
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            saved = self.make(board, move)
            total += self._perft(board, not white, depth - 1, distinct)
            self.unmake(board, saved)
        return total

    def distinct(self, board: list[str], moves: list[RawColumnMove]) -> list[RawColumnMove]:
        """One route per resulting position, the first found."""
        seen: dict[tuple[object, ...], RawColumnMove] = {}
        for move in moves:
            saved = self.make(board, move)
            key = (move.route[0], move.route[-1], tuple(sorted((sq, board[sq]) for sq, _ in saved)))
            self.unmake(board, saved)
            seen.setdefault(key, move)
        return list(seen.values())


@cache
def column_generator(rules: ColumnRules) -> ColumnGenerator:
    return ColumnGenerator(rules)
