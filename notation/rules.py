"""Game types and the rule flags that distinguish them.

One engine plays every game type; a :class:`RuleSet` tells it the board, how men move and
capture, whether the majority rule applies, whether a man promotes in the middle of a capture,
and whether the goal is direct or reversed (giveaway).  Names follow the project glossary:
``GameType.RUSSIAN``, ``INTERNATIONAL``, ``GIVEAWAY`` — never "variant", which in this project
means a conditional line offered in a letter (002 §4.2.7).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from notation.geometry import BOARD_7X7, BOARD_8X8, BOARD_10X10, Geometry


class Color(enum.Enum):
    WHITE = "white"
    BLACK = "black"

    @property
    def opponent(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE


class Goal(enum.Enum):
    """What the side that cannot move has achieved."""

    DIRECT = "direct"
    """No legal move (no pieces, or all blocked) loses."""
    REVERSE = "reverse"
    """No legal move wins: giveaway (поддавки) and the reverse column games."""


class GameType(enum.Enum):
    """Game types played by correspondence (002 §4.1.4).  Values are CLI/config names."""

    RUSSIAN = "russian"
    GIVEAWAY = "giveaway"
    INTERNATIONAL = "international"
    # Column draughts (002 §4.1.4), direct and reverse; member names as corrmail.models.enums.
    # Engine and rule options: notation.columns.
    COLUMN_RUSSIAN = "bashni"
    COLUMN_RUSSIAN_GIVEAWAY = "bashni-reverse"
    COLUMN_INTERNATIONAL = "lasca"
    COLUMN_INTERNATIONAL_GIVEAWAY = "lasca-reverse"

    @property
    def is_column(self) -> bool:
        """Column draughts: play with :class:`notation.columns.ColumnPosition`."""
        return self in _COLUMN_TYPES

    @property
    def pdn_code(self) -> str:
        """The PDN ``GameType`` tag value.

        PDN 3.0 numbers Russian draughts 25 and international 20.  Giveaway has no number of
        its own: it is written as Russian (``25``) with the extra header ``[Rules "giveaway"]``,
        which our reader honours (docs/notation.md).
        """
        return _PDN_CODES[self]

    @property
    def rules(self) -> RuleSet:
        return _RULES[self]


_PDN_CODES = {GameType.RUSSIAN: "25", GameType.GIVEAWAY: "25", GameType.INTERNATIONAL: "20"}
# PDN has no number for column draughts: Russian's board and notation, named by [Rules "…"].
_PDN_CODES.update({GameType.COLUMN_RUSSIAN: "25", GameType.COLUMN_RUSSIAN_GIVEAWAY: "25",
                   GameType.COLUMN_INTERNATIONAL: "25,W,7,7,N0,0",
                   GameType.COLUMN_INTERNATIONAL_GIVEAWAY: "25,W,7,7,N0,0"})


@dataclass(frozen=True)
class RuleSet:
    """Rule flags for one game type.

    ``men_capture_backwards``: a man may jump backwards (Russian, international).
    ``flying_kings``: kings move and capture any distance along a free diagonal.
    ``majority_capture``: among captures, only those taking the most pieces are legal (FMJD).
    ``promote_during_capture``: a man reaching the last row during a capture becomes a king
    at once and continues capturing as a king (Russian); otherwise it promotes only if the
    move ends there (international).
    ``goal``: direct, or reverse (the side left without a legal move wins).
    ``men_rows``: rows of men each side starts with.
    """

    game_type: GameType
    geometry: Geometry
    men_capture_backwards: bool
    flying_kings: bool
    majority_capture: bool
    promote_during_capture: bool
    goal: Goal
    men_rows: int


_RUSSIAN = RuleSet(
    game_type=GameType.RUSSIAN,
    geometry=BOARD_8X8,
    men_capture_backwards=True,
    flying_kings=True,
    majority_capture=False,
    promote_during_capture=True,
    goal=Goal.DIRECT,
    men_rows=3,
)
_RULES = {
    GameType.RUSSIAN: _RUSSIAN,
    GameType.GIVEAWAY: RuleSet(
        game_type=GameType.GIVEAWAY,
        geometry=BOARD_8X8,
        men_capture_backwards=True,
        flying_kings=True,
        majority_capture=False,
        promote_during_capture=True,
        goal=Goal.REVERSE,
        men_rows=3,
    ),
    GameType.INTERNATIONAL: RuleSet(
        game_type=GameType.INTERNATIONAL,
        geometry=BOARD_10X10,
        men_capture_backwards=True,
        flying_kings=True,
        majority_capture=True,
        promote_during_capture=False,
        goal=Goal.DIRECT,
        men_rows=4,
    ),
}
# Movement flags of the column games' default readings; their options live in notation.columns.
_COLUMN_TYPES = {
    # game type: (Bashni on 8x8 rather than Lasca on 7x7, goal)
    GameType.COLUMN_RUSSIAN: (True, Goal.DIRECT),
    GameType.COLUMN_RUSSIAN_GIVEAWAY: (True, Goal.REVERSE),
    GameType.COLUMN_INTERNATIONAL: (False, Goal.DIRECT),
    GameType.COLUMN_INTERNATIONAL_GIVEAWAY: (False, Goal.REVERSE),
}
for _type, (_bashni, _goal) in _COLUMN_TYPES.items():
    _RULES[_type] = RuleSet(
        game_type=_type,
        geometry=BOARD_8X8 if _bashni else BOARD_7X7,
        men_capture_backwards=_bashni,
        flying_kings=_bashni,
        majority_capture=False,
        promote_during_capture=_bashni,
        goal=_goal,
        men_rows=3,
    )


def parse_game_type(text: str) -> GameType:
    """``GameType`` from its CLI name (``russian``, ``giveaway``, ``international``)."""
    try:
        return GameType(text.strip().lower())
    except ValueError:
        names = ", ".join(t.value for t in GameType)
        raise UnknownGameTypeError(text, names) from None


class UnknownGameTypeError(ValueError):
    def __init__(self, text: str, names: str) -> None:
        super().__init__(f"unknown game type {text!r}; expected one of {names}")
        self.text = text
