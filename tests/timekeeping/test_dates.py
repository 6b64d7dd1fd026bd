"""Dates as players write them, and arrival timestamps in the tournament's time zone."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from timekeeping import DateFormatError, NaiveDatetimeError, local_date, parse_player_date


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10.10.97", date(1997, 10, 10)),      # the rulebook's own example, 002 §4.4.3
        ("10.10.1997", date(1997, 10, 10)),
        ("1997-10-10", date(1997, 10, 10)),
        ("1.3.26", date(2026, 3, 1)),
        ("01/03/2026", date(2026, 3, 1)),
        (" 05.02.26 ", date(2026, 2, 5)),
        ("25.10.97г.", date(1997, 10, 25)),
        ("31.12.49", date(2049, 12, 31)),      # window without a reference: 00-49 -> 20xx
        ("01.01.50", date(1950, 1, 1)),        # 50-99 -> 19xx
    ],
)
def test_accepted_forms(text: str, expected: date) -> None:
    assert parse_player_date(text) == expected


def test_day_comes_first() -> None:
    assert parse_player_date("03.04.26") == date(2026, 4, 3)


def test_year_inferred_from_the_letter() -> None:
    assert parse_player_date("10.10", reference=date(1997, 10, 2)) == date(1997, 10, 10)
    # Written in a letter of 3 January: 28 December is last year's, 5 January this year's.
    assert parse_player_date("28.12", reference=date(2027, 1, 3)) == date(2026, 12, 28)
    assert parse_player_date("05.01", reference=date(2026, 12, 30)) == date(2027, 1, 5)


def test_two_digit_year_nearest_the_letter() -> None:
    assert parse_player_date("10.10.97", reference=date(2026, 1, 1)) == date(1997, 10, 10)
    assert parse_player_date("10.10.49", reference=date(2150, 1, 1)) == date(2149, 10, 10)
    assert parse_player_date("30.12.99", reference=date(2000, 1, 2)) == date(1999, 12, 30)


@pytest.mark.parametrize("text", ["31.02.26", "29.02.2027", "00.01.26", "32.01.2026", "10.13.97", "2026-02-30"])
def test_impossible_dates_rejected(text: str) -> None:
    with pytest.raises(DateFormatError, match="no such day") as raised:
        parse_player_date(text)
    assert raised.value.text == text


@pytest.mark.parametrize("text", ["", "10", "Oct 10 1997", "10-10-97", "10.10.997", "tomorrow", "10.10.97 12:00"])
def test_unreadable_dates_rejected(text: str) -> None:
    with pytest.raises(DateFormatError, match="day first"):
        parse_player_date(text)


def test_missing_year_without_reference_rejected() -> None:
    with pytest.raises(DateFormatError, match="year is missing"):
        parse_player_date("10.10")


def test_day_without_year_must_lie_near_the_letter() -> None:
    assert parse_player_date("29.02", reference=date(2028, 3, 1)) == date(2028, 2, 29)
    with pytest.raises(DateFormatError, match="half a year"):
        parse_player_date("29.02", reference=date(2027, 3, 1))
    with pytest.raises(DateFormatError, match="no such day"):
        parse_player_date("30.02", reference=date(2027, 3, 1))


def test_local_date_uses_the_tournament_zone() -> None:
    late_evening_utc = datetime(2026, 3, 1, 22, 30, tzinfo=UTC)
    assert local_date(late_evening_utc, "Europe/Moscow") == date(2026, 3, 2)
    assert local_date(late_evening_utc, ZoneInfo("America/New_York")) == date(2026, 3, 1)


def test_naive_timestamp_rejected() -> None:
    with pytest.raises(NaiveDatetimeError, match="no time zone"):
        local_date(datetime(2026, 3, 1, 12, 0), "Europe/Moscow")
