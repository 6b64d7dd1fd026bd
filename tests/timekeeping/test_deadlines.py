"""Due dates (002 §4.3.4) and the clock of the player to move (002 §4.3.5)."""

from __future__ import annotations

from datetime import date

import pytest

from timekeeping import (
    NO_BREAKS,
    Break,
    BreakCalendar,
    Ledger,
    LetterEntry,
    NotToMoveError,
    Penalty,
    Side,
    compute_chart,
    days_left,
    first_move_query_date,
    last_safe_reply_date,
    repeat_due,
    reply_clock,
)

W, B = Side.WHITE, Side.BLACK
START = date(2026, 2, 1)


def test_repeat_due_thirty_days_after_dispatch() -> None:
    assert repeat_due(date(2026, 8, 22)) == date(2026, 9, 21)
    assert repeat_due(date(2026, 1, 31), NO_BREAKS) == date(2026, 3, 2)


def test_repeat_due_skips_break_days() -> None:
    autumn = BreakCalendar.from_intervals([(date(1997, 10, 10), date(1997, 10, 25))])
    assert repeat_due(date(1997, 10, 1), autumn) == date(1997, 11, 16)


def test_first_move_query_date() -> None:
    assert first_move_query_date(START) == date(2026, 3, 3)
    ledger = Ledger(start_date=START, breaks=(Break(W, date(2026, 2, 10), date(2026, 2, 19), START),))
    assert first_move_query_date(START, compute_chart(ledger).break_calendar) == date(2026, 3, 13)


def two_letters(**fields: object) -> Ledger:
    return Ledger(start_date=START, letters=(
        LetterEntry(W, 1, sent=START),
        LetterEntry(B, 1, received=date(2026, 2, 4), sent=date(2026, 2, 7)),
    ), **fields)  # type: ignore[arg-type]


def test_days_left_for_the_player_to_move() -> None:
    ledger = two_letters()
    received = date(2026, 2, 11)
    assert days_left(ledger, W, on=received, received=received) == 50
    assert days_left(ledger, W, on=date(2026, 2, 21), received=received) == 40
    assert days_left(ledger, W, on=date(2026, 4, 3), received=received) == -1


def test_last_safe_reply_date() -> None:
    ledger = two_letters()
    assert last_safe_reply_date(ledger, W, received=date(2026, 2, 11)) == date(2026, 4, 2)


def test_last_safe_reply_date_includes_break_days_after_the_budget() -> None:
    # Without breaks the 50th counted day after 11.02 is 02.04. A break 29.03-07.04 moves it
    # ten days on, to 12.04. A break 03.04-12.04 right after it leaves 02.04 the 50th day, but
    # replying on any day of the break costs nothing more: 12.04 is still safe.
    ledger = two_letters(breaks=(Break(W, date(2026, 3, 29), date(2026, 4, 7), date(2026, 3, 1)),))
    assert last_safe_reply_date(ledger, W, received=date(2026, 2, 11)) == date(2026, 4, 12)
    ledger = two_letters(breaks=(Break(W, date(2026, 4, 3), date(2026, 4, 12), date(2026, 3, 1)),))
    assert last_safe_reply_date(ledger, W, received=date(2026, 2, 11)) == date(2026, 4, 12)


def test_penalties_reduce_the_budget_and_none_when_over() -> None:
    ledger = two_letters(penalties=(Penalty(W, 6, after_letter=2),))
    clock = reply_clock(ledger, W, received=date(2026, 2, 11))
    assert (clock.total, clock.limit, clock.next_counted_moves) == (6, 50, 2)
    assert clock.last_safe_reply_date() == date(2026, 3, 27)
    over = two_letters(penalties=(Penalty(W, 51, after_letter=2),))
    assert last_safe_reply_date(over, W, received=date(2026, 2, 11)) is None


def test_end_of_play_caps_the_clock() -> None:
    ledger = two_letters(end_date=date(2026, 3, 1))
    received = date(2026, 2, 11)
    assert last_safe_reply_date(ledger, W, received=received) == date(2026, 3, 1)
    assert days_left(ledger, W, on=date(2026, 6, 1), received=received) == 50 - 18


def test_receipt_estimated_when_unknown() -> None:
    # Transit of letter 2 was 3 days (01.02 -> 04.02): black's 07.02 arrives 10.02.
    clock = reply_clock(two_letters(), W)
    assert clock.counting_from == date(2026, 2, 10)


def test_opening_move_counts_from_the_start() -> None:
    ledger = Ledger(start_date=START, start_sheet_received={W: date(2026, 2, 5)})
    clock = reply_clock(ledger, W)
    assert clock.counting_from == date(2026, 2, 6) and clock.last_safe_reply_date() == date(2026, 3, 28)


def test_player_waiting_is_not_to_move() -> None:
    with pytest.raises(NotToMoveError, match="black is not to move"):
        reply_clock(Ledger(start_date=START), B)
    with pytest.raises(NotToMoveError, match="black is not to move"):
        reply_clock(two_letters(), B)
