"""Game outcomes as the referee records them, for the scoring package to consume.

This package does not import ``scoring``: it names outcomes with the glossary's words and the
service maps them onto the scoring engine's result types (the mapping is in docs/adjudication.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from adjudication.errors import AdjudicationError


class Side(StrEnum):
    """A player's colour in one game; also how game cases name their two parties."""

    WHITE = "white"
    BLACK = "black"

    @property
    def other(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE


class OutcomeKind(StrEnum):
    """One player's result in one game (000 §3.15)."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "+"
    """A win without play (000 §3.15.2): counts as a win for places, not for norms."""
    FORFEIT_LOSS = "-"
    """A loss without play (000 §3.15.2, 002 §4.5.8)."""
    ANNULLED = "annulled"
    """The game does not count for either player (002 §4.5.3)."""


_COUNTERPART = {
    OutcomeKind.WIN: OutcomeKind.LOSS,
    OutcomeKind.LOSS: OutcomeKind.WIN,
    OutcomeKind.DRAW: OutcomeKind.DRAW,
    OutcomeKind.FORFEIT_WIN: OutcomeKind.FORFEIT_LOSS,
    OutcomeKind.FORFEIT_LOSS: OutcomeKind.FORFEIT_WIN,
    OutcomeKind.ANNULLED: OutcomeKind.ANNULLED,
}
_PLAYED = frozenset({OutcomeKind.WIN, OutcomeKind.DRAW, OutcomeKind.LOSS})


class InvalidOutcome(AdjudicationError):
    """Two results that cannot stand together in one game, e.g. a win against a draw."""

    def __init__(self, white: OutcomeKind, black: OutcomeKind, reason: str) -> None:
        self.white = white
        self.black = black
        self.rule = "000 §3.15"
        super().__init__(f"white {white.value} / black {black.value}: {reason} (000 §3.15)")


@dataclass(frozen=True)
class GameOutcome:
    """Both players' results in one game, plus whether the referee adjudicated it.

    Valid pairs: win/loss, draw/draw, ``+``/``−`` either way, ``−``/``−`` (both lose, 002 §4.5.8)
    and annulled/annulled. ``adjudicated`` marks played results fixed by adjudication (002 §4.5.4–
    4.5.5); they count as played games (000 §3.14.4) but the crosstable shows them marked.
    """

    white: OutcomeKind
    black: OutcomeKind
    adjudicated: bool = False

    def __post_init__(self) -> None:
        both_lose = self.white is self.black is OutcomeKind.FORFEIT_LOSS
        if not both_lose and _COUNTERPART[self.white] is not self.black:
            raise InvalidOutcome(self.white, self.black, "these results cannot meet in one game")
        if self.adjudicated and self.white not in _PLAYED:
            raise InvalidOutcome(self.white, self.black, "only a played result can be adjudicated")

    @classmethod
    def win_for(cls, side: Side, *, adjudicated: bool = False) -> GameOutcome:
        return cls.of(side, OutcomeKind.WIN, adjudicated=adjudicated)

    @classmethod
    def loss_for(cls, side: Side, *, adjudicated: bool = False) -> GameOutcome:
        return cls.of(side, OutcomeKind.LOSS, adjudicated=adjudicated)

    @classmethod
    def draw(cls, *, adjudicated: bool = False) -> GameOutcome:
        return cls(OutcomeKind.DRAW, OutcomeKind.DRAW, adjudicated)

    @classmethod
    def forfeit_loss_for(cls, side: Side) -> GameOutcome:
        """``−`` for ``side`` and ``+`` for the partner."""
        return cls.of(side, OutcomeKind.FORFEIT_LOSS)

    @classmethod
    def both_lose(cls) -> GameOutcome:
        """``−/−`` (002 §4.5.8)."""
        return cls(OutcomeKind.FORFEIT_LOSS, OutcomeKind.FORFEIT_LOSS)

    @classmethod
    def annulled(cls) -> GameOutcome:
        return cls(OutcomeKind.ANNULLED, OutcomeKind.ANNULLED)

    @classmethod
    def of(cls, side: Side, kind: OutcomeKind, *, adjudicated: bool = False) -> GameOutcome:
        """The outcome in which ``side`` gets ``kind`` and the partner its counterpart."""
        other = _COUNTERPART[kind]
        if side is Side.WHITE:
            return cls(kind, other, adjudicated)
        return cls(other, kind, adjudicated)

    def for_side(self, side: Side) -> OutcomeKind:
        return self.white if side is Side.WHITE else self.black

    @property
    def symbol(self) -> str:
        """The crosstable notation from white's side: ``1-0``, ``½-½``, ``+/−``, ``−/−``, …"""
        marks = {
            OutcomeKind.WIN: "1",
            OutcomeKind.DRAW: "½",
            OutcomeKind.LOSS: "0",
            OutcomeKind.FORFEIT_WIN: "+",
            OutcomeKind.FORFEIT_LOSS: "−",
            OutcomeKind.ANNULLED: "×",
        }
        separator = "-" if self.white in _PLAYED else "/"
        return f"{marks[self.white]}{separator}{marks[self.black]}"


class Assessment(StrEnum):
    """A player's own assessment of the final position (002 §4.5.2): from his side of the board."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"

    def outcome_for(self, side: Side) -> GameOutcome:
        """The adjudicated game outcome this assessment proposes when made by ``side``."""
        return GameOutcome.of(side, OutcomeKind(self.value), adjudicated=True)
