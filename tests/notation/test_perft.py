"""Perft from the initial position against the published tables (Rein Halbersma's DCTL).

Depths that take up to about a second run here; Russian 9 and international 8 are in
benchmarks/bench_notation.py.
"""

from __future__ import annotations

import pytest

from notation.position import Position
from notation.rules import GameType

RUSSIAN = [7, 49, 302, 1469, 7482, 37986, 190146, 929899]
INTERNATIONAL = [9, 81, 658, 4265, 27117, 167140, 1049442]


@pytest.mark.parametrize(("depth", "expected"), list(enumerate(RUSSIAN, start=1)))
def test_russian_perft_distinct_moves(depth: int, expected: int) -> None:
    assert Position.initial(GameType.RUSSIAN).perft(depth) == expected


def test_russian_perft_counts_duplicate_routes_when_asked() -> None:
    assert Position.initial(GameType.RUSSIAN).perft(8, distinct=False) == 929905


@pytest.mark.parametrize(("depth", "expected"), list(enumerate(INTERNATIONAL, start=1)))
def test_international_perft(depth: int, expected: int) -> None:
    assert Position.initial(GameType.INTERNATIONAL).perft(depth) == expected


def test_giveaway_shares_russian_moves() -> None:
    assert Position.initial(GameType.GIVEAWAY).perft(6) == 37986
