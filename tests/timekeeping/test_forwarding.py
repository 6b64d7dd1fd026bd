"""A move forwarded by a third hand (002 §4.1.1): the steward of a mixed tournament posts or
telephones an e-mail player's move to a partner who plays by post or telephone.

The reading is docs/rules/mail.md 21: until the partner's card gives the real receipt, it is
estimated from the day the steward posted the move plus the average transit — the days it
waited for the steward are not the partner's — and a call's day is the receipt (002 §4.1.2,
§4.3.1). The partner's first date equal to the posting day is the steward's postmark, not a
discrepancy; a differing one corrects nothing (the e-mail dispatch is the server's day). The
repeat of 002 §4.3.4 is due 30 days after the posting.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, timedelta

import pytest

from timekeeping import (
    Ledger,
    LedgerFormatError,
    LetterEntry,
    Side,
    average_transit_days,
    compute_chart,
    estimated_receipt,
    ledger_from_dict,
    ledger_to_dict,
    repeat_due,
    repeat_due_of,
    reply_clock,
)

W, B = Side.WHITE, Side.BLACK


def d(day: int, month: int = 3) -> date:
    return date(2026, month, day)


#: White plays by post, Black by e-mail. White's card of 2 March reached Black (relayed) on 6
#: March: 4 days. Black moved by e-mail on 8 March; the steward posted it on 14 March.
OPENING = (
    LetterEntry(W, 1, sent=d(2)),
    LetterEntry(B, 1, sent=d(8), received=d(6), partner_sent_postmark=d(2)),
)


def _forwarded(on: date | None, by_phone: bool = False) -> Ledger:
    letters = (OPENING[0], replace(OPENING[1], forwarded_on=on, forwarded_by_phone=by_phone))
    return Ledger(start_date=d(1), letters=letters)


def test_the_postal_players_clock_counts_from_the_posting_day_plus_the_transit() -> None:
    assert average_transit_days(_forwarded(None)) == 4
    # Not forwarded (yet): his receipt is estimated from the e-mail dispatch, as before.
    assert reply_clock(_forwarded(None), W).counting_from == d(8) + timedelta(days=4)
    # Posted on 14 March: from then, plus the 4 days a letter of this game takes.
    clock = reply_clock(_forwarded(d(14)), W)
    assert clock.counting_from == d(18)
    assert clock.counting_from == estimated_receipt(_forwarded(d(14)).letters[-1], 4)
    # The six days the move waited for the steward are not White's: he has six more days left.
    late, early = reply_clock(_forwarded(d(14)), W), reply_clock(_forwarded(None), W)
    assert late.days_left(d(25)) - early.days_left(d(25)) == 6


def test_a_move_forwarded_by_telephone_is_received_the_day_of_the_call() -> None:
    assert reply_clock(_forwarded(d(14), by_phone=True), W).counting_from == d(14)


def test_a_receipt_the_relay_gave_stands_over_any_estimate() -> None:
    assert reply_clock(_forwarded(d(14)), W, received=d(20)).counting_from == d(20)


def test_a_move_given_by_telephone_is_estimated_as_heard_the_day_of_the_call() -> None:
    """The clock and the chart estimate a receipt the same way (one rule,
    :func:`estimated_receipt`): a call is heard the day it is made (002 §4.1.2)."""
    ledger = Ledger(start_date=d(1), letters=(
        *OPENING, LetterEntry(W, 2, sent=d(20), received=d(17), by_phone=True)))
    assert reply_clock(ledger, B).counting_from == d(20)
    omitted = replace(ledger, letters=(*ledger.letters, LetterEntry(B, 2, sent=d(25))))
    assert compute_chart(omitted).rows[-1].received == d(20)


def test_the_reply_quoting_the_posting_day_is_no_discrepancy() -> None:
    reply = LetterEntry(W, 2, sent=d(22), received=d(19), partner_sent_postmark=d(14))
    ledger = replace(_forwarded(d(14)), letters=(*_forwarded(d(14)).letters, reply))
    chart = compute_chart(ledger)
    assert chart.notes == () and chart.errors == ()
    # Black's dispatch stays the server's day; White thought from his receipt on 19 March.
    assert chart.rows[1].sent == d(8)
    assert chart.rows[-1].days == 3
    # The transit is the card's own journey: 14 → 19 March, 5 days (and 4 before).
    assert average_transit_days(ledger) == 5  # (4 + 5) / 2 rounded half up


def test_a_differing_first_date_corrects_nothing_and_is_noted() -> None:
    """The postmark on the letter White received is the steward's: it cannot say when Black
    sent his move, which the server dated (docs/rules/mail.md 1). Even a reply that asks for the
    correction leaves Black's time as it is; the chart says what the card gave."""
    reply = LetterEntry(W, 2, sent=d(22), received=d(19), partner_sent_postmark=d(16),
                        corrects_partner=True)
    ledger = replace(_forwarded(d(14)), letters=(*_forwarded(d(14)).letters, reply))
    chart = compute_chart(ledger)
    assert chart.rows[1].sent == d(8)
    [note] = chart.notes
    assert (note.rule, note.code, note.letter) == ("002 §4.3.1", "forwarded_postmark_differs", 2)
    assert note.values == {"postmark": d(16), "forwarded": d(14), "reply": 3}
    # Without the forwarding the same reply corrects Black's dispatch to the postmark.
    unforwarded = replace(ledger, letters=(*_forwarded(None).letters, reply))
    assert compute_chart(unforwarded).rows[1].sent == d(16)


