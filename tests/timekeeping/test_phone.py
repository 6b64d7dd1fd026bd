"""Moves given by telephone (002 §4.1.1 в, §4.1.2): the three dates of 002 §4.3.1 and think time.

The reading is in docs/rules/timekeeping.md, *Moves given by telephone*: a call has no postmark,
the move is received the day it is given, and think time runs from the day after the call that
brought the partner's move up to one's own call.
"""

from __future__ import annotations

from datetime import date

from timekeeping import (
    Ledger,
    LetterEntry,
    Side,
    average_transit_days,
    compute_chart,
    ledger_from_dict,
    ledger_to_dict,
    phone_reply,
)

W, B = Side.WHITE, Side.BLACK


def d(day: int, month: int = 3) -> date:
    return date(2026, month, day)


def test_three_dates_of_a_phone_move() -> None:
    # Black hears white's move in white's call of 3 March and phones his reply on 5 March.
    entry = phone_reply(B, 1, called_on=d(5), partner_called_on=d(3), moves_text="f6-g5")
    assert (entry.partner_sent_postmark, entry.received, entry.sent) == (None, d(3), d(5))
    assert entry.by_phone and not entry.corrects_partner


def test_think_time_of_a_game_by_telephone() -> None:
    ledger = Ledger(start_date=d(1), letters=(
        phone_reply(W, 1, called_on=d(3), partner_called_on=None),
        phone_reply(B, 1, called_on=d(3), partner_called_on=d(3)),   # answered in the same call's day
        phone_reply(W, 2, called_on=d(10), partner_called_on=d(3)),
        phone_reply(B, 2, called_on=d(12), partner_called_on=d(10)),
    ))
    chart = compute_chart(ledger)
    # 002 §4.3.2: the start day is free; §4.3.1: coinciding dates cost nothing.
    assert [row.days for row in chart.rows] == [2, 0, 7, 2]
    assert (chart.totals.white, chart.totals.black) == (9, 2)
    assert list(chart.errors) == [] and list(chart.notes) == []


def test_a_call_is_no_letter_in_the_post_for_the_average_transit() -> None:
    # A mixed game: two postal letters took 4 and 2 days; the calls took none, and are not
    # letters in the post (002 §4.3.3 "средний пробег писем"), so the average stays 3 days.
    letters = (
        LetterEntry(W, 1, sent=d(2)),
        LetterEntry(B, 1, sent=d(8), received=d(6)),                        # 4 days by post
        phone_reply(W, 2, called_on=d(12), partner_called_on=d(10)),         # post took 2 days
        phone_reply(B, 2, called_on=d(14), partner_called_on=d(12)),         # heard in the call
        LetterEntry(W, 3, sent=d(20), received=d(14)),                       # heard in the call
        LetterEntry(B, 3, sent=d(30), received=None),                        # omitted: estimated
    )
    ledger = Ledger(start_date=d(1), letters=letters)
    assert average_transit_days(ledger) == 3
    chart = compute_chart(ledger)
    assert chart.rows[5].received == d(23)


def test_an_omitted_receipt_of_a_phone_move_is_the_day_of_the_call() -> None:
    letters = (
        LetterEntry(W, 1, sent=d(2)),
        LetterEntry(B, 1, sent=d(12), received=d(7)),                        # 5 days by post
        phone_reply(W, 2, called_on=d(15), partner_called_on=d(12)),
        phone_reply(B, 2, called_on=d(20), partner_called_on=None),          # date not stated
    )
    # ``partner_called_on=None`` on a reply is an omitted receipt (002 §4.3.3): the call is on
    # record, so the receipt is its day, not the call plus the 5 days of the postal letter.
    chart = compute_chart(Ledger(start_date=d(1), letters=letters))
    assert chart.rows[3].received == d(15) and chart.rows[3].days == 5
    assert [(n.code, n.values) for n in chart.notes if n.letter == 4] == [
        ("first_omission", {"side": "black"}), ("receipt_phone_call", {"estimate": d(15)})]


def test_by_phone_round_trips_through_the_ledger_json() -> None:
    ledger = Ledger(start_date=d(1), letters=(
        phone_reply(W, 1, called_on=d(3), partner_called_on=None),
        LetterEntry(B, 1, sent=d(9), received=d(3)),
    ))
    data = ledger_to_dict(ledger)
    assert data["letters"][0]["by_phone"] is True and "by_phone" not in data["letters"][1]
    assert ledger_from_dict(data) == ledger
