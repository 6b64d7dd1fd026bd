"""What a stored byte means.

``0`` is a draw: neither side can force the end of the game.  Any other byte ``b`` is
``plies + 1``, where ``plies`` is the number of half-moves to the end of the game with best play
(the winner going for the quickest end, the loser for the slowest), the end being the side to
move left without a legal move (no pieces, or all blocked).  Odd ``plies`` (``b`` even) are
wins for the side to move, even ``plies`` (``b`` odd) losses; ``b = 1`` is a position where the
side to move has already lost.  The rules' move limits for such endings (the 15-move and
triangle counts) are not applied: the distance lets the referee weigh them.
"""

from __future__ import annotations

import enum

DRAW = 0
LONGEST = 255
"""The largest byte: values of more than 254 plies cannot be stored."""


class Result(enum.Enum):
    """The value for the side to move."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


def result_of(byte: int) -> Result:
    if not byte:
        return Result.DRAW
    return Result.LOSS if byte & 1 else Result.WIN


def plies_of(byte: int) -> int | None:
    """Plies to the end of the game, ``None`` for a draw."""
    return byte - 1 if byte else None


def moves_of(plies: int) -> int:
    """The winner's moves in ``plies`` half-moves (the count the rules' move limits use)."""
    return (plies + 1) // 2
