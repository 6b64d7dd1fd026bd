"""The move: identified by its effect, carrying one route that produces it."""

from __future__ import annotations

from dataclasses import dataclass, field

from notation.geometry import Square


@dataclass(frozen=True)
class Move:
    """A move, identified by its effect: start square, end square, set of captured squares.

    Two capture routes with the same effect are one move (a king that can take the same
    pieces in two orders makes one move), so equality and hashing look only at the effect.
    ``route`` is one sequence of landing squares, start and end included, that produces the
    effect — the one full notation writes by default; ``capture_order`` lists the captured
    squares in the order that route takes them.  Column draughts, where the order of capture
    decides which prisoner lies where, identify a move by ``route`` instead (see
    :attr:`route_key`).
    """

    start: Square
    end: Square
    captured: frozenset[Square] = frozenset()
    route: tuple[Square, ...] = field(default=(), compare=False)
    capture_order: tuple[Square, ...] = field(default=(), compare=False)
    promotes: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        if not self.route:
            object.__setattr__(self, "route", (self.start, self.end))
        if not self.capture_order and self.captured:
            object.__setattr__(self, "capture_order", tuple(sorted(self.captured)))

    @classmethod
    def from_route(
        cls,
        start: Square,
        end: Square,
        captured: frozenset[Square],
        route: tuple[Square, ...],
        capture_order: tuple[Square, ...],
        promotes: bool,
    ) -> Move:
        """Build a move whose route is already complete, skipping the dataclass ``__init__``.

        Engines build one of these per legal route; a frozen dataclass's ``__init__`` sets each
        field through ``object.__setattr__`` and would double the cost of reading a game record.
        """
        move = object.__new__(cls)
        move.__dict__.update(
            start=start, end=end, captured=captured, route=route,
            capture_order=capture_order, promotes=promotes,
        )
        return move

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    @property
    def effect(self) -> tuple[Square, Square, frozenset[Square]]:
        return (self.start, self.end, self.captured)

    @property
    def route_key(self) -> tuple[tuple[Square, ...], tuple[Square, ...]]:
        """Identity by the full route (landing squares and capture order)."""
        return (self.route, self.capture_order)
