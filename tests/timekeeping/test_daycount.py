"""Think time of one reply: 002 §4.3.1 and the worked examples of 002 §4.4.3."""

from __future__ import annotations

from datetime import date

import pytest

from timekeeping import NO_BREAKS, BreakCalendar, think_days

AUTUMN_97 = BreakCalendar.from_intervals([(date(1997, 10, 10), date(1997, 10, 25))])


@pytest.mark.parametrize(
    ("received", "sent", "expected"),
    [
        (date(1997, 10, 8), date(1997, 10, 27), 3),   # 002 §4.4.3: 27 - 8 - 16 = 3
        (date(1997, 10, 8), date(1997, 10, 20), 1),   # 002 §4.4.3: 9 - 8 = 1 (sent during the break)
        (date(1997, 10, 10), date(1997, 10, 26), 1),  # 002 §4.4.3: 26 - 25 = 1 (received during it)
    ],
)
def test_worked_examples_of_002_4_4_3(received: date, sent: date, expected: int) -> None:
    assert think_days(received, sent, AUTUMN_97) == expected


def test_same_day_reply_costs_nothing() -> None:
    # 002 §4.3.1: "При совпадении дат получения и ответа время не начисляется".
    assert think_days(date(2026, 3, 1), date(2026, 3, 1)) == 0


def test_sample_chart_of_002_4_3_6() -> None:
    # Петров: received 01.03, sent 03.03 -> 2; received 22.03, sent 26.03 -> 4.
    assert think_days(date(1997, 3, 1), date(1997, 3, 3)) == 2
    assert think_days(date(1997, 3, 22), date(1997, 3, 26)) == 4
    # Седов: 12.03 -> 15.03 is 3; 10.04 -> 11.04 is 1.
    assert think_days(date(1997, 3, 12), date(1997, 3, 15)) == 3
    assert think_days(date(1997, 4, 10), date(1997, 4, 11)) == 1


def test_break_days_are_a_closed_interval() -> None:
    # 002 §4.4.3: «с 10.10.97 по 25.10.97» is 16 days.
    assert AUTUMN_97.counted_days(date(1997, 10, 9).toordinal(), date(1997, 10, 25).toordinal()) == 0
    assert date(1997, 10, 10) in AUTUMN_97 and date(1997, 10, 25) in AUTUMN_97
    assert date(1997, 10, 9) not in AUTUMN_97 and date(1997, 10, 26) not in AUTUMN_97


def test_reversed_dates_count_nothing() -> None:
    assert think_days(date(2026, 3, 5), date(2026, 3, 1)) == 0


def test_overlapping_breaks_of_both_players_remove_each_day_once() -> None:
    calendar = BreakCalendar.from_intervals([
        (date(2026, 5, 1), date(2026, 5, 10)),
        (date(2026, 5, 5), date(2026, 5, 20)),
        (date(2026, 5, 21), date(2026, 5, 22)),
    ])
    assert calendar.intervals() == [(date(2026, 5, 1), date(2026, 5, 22))]
    assert think_days(date(2026, 4, 30), date(2026, 5, 25), calendar) == 3


def test_nth_counted_day_skips_breaks() -> None:
    start = date(1997, 10, 1).toordinal()
    assert date.fromordinal(NO_BREAKS.nth_counted_day(start, 30)) == date(1997, 10, 31)
    assert date.fromordinal(AUTUMN_97.nth_counted_day(start, 30)) == date(1997, 11, 16)
    assert date.fromordinal(AUTUMN_97.nth_counted_day(start, 9)) == date(1997, 10, 26)
    with pytest.raises(ValueError, match="at least 1"):
        AUTUMN_97.nth_counted_day(start, 0)
