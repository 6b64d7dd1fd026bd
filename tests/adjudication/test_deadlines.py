"""Deadline arithmetic: calendar days, one month, time zones (002 §4.1.12, §4.5.2, §4.5.5)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from adjudication.deadlines import (
    Awaiting,
    Deadline,
    days_after,
    local_date,
    month_after,
    years_after,
)
from adjudication.errors import NaiveTimestamp


def test_ten_days_from_receipt_end_on_day_ten() -> None:
    # Received 1 March: the ten days are 2–11 March.
    assert days_after(date(2025, 3, 1), 10) == date(2025, 3, 11)


def test_ten_days_cross_a_month_end() -> None:
    assert days_after(date(2025, 1, 25), 10) == date(2025, 2, 4)


def test_ten_days_cross_a_leap_day() -> None:
    assert days_after(date(2028, 2, 25), 10) == date(2028, 3, 6)
    assert days_after(date(2027, 2, 25), 10) == date(2027, 3, 7)


@pytest.mark.parametrize(
    ("start", "end"),
    [
        (date(2025, 1, 15), date(2025, 2, 15)),
        (date(2025, 1, 31), date(2025, 2, 28)),
        (date(2028, 1, 31), date(2028, 2, 29)),
        (date(2028, 2, 29), date(2028, 3, 29)),
        (date(2025, 3, 31), date(2025, 4, 30)),
        (date(2025, 4, 30), date(2025, 5, 30)),
        (date(2025, 12, 31), date(2026, 1, 31)),
    ],
)
def test_one_month_ends_on_the_same_day_number_or_the_months_last(start: date, end: date) -> None:
    assert month_after(start) == end


def test_three_years_from_a_leap_day_fall_on_28_february() -> None:
    assert years_after(date(2028, 2, 29), 3) == date(2031, 2, 28)


def test_deadline_day_itself_is_in_time() -> None:
    deadline = Deadline(date(2025, 3, 11), Awaiting.PLAYERS, "protest", "002 §4.1.12")
    assert not deadline.is_overdue(date(2025, 3, 11))
    assert deadline.is_overdue(date(2025, 3, 12))
    assert deadline.days_left(date(2025, 3, 9)) == 2
    assert deadline.days_left(date(2025, 3, 14)) == -3


def test_local_date_uses_the_tournament_time_zone() -> None:
    late_evening_utc = datetime(2025, 3, 10, 22, 30, tzinfo=UTC)
    assert local_date(late_evening_utc, "Europe/Moscow") == date(2025, 3, 11)
    assert local_date(late_evening_utc, ZoneInfo("America/New_York")) == date(2025, 3, 10)
    assert local_date(late_evening_utc, "UTC") == date(2025, 3, 10)


def test_local_date_refuses_a_naive_timestamp() -> None:
    naive = datetime(2025, 3, 10, 22, 30)
    with pytest.raises(NaiveTimestamp) as raised:
        local_date(naive, "Europe/Moscow")
    assert raised.value.value == naive
