"""Results of one player in one round, and of one game (000 §3.14–3.15, 002 §4.5.8).

One player's side is a :class:`Result`; a game between two players is a :class:`GameResult`,
which fixes both sides at once so that the two can never disagree.
"""

from __future__ import annotations

import enum


class Result(enum.Enum):
    """One player's result in one round. The value is the TRF-16 result character."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    #: ``+``: a win without play — the partner did not show, was late or forfeited (000 §3.15.2).
    FORFEIT_WIN = "+"
    #: ``−``: a loss without play; also both sides of ``−/−`` (002 §4.5.8).
    FORFEIT_LOSS = "-"
    #: ``+`` for the player left without a partner by an odd number (002 note а, 000 §3.18.2).
    BYE = "U"
    #: Known absence: not paired, scores 0 (000 §3.18.2, 004).
    ABSENT = "Z"
    #: Paired, no result yet (correspondence games run for months).
    PENDING = " "

    # Set on every member below the class: standings read them for every round of every
    # player, and a plain attribute is several times cheaper than comparing members.
    _played: bool
    _win: bool
    _loss: bool
    _plus: bool
    #: Index into :attr:`scoring.points.PointSystem.values`: 0 win, 1 draw, 2 loss, 3 nothing.
    points_index: int

    @property
    def is_played(self) -> bool:
        """Decided over the board (adjudicated games count as played, 000 §3.14.4)."""
        return self._played

    @property
    def is_unplayed(self) -> bool:
        """A plus, a minus, a bye or an absence: a result without a game."""
        return not self._played and self is not Result.PENDING

    @property
    def counts_as_win(self) -> bool:
        """Win, plus or bye: a plus is a win for places and coefficients (000 §3.15.2)."""
        return self._win

    @property
    def counts_as_loss(self) -> bool:
        """Loss, minus or absence: a minus is a loss (000 §3.15.2)."""
        return self._loss

    @property
    def is_plus(self) -> bool:
        """A win without play (``+`` or a bye): left out for classification norms (000 §3.15.2)."""
        return self._plus

    @property
    def symbol(self) -> str:
        """The crosstable symbol: 1, ½, 0, +, − (bye ``+``, absence ``0``, pending empty)."""
        return _SYMBOLS[self]


for _member in Result:
    _member._played = _member in (Result.WIN, Result.DRAW, Result.LOSS)
    _member._win = _member in (Result.WIN, Result.FORFEIT_WIN, Result.BYE)
    _member._loss = _member in (Result.LOSS, Result.FORFEIT_LOSS, Result.ABSENT)
    _member._plus = _member in (Result.FORFEIT_WIN, Result.BYE)
    _member.points_index = 0 if _member._win else 1 if _member is Result.DRAW else 2 if _member._loss else 3


_SYMBOLS = {
    Result.WIN: "1",
    Result.DRAW: "½",
    Result.LOSS: "0",
    Result.FORFEIT_WIN: "+",
    Result.FORFEIT_LOSS: "−",
    Result.BYE: "+",
    Result.ABSENT: "0",
    Result.PENDING: "",
}


class GameResult(enum.Enum):
    """The result of a game between two players, white's side first."""

    WHITE_WINS = "1-0"
    DRAW = "½-½"
    BLACK_WINS = "0-1"
    WHITE_FORFEIT_WIN = "+/-"
    BLACK_FORFEIT_WIN = "-/+"
    #: ``−/−``: both lose, e.g. neither sent the game record (002 §4.5.8).
    DOUBLE_FORFEIT = "-/-"
    PENDING = "*"

    _sides: tuple[Result, Result]

    @property
    def sides(self) -> tuple[Result, Result]:
        """White's and black's :class:`Result`."""
        return self._sides

    @classmethod
    def from_sides(cls, white: Result, black: Result) -> GameResult | None:
        """The game result with these two sides, or ``None`` if the sides disagree."""
        return _BY_SIDES.get((white, black))

    @classmethod
    def parse(cls, text: str) -> GameResult:
        """Read ``1-0``, ``1/2-1/2``, ``½-½``, ``0.5-0.5``, ``+/-``, ``-/+``, ``-/-``, ``*``."""
        normal = (
            text.strip()
            .replace("−", "-")
            .replace("1/2", "½")
            .replace("0.5", "½")
            .replace(":", "-")
            .replace("+-", "+/-")
            .replace("-+", "-/+")
            .replace("--", "-/-")
        )
        if normal in ("=", "½"):
            normal = "½-½"
        for member in cls:
            if member.value == normal:
                return member
        raise ValueError(
            f"unknown game result {text!r}; expected one of "
            + ", ".join(member.value for member in cls)
        )


_SIDES = {
    GameResult.WHITE_WINS: (Result.WIN, Result.LOSS),
    GameResult.DRAW: (Result.DRAW, Result.DRAW),
    GameResult.BLACK_WINS: (Result.LOSS, Result.WIN),
    GameResult.WHITE_FORFEIT_WIN: (Result.FORFEIT_WIN, Result.FORFEIT_LOSS),
    GameResult.BLACK_FORFEIT_WIN: (Result.FORFEIT_LOSS, Result.FORFEIT_WIN),
    GameResult.DOUBLE_FORFEIT: (Result.FORFEIT_LOSS, Result.FORFEIT_LOSS),
    GameResult.PENDING: (Result.PENDING, Result.PENDING),
}
_BY_SIDES = {sides: member for member, sides in _SIDES.items()}
for _game_result, _pair in _SIDES.items():
    _game_result._sides = _pair
