"""White and black: the two players of a correspondence game."""

from __future__ import annotations

import enum


class Side(enum.Enum):
    """The player of a game by colour; its value is the ledger's spelling."""

    WHITE = "white"
    BLACK = "black"

    @property
    def partner(self) -> Side:
        # Module globals, not ``Side.BLACK``: a member looked up on the class goes through the
        # enum machinery and costs several times more, once per penalty of an archive's charts.
        return _BLACK if self is _WHITE else _WHITE


_WHITE, _BLACK = Side.WHITE, Side.BLACK
