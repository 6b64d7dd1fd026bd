"""The crosstable as data, for the web pages and exports.

A :class:`Crosstable` has the players in table order and, for each pair, the list of their games
(two in a double round robin) as :class:`Cell` entries with the crosstable symbol (``1``, ``½``,
``0``, ``+``, ``−``), the colour, and whether the game was adjudicated (000 §3.14.4) or annulled.
``rounds`` gives the same games by round, which is how a Swiss table is printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.model import Colour, PlayerRound, Tournament


@dataclass(frozen=True)
class Cell:
    round: int
    opponent: int | None
    symbol: str
    colour: Colour | None
    adjudicated: bool = False
    annulled: bool = False

    def as_dict(self) -> dict[str, object]:
        return {
            "round": self.round,
            "opponent": self.opponent,
            "symbol": self.symbol,
            "colour": self.colour.value if self.colour else None,
            "adjudicated": self.adjudicated,
            "annulled": self.annulled,
        }


@dataclass(frozen=True)
class Crosstable:
    order: tuple[int, ...]
    matrix: tuple[tuple[tuple[Cell, ...], ...], ...]
    rounds: tuple[tuple[Cell | None, ...], ...]
    points: tuple[float, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "order": list(self.order),
            "points": list(self.points),
            "matrix": [[[cell.as_dict() for cell in cells] for cells in row] for row in self.matrix],
            "rounds": [[cell.as_dict() if cell else None for cell in row] for row in self.rounds],
        }


def crosstable(tournament: Tournament, order: Sequence[int] | None = None) -> Crosstable:
    """The crosstable with rows and columns in ``order`` (start numbers; default: by start number)."""
    rows = tuple(order) if order is not None else tuple(sorted(p.start_no for p in tournament.players))
    last_round = tournament.last_round
    matrix = []
    by_round = []
    for player in rows:
        # Each entry's cell is made once and filed under its opponent: the matrix then reads
        # each pairing's cells directly instead of scanning the player's entries per column.
        by_opponent: dict[int | None, list[Cell]] = {}
        round_cells: list[Cell | None] = [None] * last_round
        for entry in tournament.history[player]:
            cell = _cell(entry)
            by_opponent.setdefault(entry.opponent, []).append(cell)
            round_cells[entry.round - 1] = cell
        matrix.append(tuple(tuple(by_opponent.get(other, ())) for other in rows))
        by_round.append(tuple(round_cells))
    return Crosstable(rows, tuple(matrix), tuple(by_round), tuple(tournament.scores[p] for p in rows))


def _cell(entry: PlayerRound) -> Cell:
    return Cell(entry.round, entry.opponent, entry.result.symbol, entry.colour, entry.adjudicated, entry.annulled)
