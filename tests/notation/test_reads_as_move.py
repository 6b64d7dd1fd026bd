"""`notation.written.reads_as_move`: which tokens of a letter can be moves on a given board."""

from __future__ import annotations

import pytest

from notation.geometry import BOARD_7X7, BOARD_8X8, BOARD_10X10
from notation.written import reads_as_move


@pytest.mark.parametrize(
    "text", ["32-28", "19:28", "19x28", "47:24:8:17:6", "46-41", "c3-d4", "a1-j10", "32 - 28"]
)
def test_moves_of_the_100_square_board(text: str) -> None:
    assert reads_as_move(text, BOARD_10X10)


@pytest.mark.parametrize(
    "text",
    [
        "18:30",  # a clock time: 18 and 30 are not on one diagonal
        "2:0",  # a score: 0 is no square
        "3-1",  # two squares of one row
        "12-4",  # a house and flat number
        "10-10-97",  # a date: 97 is off the board, 10-10 goes nowhere
        "51-46",  # 51 is off the board
        "cd4",  # short notation is a written move but not a full one
        "c3-28",  # mixes algebraic and numeric squares
        "",
        "hello",
    ],
)
def test_numbers_that_are_not_moves_on_the_100_square_board(text: str) -> None:
    assert not reads_as_move(text, BOARD_10X10)


def test_lasca_numbering_from_white_side() -> None:
    assert reads_as_move("9-13", BOARD_7X7)
    assert reads_as_move("17:9", BOARD_7X7)
    assert reads_as_move("9:17:25", BOARD_7X7)
    assert not reads_as_move("32-28", BOARD_7X7)  # beyond the 25 squares of Lasca
    assert not reads_as_move("12-7", BOARD_7X7)


def test_russian_board() -> None:
    assert reads_as_move("c3-d4", BOARD_8X8)
    assert reads_as_move("c3:e5:g3", BOARD_8X8)
    assert not reads_as_move("c3-c5", BOARD_8X8)  # along a file, no piece goes so
    assert not reads_as_move("z9-a1", BOARD_8X8)
