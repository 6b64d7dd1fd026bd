"""Draw claims in column draughts (digest §2 "Result", §9 Q5).

The federation's section on draws is not readable, so the digest recommends draw by agreement
(an act of the players, not of the rules engine), a claim of threefold repetition with the same
side to move, and any move-count limit configurable and off by default: the ``quiet-limit``
rule option (:mod:`notation.columns.rules`).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from notation.columns.position import ColumnPosition
from notation.move import Move


class DrawReason(enum.Enum):
    REPETITION = "the same position, same side to move, for the third time (digest §2)"
    QUIET_LIMIT = "the quiet-limit of king moves without a capture is reached (digest §2)"


def repetitions(positions: Sequence[ColumnPosition]) -> int:
    """How often the last position (same columns, same side to move) occurred in ``positions``."""
    if not positions:
        return 0
    last = positions[-1]
    return sum(1 for p in positions if p.board == last.board and p.turn is last.turn)


def quiet_king_moves(positions: Sequence[ColumnPosition], moves: Sequence[Move]) -> int:
    """Plies at the end of the game made by king-topped columns without capturing.

    ``positions[i]`` is the position ``moves[i]`` was played in.
    """
    count = 0
    for position, move in zip(reversed(positions[: len(moves)]), reversed(moves), strict=True):
        top = position.piece_at(move.start)
        if move.is_capture or top is None or not top.king:
            break
        count += 1
    return count


def draw_claim(positions: Sequence[ColumnPosition], moves: Sequence[Move]) -> DrawReason | None:
    """The ground on which the side to move may claim a draw now, if any.

    ``positions`` runs from the start of the game to the current position, one more than
    ``moves``.
    """
    if repetitions(positions) >= 3:
        return DrawReason.REPETITION
    limit = positions[-1].rules.quiet_limit if positions else None
    if limit is not None and quiet_king_moves(positions, moves) >= 2 * limit:
        return DrawReason.QUIET_LIMIT
    return None
