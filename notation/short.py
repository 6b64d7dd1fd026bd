"""Short notation for game records (002 §4.5.1): ``1.cd4 fg5 2.dc5 b:d4 3.e:c5``.

A short move is the origin file and the destination square, with ``:`` for a capture.  Where
that fits several legal moves, the full start and end squares are written, and where even those
fit several, the full route.  Numeric (10x10) notation has no file letters: its short form is
start and end squares (``32-28``, ``19x28``), the usual PDN form.

Short notation is never accepted in a letter (002 §4.2.2); see :mod:`notation.letters`.
"""

from __future__ import annotations

from notation.errors import AmbiguousMoveError, NoSuchMoveError
from notation.full import fitting_move, format_full
from notation.game_position import GamePosition
from notation.geometry import SquareStyle
from notation.move import Move
from notation.written import WrittenShortMove, read_written


def format_short(position: GamePosition, move: Move, *, style: SquareStyle | None = None) -> str:
    geometry = position.geometry
    style = style or geometry.default_style
    separator = ":" if move.is_capture else ""
    if style is SquareStyle.ALGEBRAIC:
        file_letter = geometry.files[geometry.column(move.start)]
        rivals = {
            m
            for m in position.routes_between(None, move.end)
            if m.is_capture == move.is_capture
            and geometry.column(m.start) == geometry.column(move.start)
        }
        if rivals == {move}:
            return f"{file_letter}{separator}{geometry.name(move.end, style)}"
    return format_full(position, move, style=style, route=False)


def parse_short(position: GamePosition, text: str) -> Move:
    """The legal move named by ``text`` in short or full notation (game records).

    Raises :class:`NoSuchMoveError`, :class:`AmbiguousMoveError` or
    :class:`notation.errors.IllegibleMoveError`.
    """
    written = read_written(text, position.geometry)
    if not isinstance(written, WrittenShortMove):
        return fitting_move(position, written)[0]
    geometry = position.geometry
    destination = geometry.parse_square(written.destination)
    fitting = list(
        {
            m
            for m in position.routes_between(None, destination)
            if geometry.files[geometry.column(m.start)] == written.origin_file
            and m.is_capture == written.capture
        }
    )
    if not fitting:
        raise NoSuchMoveError(text, "no legal move fits")
    if len(fitting) > 1:
        raise AmbiguousMoveError(text, f"fits {len(fitting)} different legal moves")
    return fitting[0]
