"""The time control (50 days per 10 moves, cumulative) and the time fraction of a letter."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from timekeeping.errors import TimeControlError, TimeFractionError


@dataclass(frozen=True, slots=True)
class TimeControl:
    """``days`` of think time for every ``moves`` moves, accumulated (002 §4.3.1, §4.3.5).

    The rulebook's control is 50 days per 10 moves; a tournament may set another (e.g. 30/10).
    """

    days: int = 50
    moves: int = 10

    def __post_init__(self) -> None:
        if self.days < 1 or self.moves < 1:
            raise TimeControlError(self.days, self.moves)

    def limit(self, counted_moves: int) -> int:
        """Most days a player may have used after ``counted_moves`` counted moves.

        002 §4.3.5: overstepped when more than 50 days were used on 10 or fewer moves, more
        than 100 on 20 or fewer, and so on; the tightest period is the one containing the move.
        """
        periods = -(-counted_moves // self.moves) or 1
        return periods * self.days

    def limit_table(self) -> tuple[int, ...]:
        """:meth:`limit` of 0 to ``LIMIT_TABLE_MOVES - 1`` counted moves, computed once per
        control: recomputing an archive looks a limit up for every letter."""
        return _limit_table(self)


#: Moves covered by :meth:`TimeControl.limit_table`; longer games fall back to :meth:`limit`.
LIMIT_TABLE_MOVES = 256


@functools.lru_cache(maxsize=32)
def _limit_table(control: TimeControl) -> tuple[int, ...]:
    return tuple(control.limit(moves) for moves in range(LIMIT_TABLE_MOVES))


_FRACTION = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


@dataclass(frozen=True, slots=True)
class TimeFraction:
    """Total days of both players written as a fraction: white over black (002 §4.3.1)."""

    white: int
    black: int

    @classmethod
    def parse(cls, text: str) -> TimeFraction:
        """Read ``"12/7"`` as written in a letter."""
        match = _FRACTION.fullmatch(text)
        if not match:
            raise TimeFractionError(text)
        return cls(int(match[1]), int(match[2]))

    def __str__(self) -> str:
        return f"{self.white}/{self.black}"
