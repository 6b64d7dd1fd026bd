"""The point system: what a win, a draw and a loss are worth (000 §3.15).

Defaults to 1/½/0 (000 §3.15.1); the FMJD triple is 2/1/0 (000 §3.15.2, note). A plus
(``+``) is worth a win and a minus (``−``) a loss for places and coefficients; pluses are left
out of the count for classification norms (000 §3.15.2), which is why :meth:`PointSystem.points`
and :meth:`PointSystem.norm_points` differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.errors import PointSystemError
from scoring.result import Result


@dataclass(frozen=True)
class PointSystem:
    """Points for a win, a draw and a loss, in that order."""

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    #: Points by :attr:`Result.points_index`: win, draw, loss, and 0 for a pending game.
    values: tuple[float, float, float, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", (float(self.win), float(self.draw), float(self.loss), 0.0))
        text = self.format()
        if not self.win > self.loss:
            raise PointSystemError(text, "a win must be worth more than a loss")
        if not self.win >= self.draw >= self.loss:
            raise PointSystemError(text, "a draw must lie between a loss and a win")

    @classmethod
    def parse(cls, text: str) -> PointSystem:
        """Read ``"1,0.5,0"`` (also ``"2/1/0"`` or ``"1 ½ 0"``)."""
        parts = text.replace("½", "0.5").replace("/", ",").replace(";", ",").replace(" ", ",")
        fields = [field for field in parts.split(",") if field]
        if len(fields) != 3:
            raise PointSystemError(text, "expected three numbers: win, draw, loss")
        try:
            win, draw, loss = (float(field) for field in fields)
        except ValueError:
            raise PointSystemError(text, "not a number") from None
        return cls(win, draw, loss)

    def format(self) -> str:
        return ",".join(_number(value) for value in (self.win, self.draw, self.loss))

    def points(self, result: Result) -> float:
        """Points for places and coefficients: ``+`` and a bye as a win, ``−`` as a loss."""
        return self.values[result.points_index]

    def norm_points(self, result: Result) -> float:
        """Points for classification norms: pluses are not counted (000 §3.15.2)."""
        return self.loss if result.is_plus else self.values[result.points_index]

    def opposite(self, result: Result) -> float:
        """What the other side of ``result`` scores (003 §13: the virtual opponent's result)."""
        if result.counts_as_win:
            return self.loss
        if result is Result.DRAW:
            return self.draw
        return self.win


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


#: 1/½/0, the default (000 §3.15.1).
CLASSICAL = PointSystem(1.0, 0.5, 0.0)
#: 2/1/0, FMJD events (000 §3.15.2, note).
FMJD = PointSystem(2.0, 1.0, 0.0)
