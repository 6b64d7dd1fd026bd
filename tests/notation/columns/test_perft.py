"""Perft from the initial position: the engine's table, checked by the independent oracle.

No published perft exists for column draughts; these numbers are the engine's, and the oracle
(column_oracle.py, written differently) reproduces them.  Distinct moves are counted by effect
(docs/columns.md); deeper figures and route counts are in docs/benchmarks/columns.md.
"""

from __future__ import annotations

import column_oracle as oracle
import pytest
from column_helpers import position

from notation.columns.position import ColumnPosition
from notation.rules import GameType

BASHNI = [7, 49, 302, 1469, 7482, 37908]
LASCA = [6, 6, 18, 54, 116, 324, 846, 2148, 5692, 13898]


@pytest.mark.parametrize(("depth", "expected"), list(enumerate(BASHNI, start=1)))
def test_bashni_perft(depth: int, expected: int) -> None:
    assert ColumnPosition.initial(GameType.COLUMN_RUSSIAN).perft(depth) == expected


@pytest.mark.parametrize(("depth", "expected"), list(enumerate(LASCA, start=1)))
def test_lasca_perft(depth: int, expected: int) -> None:
    assert ColumnPosition.initial(GameType.COLUMN_INTERNATIONAL).perft(depth) == expected


def test_reverse_forms_share_the_moves() -> None:
    assert ColumnPosition.initial(GameType.COLUMN_RUSSIAN_GIVEAWAY).perft(5) == BASHNI[4]
    assert ColumnPosition.initial(GameType.COLUMN_INTERNATIONAL_GIVEAWAY).perft(8) == LASCA[7]


def test_oracle_reproduces_the_bashni_table() -> None:
    start = oracle.initial(8)
    assert [oracle.perft(oracle.BASHNI, start, "w", d) for d in range(1, 6)] == BASHNI[:5]


def test_oracle_reproduces_the_lasca_table() -> None:
    start = oracle.initial(7)
    assert [oracle.perft(oracle.LASCA, start, "w", d) for d in range(1, 10)] == LASCA[:9]


def test_routes_to_the_same_effect_are_one_move_but_counted_apart_on_request() -> None:
    # The king may stop on d4 or c3 between e5 and b2: two routes, one resulting position.
    start = position("W:WKf6:Be5,b2")
    assert start.perft(1) == 1
    assert start.perft(1, distinct=False) == 2
    (move,) = start.legal_moves()
    assert {r.route for r in start.routes_of(move)} == {
        tuple(start.geometry.parse_square(s) for s in route)
        for route in (("f6", "d4", "a1"), ("f6", "c3", "a1"))
    }
