"""Properties of any chart: totals never decrease, break days never count, break order is moot."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from timekeeping import (
    Break,
    BreakCalendar,
    Ledger,
    LetterEntry,
    NotToMoveError,
    Penalty,
    RefereeGrant,
    Side,
    chart_to_dict,
    chart_to_text,
    compute_chart,
    reply_clock,
    think_days,
)

START = date(2026, 2, 1)


@st.composite
def ledgers(draw: st.DrawFn) -> Ledger:
    """Alternating letters with arbitrary transit and think days, breaks and penalties."""
    count = draw(st.integers(min_value=1, max_value=30))
    letters = [LetterEntry(Side.WHITE, 1, sent=START + timedelta(days=draw(st.integers(0, 5))))]
    current = letters[0].sent
    for index in range(1, count):
        sender = Side.BLACK if index % 2 else Side.WHITE
        received = current + timedelta(days=draw(st.integers(0, 10)))
        current = received + timedelta(days=draw(st.integers(0, 40)))
        letters.append(LetterEntry(
            sender, index // 2 + 1, sent=current,
            received=None if draw(st.integers(0, 9)) == 0 else received,
            penalty_days_charged_to_partner=draw(st.sampled_from([0, 0, 0, 6])),
        ))
    breaks = [
        Break(draw(st.sampled_from(list(Side))), first, first + timedelta(days=draw(st.integers(0, 35))),
              notice_postmark=draw(st.sampled_from([None, first - timedelta(days=5), first + timedelta(days=3)])),
              referee_grant=draw(st.sampled_from([None, *RefereeGrant])))
        for first in draw(st.lists(st.dates(min_value=START, max_value=date(2028, 1, 1)), max_size=4))
    ]
    return Ledger(start_date=START, breaks=tuple(breaks), letters=tuple(letters),
                  end_date=draw(st.sampled_from([None, date(2027, 6, 1)])))


@settings(max_examples=150, deadline=None)
@given(ledgers())
def test_totals_never_decrease(ledger: Ledger) -> None:
    chart = compute_chart(ledger)
    white = [row.white_total for row in chart.rows]
    black = [row.black_total for row in chart.rows]
    assert white == sorted(white) and black == sorted(black)
    assert all(row.days >= 0 for row in chart.rows)


@settings(max_examples=150, deadline=None)
@given(ledgers(), st.randoms(use_true_random=False))
def test_result_independent_of_break_order(ledger: Ledger, random: object) -> None:
    shuffled = list(ledger.breaks)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    reordered = Ledger(start_date=ledger.start_date, end_date=ledger.end_date, breaks=tuple(shuffled),
                       letters=ledger.letters)
    first, second = compute_chart(ledger), compute_chart(reordered)
    assert first.rows == second.rows
    assert first.break_calendar.intervals() == second.break_calendar.intervals()
    assert sorted(map(str, first.errors)) == sorted(map(str, second.errors))


@settings(max_examples=150, deadline=None)
@given(ledgers())
def test_a_break_day_is_never_counted(ledger: Ledger) -> None:
    chart = compute_chart(ledger)
    calendar = chart.break_calendar
    for row in chart.rows:
        if row.received is None or row.sent <= row.received:
            continue
        free_days = sum(1 for offset in range(1, (row.sent - row.received).days + 1)
                        if row.received + timedelta(days=offset) not in calendar)
        assert row.days <= free_days
        if ledger.end_date is None and row.received >= ledger.start_date + timedelta(days=3):
            assert row.days == free_days


@settings(deadline=None)  # no timing in tests: a loaded CI machine must not fail it
@given(st.dates(min_value=date(2000, 1, 1), max_value=date(2030, 1, 1)), st.integers(0, 60),
       st.lists(st.tuples(st.integers(-30, 90), st.integers(0, 40)), max_size=5))
def test_interval_counting_matches_day_by_day(received: date, span: int, raw: list[tuple[int, int]]) -> None:
    intervals = [(received + timedelta(days=offset), received + timedelta(days=offset + length))
                 for offset, length in raw]
    calendar = BreakCalendar.from_intervals(intervals)
    sent = received + timedelta(days=span)
    by_day = sum(1 for offset in range(1, span + 1)
                 if not any(first <= received + timedelta(days=offset) <= last for first, last in intervals))
    assert think_days(received, sent, calendar) == by_day


DAYS = st.dates(min_value=date(2025, 1, 1), max_value=date(2028, 12, 31))


@st.composite
def arbitrary_ledgers(draw: st.DrawFn) -> Ledger:
    """Well-typed ledgers with anything in them: letters out of order, dates reversed, moves
    going backwards, penalties after missing letters, overlong and reversed breaks."""
    letters = draw(st.lists(st.builds(
        LetterEntry, sender=st.sampled_from(list(Side)), move=st.integers(1, 60), sent=DAYS,
        received=st.none() | DAYS, partner_sent_postmark=st.none() | DAYS, corrects_partner=st.booleans(),
        uncounted_moves=st.integers(0, 5), penalty_days_charged_to_partner=st.sampled_from([0, 0, 6, 3, 12]),
        penalty_rule=st.sampled_from(["002 §4.2.11", "002 §4.3.3"]), repeat_sent=st.none() | DAYS,
    ), max_size=12))
    breaks = draw(st.lists(st.builds(
        Break, player=st.sampled_from(list(Side)), first_day=DAYS, last_day=DAYS,
        notice_postmark=st.none() | DAYS, referee_grant=st.none() | st.sampled_from(list(RefereeGrant))),
        max_size=4))
    penalties = draw(st.lists(st.builds(
        Penalty, player=st.sampled_from(list(Side)), days=st.integers(1, 10), after_letter=st.integers(0, 15)),
        max_size=3))
    sheets = draw(st.dictionaries(st.sampled_from(list(Side)), DAYS))
    return Ledger(start_date=draw(DAYS), end_date=draw(st.none() | DAYS), start_sheet_received=sheets,
                  breaks=tuple(breaks), letters=tuple(letters), penalties=tuple(penalties))


@settings(max_examples=100, deadline=None)
@given(arbitrary_ledgers(), DAYS)
def test_any_ledger_gives_a_chart_never_an_exception(ledger: Ledger, on: date) -> None:
    chart = compute_chart(ledger)
    assert len(chart.rows) == len(ledger.letters)
    assert all(row.days >= 0 for row in chart.rows)
    chart_to_dict(chart)
    chart_to_text(chart)
    for player in Side:
        try:
            clock = reply_clock(ledger, player, chart=chart)
        except NotToMoveError:
            continue
        clock.days_left(on)
        safe = clock.last_safe_reply_date()
        assert safe is None or clock.days_left(safe) >= 0 or (ledger.end_date is not None and safe == ledger.end_date)
