"""Full notation (002 §4.2.2): ``c3-d4``, ``c3:e5:g3``, ``c3:g3``; ``32-28``, ``19:28`` on 10x10.

A written capture may give every landing square or only some of them (at least start and
end); it names the legal move whose route passes through the written squares in order.  It must
name exactly one move: ``c3:g3`` is accepted only when no other capture from c3 ends on g3.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from notation.errors import AmbiguousMoveError, NoSuchMoveError
from notation.game_position import GamePosition
from notation.geometry import Geometry, Square, SquareStyle
from notation.move import Move
from notation.written import WrittenMove, read_full_only


def format_full(
    position: GamePosition, move: Move, *, style: SquareStyle | None = None, route: bool = True
) -> str:
    """``move`` in full notation.

    With ``route=True`` every landing square is written (``c3:e5:g3``); with ``route=False``
    only start and end, unless that would fit another legal move too.
    """
    geometry = position.geometry
    separator = ":" if move.is_capture else "-"
    if not route and move.is_capture:
        ends_fit = set(position.routes_between(move.start, move.end))
        if ends_fit == {move}:
            return f"{geometry.name(move.start, style)}:{geometry.name(move.end, style)}"
    return separator.join(geometry.name(square, style) for square in move.route)


class FullReading(NamedTuple):
    """The move a full-notation text names, and remarks a referee would make about it.

    A named tuple rather than a dataclass: one is built per move of every game record read.
    """

    move: Move
    remarks: tuple[str, ...] = ()


def _passes_through(route: tuple[Square, ...], written: tuple[Square, ...]) -> bool:
    if route[0] != written[0] or route[-1] != written[-1]:
        return False
    position = 0
    for square in written:
        try:
            position = route.index(square, position) + 1
        except ValueError:
            return False
    return True


@lru_cache(maxsize=8192)
def _squares(names: tuple[str, ...], geometry: Geometry) -> tuple[Square, ...]:
    return tuple(geometry.parse_square(name) for name in names)


def resolve_written(position: GamePosition, written: WrittenMove) -> FullReading:
    """The legal move ``written`` names.

    Raises :class:`NoSuchMoveError` if none fits, :class:`AmbiguousMoveError` if several do,
    and :class:`notation.geometry.UnknownSquareError` for a light square or one off the board.
    """
    return FullReading(*fitting_move(position, written))


def fitting_move(position: GamePosition, written: WrittenMove) -> tuple[Move, tuple[str, ...]]:
    """:func:`resolve_written` as a plain tuple ``(move, remarks)``, raising the same errors.

    Game records are read through this: building the named tuple would add about 5 % to
    reading each move.
    """
    squares = _squares(written.squares, position.geometry)
    routes = position.routes_between(squares[0], squares[-1])
    if len(squares) > 2:
        routes = [route for route in routes if _passes_through(route.route, squares)]
    candidates = routes
    if len(routes) > 1:
        # A route written out in full names its own move, even if a longer route passes
        # through the same squares.
        candidates = [route for route in routes if route.route == squares] or routes
    remarks: tuple[str, ...] = ()
    # Filters test ``captured`` (a frozenset) rather than the ``is_capture`` property: this
    # runs once per move of every game record read.
    if not written.capture:
        if len(squares) != 2:
            candidates = []
        elif quiet := [m for m in candidates if not m.captured]:
            candidates = quiet
        elif candidates:
            remarks = ("capture written with '-' instead of ':'",)
    else:
        candidates = [m for m in candidates if m.captured]
        if written.mixed_separators:
            remarks = ("capture written with both '-' and ':'",)
    fitting = set(candidates) if len(candidates) > 1 else candidates
    if not fitting:
        raise NoSuchMoveError(written.text, "no legal move fits")
    if len(fitting) > 1:
        raise AmbiguousMoveError(written.text, f"fits {len(fitting)} different legal moves")
    (move,) = fitting
    return move, remarks


def parse_full(position: GamePosition, text: str) -> Move:
    """The legal move ``text`` names in full notation; raises a :class:`NotationError`."""
    return fitting_move(position, read_full_only(text, position.geometry))[0]