def test_a_card_omitting_its_receipt_is_estimated_from_the_posting_day() -> None:
    reply = LetterEntry(W, 2, sent=d(25))
    ledger = replace(_forwarded(d(14)), letters=(*_forwarded(d(14)).letters, reply))
    row = compute_chart(ledger).rows[-1]
    # The same day the clock counted from before the card came (14 + 4 transit).
    assert (row.received, row.received_estimated) == (d(18), True)
    assert row.received == reply_clock(_forwarded(d(14)), W).counting_from
    by_phone = replace(ledger, letters=(
        OPENING[0], replace(OPENING[1], forwarded_on=d(14), forwarded_by_phone=True), reply))
    row = compute_chart(by_phone).rows[-1]
    assert row.received == d(14)
    assert [note.code for note in compute_chart(by_phone).notes] == [
        "first_omission", "receipt_phone_call"]


def test_a_call_forwarding_is_no_letter_in_the_post_for_the_average_transit() -> None:
    reply = LetterEntry(W, 2, sent=d(22), received=d(14))
    ledger = Ledger(start_date=d(1), letters=(
        OPENING[0], replace(OPENING[1], forwarded_on=d(14), forwarded_by_phone=True), reply))
    assert average_transit_days(ledger) == 4


def test_the_repeat_is_due_thirty_days_after_the_posting() -> None:
    forwarded = _forwarded(d(14)).letters[-1]
    assert repeat_due_of(forwarded) == repeat_due(d(14)) == d(13, 4)
    assert repeat_due_of(OPENING[1]) == repeat_due(d(8))


def test_the_json_ledger_keeps_the_forwarding() -> None:
    ledger = _forwarded(d(14), by_phone=True)
    written = ledger_to_dict(ledger)
    assert written["letters"][1]["forwarded_on"] == "2026-03-14"
    assert written["letters"][1]["forwarded_by_phone"] is True
    assert "forwarded_on" not in written["letters"][0]
    assert ledger_from_dict(json.loads(json.dumps(written))) == ledger
    written["letters"][1].pop("forwarded_on")
    with pytest.raises(LedgerFormatError) as refused:
        ledger_from_dict(written)
    assert "letters[1].forwarded_by_phone" in str(refused.value)
