"""White and black: the two players of a correspondence game."""

from __future__ import annotations

import enum


class Side(enum.Enum):
    """The player of a game by colour; its value is the ledger's spelling."""

    WHITE = "white"
    BLACK = "black"

    @property
    def partner(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE
