"""The time control (002 §4.3.1, §4.3.5) and the time fraction written in every letter."""

from __future__ import annotations

from datetime import date

import pytest

from timekeeping import (
    LIMIT_TABLE_MOVES,
    Ledger,
    LetterEntry,
    Side,
    TimeControl,
    TimeControlError,
    TimeFraction,
    TimeFractionError,
    compute_chart,
)


@pytest.mark.parametrize(("counted", "limit"), [(0, 50), (1, 50), (10, 50), (11, 100), (20, 100), (21, 150)])
def test_rulebook_limits(counted: int, limit: int) -> None:
    assert TimeControl().limit(counted) == limit


def test_other_control() -> None:
    assert [TimeControl(days=30, moves=10).limit(n) for n in (9, 10, 11)] == [30, 30, 60]
    assert TimeControl(days=7, moves=1).limit(3) == 21


@pytest.mark.parametrize(("days", "moves"), [(0, 10), (50, 0), (-5, 10)])
def test_empty_control_rejected(days: int, moves: int) -> None:
    with pytest.raises(TimeControlError, match="at least 1 day and 1 move"):
        TimeControl(days, moves)


def test_fraction_round_trip() -> None:
    assert TimeFraction.parse(" 12 / 7 ") == TimeFraction(12, 7)
    assert str(TimeFraction(12, 7)) == "12/7"


@pytest.mark.parametrize("text", ["12", "12/", "/7", "12/7/3", "-1/7", "12.5/7", "двенадцать/7"])
def test_bad_fraction_rejected(text: str) -> None:
    with pytest.raises(TimeFractionError, match="002 §4.3.1") as raised:
        TimeFraction.parse(text)
    assert raised.value.text == text


def test_limit_table_agrees_and_long_games_fall_back() -> None:
    control = TimeControl(days=30, moves=7)
    table = control.limit_table()
    assert len(table) == LIMIT_TABLE_MOVES
    assert all(table[moves] == control.limit(moves) for moves in range(LIMIT_TABLE_MOVES))
    long_game = Ledger(start_date=date(2026, 2, 1), control=control,
                       letters=(LetterEntry(Side.WHITE, 300, sent=date(2026, 2, 1)),))
    assert compute_chart(long_game).rows[0].limit == 30 * 43  # ceil(300 / 7) periods
