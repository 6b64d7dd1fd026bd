"""What the pairing engine reads and writes: entrants before a round, the draw after it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from scoring.model import Colour

__all__ = [
    "Colour",
    "FloatDirection",
    "Float",
    "PairingSystem",
    "Entrant",
    "Pair",
    "Draw",
]


class FloatDirection(enum.Enum):
    """``float_down``: met a lower score; ``float_up``: met a higher score (002, Swiss principles)."""

    DOWN = "down"
    UP = "up"


@dataclass(frozen=True)
class Float:
    """One float of one player in one round; forced floats are neither counted nor compensated (002)."""

    round_no: int
    start_no: int
    direction: FloatDirection
    forced: bool = False

    def as_dict(self) -> dict[str, object]:
        return {
            "round": self.round_no,
            "player": self.start_no,
            "direction": self.direction.value,
            "forced": self.forced,
        }


class PairingSystem(enum.Enum):
    """The four pairing programs of ``000 §3.18.4–3.18.7``."""

    RANDOM = "random"
    COEFFICIENTS = "coefficients"
    SOLKOFF = "solkoff"
    BUCHHOLZ = "buchholz"

    @property
    def rule(self) -> str:
        return _SYSTEM_RULES[self]


_SYSTEM_RULES = {
    PairingSystem.RANDOM: "000 §3.18.4",
    PairingSystem.COEFFICIENTS: "000 §3.18.5",
    PairingSystem.SOLKOFF: "000 §3.18.6",
    PairingSystem.BUCHHOLZ: "000 §3.18.7",
}


@dataclass(frozen=True)
class Entrant:
    """A player (or a team) as the pairing of the next round sees him.

    ``start_no`` is the classification number of ``000 §3.18.5.1``, fixed for the whole event.
    ``opponents`` lists only games actually played (adjudicated ones count, ``000 §3.14.4``): a
    pair whose game was not played may be formed again (``000 §3.18.2``).  ``colours`` likewise
    holds played games only, oldest first.  ``secondary`` orders a score group before the
    system's own order (game points of a team, ``000 §3.17.6``); it is zero for individuals.
    """

    start_no: int
    score: float = 0.0
    rating: int = 0
    opponents: tuple[int, ...] = ()
    colours: tuple[Colour, ...] = ()
    floats: tuple[Float, ...] = ()
    had_point_without_play: bool = False
    withdrawn: bool = False
    absent: bool = False
    secondary: float = 0.0

    @property
    def whites(self) -> int:
        return sum(1 for c in self.colours if c is Colour.WHITE)

    @property
    def blacks(self) -> int:
        return len(self.colours) - self.whites

    @property
    def colour_difference(self) -> int:
        return self.whites - self.blacks

    @property
    def float_balance(self) -> int:
        """Counted downfloats minus counted upfloats: one of each compensates (002)."""
        balance = 0
        for drift in self.floats:
            if not drift.forced:
                balance += 1 if drift.direction is FloatDirection.DOWN else -1
        return balance


@dataclass(frozen=True)
class Pair:
    white: int
    black: int

    def as_dict(self) -> dict[str, int]:
        return {"white": self.white, "black": self.black}


@dataclass(frozen=True)
class Draw:
    """The pairing of one round: the pairs with colours, the bye, absentees, floats and reasons."""

    round_no: int
    system: PairingSystem
    pairs: tuple[Pair, ...]
    bye: int | None = None
    absent: tuple[int, ...] = ()
    floats: tuple[Float, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def opponent_of(self, start_no: int) -> int | None:
        for pair in self.pairs:
            if pair.white == start_no:
                return pair.black
            if pair.black == start_no:
                return pair.white
        return None

    def as_dict(self) -> dict[str, object]:
        return {
            "round": self.round_no,
            "system": self.system.value,
            "pairs": [pair.as_dict() for pair in self.pairs],
            "bye": self.bye,
            "absent": list(self.absent),
            "floats": [drift.as_dict() for drift in self.floats],
            "notes": list(self.notes),
        }
