"""Properties of the ten-day and one-month periods over many dates (002 §4.1.12, §4.5.5)."""

from __future__ import annotations

import calendar
from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudication import Dispute, DisputeRuling, ProtestOutOfTime, Side, month_after

dates = st.dates(min_value=date(1990, 1, 1), max_value=date(2099, 12, 31))


@settings(max_examples=200, deadline=None)
@given(dates)
def test_one_month_keeps_the_day_or_ends_the_month(start: date) -> None:
    end = month_after(start)
    assert 28 <= (end - start).days <= 31
    next_month = (start.month % 12) + 1
    assert end.month == next_month
    last_day = calendar.monthrange(end.year, end.month)[1]
    assert end.day == min(start.day, last_day)


@settings(max_examples=100, deadline=None)
@given(dates)
def test_protest_on_day_ten_in_time_day_eleven_late(decided_on: date) -> None:
    case = (
        Dispute.open("d", game="g", complainant=Side.WHITE, subject="", filed_on=decided_on)
        .case.decide(DisputeRuling.UPHELD, decided_on, revision=0)
        .case
    )
    day_ten = decided_on + timedelta(days=10)
    assert case.protest("black", day_ten, revision=1).case.protests[-1].filed_on == day_ten
    try:
        case.protest("black", day_ten + timedelta(days=1), revision=1)
    except ProtestOutOfTime as refused:
        assert refused.due == day_ten
    else:
        raise AssertionError("a protest on day 11 was accepted")
