"""The column-draughts move: identified by what it does to the board."""

from __future__ import annotations

from dataclasses import dataclass, field

from notation.move import Move
from notation.position import Piece


@dataclass(frozen=True, eq=False)
class ColumnMove(Move):
    """A move in column draughts.

    In column draughts the order of capture decides which prisoner lies where (digest §6), so
    the effect of a move is its start, end, the columns it jumps (a multiset: with
    ``rejump=allowed`` one column may give up two pieces), the ``prisoners`` taken, in capture
    order, and whether the top piece is promoted.  Two routes with the same effect leave the
    same position and are one move — a king that may land on d4 or e5 between two captures
    makes one move, as in Russian draughts; different capture orders are different moves
    whenever they bury different pieces in a different order (docs/rules/columns.md).
    ``route`` holds one route producing the effect, ``capture_order`` the jumped squares in
    that route's order.
    """

    prisoners: tuple[Piece, ...] = field(default=(), compare=False)

    @property
    def column_effect(self) -> tuple[object, ...]:
        return (self.start, self.end, tuple(sorted(self.capture_order)), self.prisoners, self.promotes)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ColumnMove):
            return self.column_effect == other.column_effect
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.column_effect)
